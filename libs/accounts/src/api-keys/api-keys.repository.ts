import { lockInIdOrder, sql, Sql } from '@app/database';
import { Injectable } from '@nestjs/common';
import type { Plan } from '../plans';

/** A key as its owner sees it; the secret is never stored, only its SHA-256 hash. */
export interface ApiKey {
  id: number;
  accountId: number;
  name: string;
  prefix: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
}

/** What an unrevoked key grants: its account and that account's plan. */
export interface KeyGrant {
  keyId: number;
  accountId: number;
  plan: Plan;
  customPerMinute: number | null;
  customPerDay: number | null;
}

interface ApiKeyRow {
  id: string;
  account_id: string;
  name: string;
  prefix: string;
  created_at: Date;
  last_used_at: Date | null;
  revoked_at: Date | null;
}

interface GrantRow {
  key_id: string;
  account_id: string;
  plan: Plan;
  custom_per_minute: number | null;
  custom_per_day: number | null;
}

const COLUMNS = 'id, account_id, name, prefix, created_at, last_used_at, revoked_at';

function toApiKey(row: ApiKeyRow): ApiKey {
  return {
    id: Number(row.id),
    accountId: Number(row.account_id),
    name: row.name,
    prefix: row.prefix,
    createdAt: row.created_at,
    lastUsedAt: row.last_used_at,
    revokedAt: row.revoked_at,
  };
}

/** API keys in PostgreSQL, found by the hash of their secret (a unique index). */
@Injectable()
export class ApiKeysRepository {
  constructor(private readonly sql: Sql) {}

  async insert(key: { accountId: number; name: string; prefix: string; hash: Buffer }): Promise<ApiKey> {
    const [row] = await this.sql.rows<ApiKeyRow>(
      `INSERT INTO api_keys (account_id, name, prefix, key_hash) VALUES ($1, $2, $3, $4) RETURNING ${COLUMNS}`,
      [key.accountId, key.name, key.prefix, key.hash],
    );
    return toApiKey(row!);
  }

  async listByAccount(accountId: number): Promise<ApiKey[]> {
    const rows = await this.sql.rows<ApiKeyRow>(`SELECT ${COLUMNS} FROM api_keys WHERE account_id = $1 ORDER BY id`, [
      accountId,
    ]);
    return rows.map(toApiKey);
  }

  /** The account a key belongs to, revoked or not. */
  async findAccountId(keyId: number): Promise<number | undefined> {
    const [row] = await this.sql.rows<{ account_id: string }>('SELECT account_id FROM api_keys WHERE id = $1', [keyId]);
    return row && Number(row.account_id);
  }

  /** Whether the account has the key; revoking it again keeps its first revocation time. */
  async revoke(accountId: number, keyId: number): Promise<boolean> {
    const { rowCount } = await this.sql.query(
      'UPDATE api_keys SET revoked_at = COALESCE(revoked_at, now()) WHERE id = $1 AND account_id = $2',
      [keyId, accountId],
    );
    return rowCount! > 0;
  }

  /** What the key with this hash grants; undefined when it is unknown or revoked. */
  async findGrant(hash: Buffer): Promise<KeyGrant | undefined> {
    const [row] = await this.sql.rows<GrantRow>(
      `SELECT k.id AS key_id, k.account_id, a.plan, a.custom_per_minute, a.custom_per_day
         FROM api_keys k JOIN accounts a ON a.id = k.account_id
        WHERE k.key_hash = $1 AND k.revoked_at IS NULL`,
      [hash],
    );
    return (
      row && {
        keyId: Number(row.key_id),
        accountId: Number(row.account_id),
        plan: row.plan,
        customPerMinute: row.custom_per_minute,
        customPerDay: row.custom_per_day,
      }
    );
  }

  /** Sets each key's `last_used_at`, unless it already holds a later use. */
  async recordUses(uses: ReadonlyMap<number, Date>): Promise<void> {
    const ids = [...uses.keys()];
    await this.sql.query(
      // Every process flushes the uses of the same keys.
      sql`${lockInIdOrder('api_keys', ids)}
          UPDATE api_keys AS k SET last_used_at = u.used_at
            FROM unnest(${ids}::bigint[], ${[...uses.values()]}::timestamptz[]) AS u(id, used_at)
           WHERE k.id = u.id AND k.id IN (SELECT id FROM locked)
             AND (k.last_used_at IS NULL OR k.last_used_at < u.used_at)`,
    );
  }
}
