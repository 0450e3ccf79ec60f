import { Sql } from '@app/database';
import { Injectable } from '@nestjs/common';
import type { Plan } from './plans';

export interface Account {
  id: number;
  /** As the client gave it. */
  email: string;
  /**
   * `canonicalEmail(email)`, unique: what sign-ups compare. Null only for an account that shared its
   * canonical email with an older one when the column was introduced.
   */
  emailCanonical: string | null;
  plan: Plan;
  customPerMinute: number | null;
  customPerDay: number | null;
  createdAt: Date;
}

interface AccountRow {
  id: string;
  email: string;
  email_canonical: string | null;
  plan: Plan;
  custom_per_minute: number | null;
  custom_per_day: number | null;
  created_at: Date;
}

const COLUMNS = 'id, email, email_canonical, plan, custom_per_minute, custom_per_day, created_at';

function toAccount(row: AccountRow): Account {
  return {
    id: Number(row.id),
    email: row.email,
    emailCanonical: row.email_canonical,
    plan: row.plan,
    customPerMinute: row.custom_per_minute,
    customPerDay: row.custom_per_day,
    createdAt: row.created_at,
  };
}

/** Accounts in PostgreSQL, one per canonical email (a unique index). */
@Injectable()
export class AccountsRepository {
  constructor(private readonly sql: Sql) {}

  /** Rejects with SQLSTATE 23505 when an account already has the canonical email. */
  async insert(account: { email: string; emailCanonical: string; plan: Plan }): Promise<Account> {
    const [row] = await this.sql.rows<AccountRow>(
      `INSERT INTO accounts (email, email_canonical, plan) VALUES ($1, $2, $3) RETURNING ${COLUMNS}`,
      [account.email, account.emailCanonical, account.plan],
    );
    return toAccount(row!);
  }

  async findById(id: number): Promise<Account | undefined> {
    const [row] = await this.sql.rows<AccountRow>(`SELECT ${COLUMNS} FROM accounts WHERE id = $1`, [id]);
    return row && toAccount(row);
  }

  /**
   * The account with this canonical email, or, among those left without one, with exactly `email`;
   * the one whose email is exactly `email` first.
   */
  async findByEmail(canonical: string, email: string): Promise<Account | undefined> {
    const [row] = await this.sql.rows<AccountRow>(
      `SELECT ${COLUMNS} FROM accounts
        WHERE email_canonical = $1 OR (email_canonical IS NULL AND email = $2)
        ORDER BY email = $2 DESC`,
      [canonical, email],
    );
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
