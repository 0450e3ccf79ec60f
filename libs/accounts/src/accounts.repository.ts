import { columnList, Sql, sql, type TableRow } from '@app/database';
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

const ACCOUNT_COLUMNS = [
  'id',
  'email',
  'email_canonical',
  'plan',
  'custom_per_minute',
  'custom_per_day',
  'created_at',
] as const;

/** `email` is null once the account is deleted, which no read below returns. */
type AccountRow = Pick<TableRow<'accounts', { plan: Plan; email: string }>, (typeof ACCOUNT_COLUMNS)[number]>;

const COLUMNS = columnList('accounts', ACCOUNT_COLUMNS);

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

/** Accounts that are not deleted: a deleted account's row stays, without its email, for others' records to name. */
const LIVE = sql`deleted_at IS NULL`;

/** Accounts in PostgreSQL, one per canonical email (a unique index). */
@Injectable()
export class AccountsRepository {
  constructor(private readonly sql: Sql) {}

  /** Rejects with SQLSTATE 23505 when an account already has the canonical email. */
  async insert(account: { email: string; emailCanonical: string; plan: Plan }): Promise<Account> {
    const [row] = await this.sql.rows<AccountRow>(
      sql`INSERT INTO accounts (email, email_canonical, plan)
          VALUES (${account.email}, ${account.emailCanonical}, ${account.plan})
          RETURNING ${COLUMNS}`,
    );
    return toAccount(row!);
  }

  async findById(id: number): Promise<Account | undefined> {
    const [row] = await this.sql.rows<AccountRow>(sql`SELECT ${COLUMNS} FROM accounts WHERE id = ${id} AND ${LIVE}`);
    return row && toAccount(row);
  }

  /** Up to `limit` accounts after the id `afterId`, by id. */
  async list(afterId: number, limit: number): Promise<Account[]> {
    const rows = await this.sql.rows<AccountRow>(
      sql`SELECT ${COLUMNS} FROM accounts WHERE id > ${afterId} AND ${LIVE} ORDER BY id LIMIT ${limit}`,
    );
    return rows.map(toAccount);
  }

  /**
   * The account with this canonical email, or, among those left without one, with exactly `email`;
   * the one whose email is exactly `email` first.
   */
  async findByEmail(canonical: string, email: string): Promise<Account | undefined> {
    const [row] = await this.sql.rows<AccountRow>(
      sql`SELECT ${COLUMNS} FROM accounts
           WHERE (email_canonical = ${canonical} OR (email_canonical IS NULL AND email = ${email})) AND ${LIVE}
           ORDER BY email = ${email} DESC`,
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
      sql`UPDATE accounts SET plan = ${plan}, custom_per_minute = ${customPerMinute}, custom_per_day = ${customPerDay}
           WHERE id = ${id} AND ${LIVE}
          RETURNING ${COLUMNS}`,
    );
    return row && toAccount(row);
  }

  /**
   * Deletes the account as its owner asked: its email goes at once (the address may sign up again), and the
   * worker erases the rest. False when it was deleted already.
   */
  async markDeleted(id: number): Promise<boolean> {
    const { rowCount } = await this.sql.query(
      sql`UPDATE accounts SET deleted_at = now(), email = NULL, email_canonical = NULL WHERE id = ${id} AND ${LIVE}`,
    );
    return rowCount! > 0;
  }

  /** Deleted accounts whose erasure the worker has not finished, oldest first. */
  async findErasing(limit: number): Promise<number[]> {
    const rows = await this.sql.rows<{ id: string }>(
      sql`SELECT id FROM accounts WHERE deleted_at IS NOT NULL AND erased_at IS NULL ORDER BY deleted_at LIMIT ${limit}`,
    );
    return rows.map((row) => Number(row.id));
  }

  /** Records that every context has erased what it held of the deleted account. */
  async markErased(id: number): Promise<void> {
    await this.sql.query(
      sql`UPDATE accounts SET erased_at = coalesce(erased_at, now()) WHERE id = ${id} AND deleted_at IS NOT NULL`,
    );
  }
}
