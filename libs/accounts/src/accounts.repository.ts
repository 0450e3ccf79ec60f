import { Sql } from '@app/core';
import { Injectable } from '@nestjs/common';
import type { Plan } from './plans';

export interface Account {
  id: number;
  email: string;
  plan: Plan;
  customPerMinute: number | null;
  customPerDay: number | null;
  createdAt: Date;
}

interface AccountRow {
  id: string;
  email: string;
  plan: Plan;
  custom_per_minute: number | null;
  custom_per_day: number | null;
  created_at: Date;
}

const COLUMNS = 'id, email, plan, custom_per_minute, custom_per_day, created_at';

function toAccount(row: AccountRow): Account {
  return {
    id: Number(row.id),
    email: row.email,
    plan: row.plan,
    customPerMinute: row.custom_per_minute,
    customPerDay: row.custom_per_day,
    createdAt: row.created_at,
  };
}

/** Accounts in PostgreSQL. Emails are compared case-insensitively (the unique index is on lower(email)). */
@Injectable()
export class AccountsRepository {
  constructor(private readonly sql: Sql) {}

  /** Rejects with SQLSTATE 23505 when an account already has the email. */
  async insert(email: string, plan: Plan): Promise<Account> {
    const [row] = await this.sql.rows<AccountRow>(
      `INSERT INTO accounts (email, plan) VALUES ($1, $2) RETURNING ${COLUMNS}`,
      [email, plan],
    );
    return toAccount(row!);
  }

  async findById(id: number): Promise<Account | undefined> {
    const [row] = await this.sql.rows<AccountRow>(`SELECT ${COLUMNS} FROM accounts WHERE id = $1`, [id]);
    return row && toAccount(row);
  }

  async findByEmail(email: string): Promise<Account | undefined> {
    const [row] = await this.sql.rows<AccountRow>(`SELECT ${COLUMNS} FROM accounts WHERE lower(email) = lower($1)`, [
      email,
    ]);
    return row && toAccount(row);
  }

  /** The account with its new plan and custom figures; undefined when there is no such account. */
  async updatePlan(
    id: number,
    plan: Plan,
    customPerMinute: number | null,
    customPerDay: number | null,
  ): Promise<Account | undefined> {
    const [row] = await this.sql.rows<AccountRow>(
      `UPDATE accounts SET plan = $2, custom_per_minute = $3, custom_per_day = $4 WHERE id = $1 RETURNING ${COLUMNS}`,
      [id, plan, customPerMinute, customPerDay],
    );
    return row && toAccount(row);
  }
}
