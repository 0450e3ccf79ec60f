import { exportedAs } from '@app/core';
import { columnList, lockInIdOrder, sql, Sql, type TableRow } from '@app/database';
import { Injectable } from '@nestjs/common';
import type { Plan } from '../plans';
import type { GrantedScope, KeyKind } from './scopes';

/** A key as its owner sees it; a secret key is never stored, only its SHA-256 hash. */
export interface ApiKey {
  id: number;
  accountId: number;
  name: string;
  prefix: string;
  kind: KeyKind;
  scopes: GrantedScope[];
  expiresAt: Date | null;
  /** A publishable key's origins; null for a secret key. */
  allowedOrigins: string[] | null;
  /** A publishable key whole: it is not secret. Null for a secret key. */
  publishableKey: string | null;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
}

export type NewApiKey = Pick<ApiKey, 'accountId' | 'name' | 'prefix' | 'kind' | 'scopes' | 'expiresAt'> &
  Pick<ApiKey, 'allowedOrigins' | 'publishableKey'> & { hash: Buffer };

/** What an unrevoked key grants: its account and that account's plan, its scopes, origins and expiry. */
export interface KeyGrant {
  keyId: number;
  accountId: number;
  plan: Plan;
  customPerMinute: number | null;
  customPerDay: number | null;
  scopes: GrantedScope[];
  allowedOrigins: string[] | null;
  expiresAt: Date | null;
}

type KeysRow = TableRow<'api_keys', { kind: KeyKind; scopes: GrantedScope[] }>;

const API_KEY_COLUMNS = [
  'id',
  'account_id',
  'name',
  'prefix',
  'kind',
  'scopes',
  'expires_at',
  'allowed_origins',
  'publishable_key',
  'created_at',
  'last_used_at',
  'revoked_at',
] as const;

type ApiKeyRow = Pick<KeysRow, (typeof API_KEY_COLUMNS)[number]>;

/** A key's grant: its columns and its account's (`findGrant`). */
type GrantRow = { key_id: KeysRow['id'] } & Pick<KeysRow, 'account_id' | 'scopes' | 'allowed_origins' | 'expires_at'> &
  Pick<TableRow<'accounts', { plan: Plan }>, 'plan' | 'custom_per_minute' | 'custom_per_day'>;

const COLUMNS = columnList('api_keys', API_KEY_COLUMNS);

function toApiKey(row: ApiKeyRow): ApiKey {
  return {
    id: Number(row.id),
    accountId: Number(row.account_id),
    name: row.name,
    prefix: row.prefix,
    kind: row.kind,
    scopes: row.scopes,
    expiresAt: row.expires_at,
    allowedOrigins: row.allowed_origins,
    publishableKey: row.publishable_key,
    createdAt: row.created_at,
    lastUsedAt: row.last_used_at,
    revokedAt: row.revoked_at,
  };
}

/** API keys in PostgreSQL, found by the hash of their secret (a unique index). */
@Injectable()
export class ApiKeysRepository {
  constructor(private readonly sql: Sql) {}

  async insert(key: NewApiKey): Promise<ApiKey> {
    const [row] = await this.sql.rows<ApiKeyRow>(
      sql`INSERT INTO api_keys
            (account_id, name, prefix, key_hash, kind, scopes, expires_at, allowed_origins, publishable_key)
          VALUES (${key.accountId}, ${key.name}, ${key.prefix}, ${key.hash}, ${key.kind}, ${key.scopes},
                  ${key.expiresAt}, ${key.allowedOrigins}, ${key.publishableKey})
          RETURNING ${COLUMNS}`,
    );
    return toApiKey(row!);
  }

  async listByAccount(accountId: number): Promise<ApiKey[]> {
    const rows = await this.sql.rows<ApiKeyRow>(
      sql`SELECT ${COLUMNS} FROM api_keys WHERE account_id = ${accountId} ORDER BY id`,
    );
    return rows.map(toApiKey);
  }

  /** One key of the account, revoked or not. */
  async findOne(accountId: number, keyId: number): Promise<ApiKey | undefined> {
    const [row] = await this.sql.rows<ApiKeyRow>(
      sql`SELECT ${COLUMNS} FROM api_keys WHERE id = ${keyId} AND account_id = ${accountId}`,
    );
    return row && toApiKey(row);
  }

  /** The account a key belongs to, revoked or not. */
  async findAccountId(keyId: number): Promise<number | undefined> {
    const [row] = await this.sql.rows<{ account_id: string }>(sql`SELECT account_id FROM api_keys WHERE id = ${keyId}`);
    return row && Number(row.account_id);
  }

  /** Whether the account has the key; revoking it again keeps its first revocation time. */
  async revoke(accountId: number, keyId: number): Promise<boolean> {
    const { rowCount } = await this.sql.query(
      sql`UPDATE api_keys SET revoked_at = COALESCE(revoked_at, now()) WHERE id = ${keyId} AND account_id = ${accountId}`,
    );
    return rowCount! > 0;
  }

  /** Revokes every key of the account (each keeps its first revocation time). */
  async revokeAll(accountId: number): Promise<void> {
    await this.sql.query(
      sql`UPDATE api_keys SET revoked_at = now() WHERE account_id = ${accountId} AND revoked_at IS NULL`,
    );
  }

  /** The account's keys a page at a time, by id. */
  exported(accountId: number, pageSize: number): AsyncIterable<ApiKey> {
    const rows = this.sql.pages<ApiKeyRow>(
      pageSize,
      (after) =>
        sql`SELECT ${COLUMNS} FROM api_keys WHERE account_id = ${accountId} AND id > ${after?.id ?? 0}
             ORDER BY id LIMIT ${pageSize}`,
    );
    return exportedAs(rows, toApiKey);
  }

  /** Deletes up to `limit` keys of a deleted account; how many it deleted. */
  async deleteSome(accountId: number, limit: number): Promise<number> {
    const { rowCount } = await this.sql.query(
      sql`DELETE FROM api_keys WHERE id IN (SELECT id FROM api_keys WHERE account_id = ${accountId} LIMIT ${limit})`,
    );
    return rowCount!;
  }

  /**
   * What the key with this hash grants; undefined when it is unknown or revoked. The one statement a
   * request's key costs (and only when no cache holds it): scopes, origins and expiry come in its row.
   */
  async findGrant(hash: Buffer): Promise<KeyGrant | undefined> {
    const [row] = await this.sql.rows<GrantRow>(
      sql`SELECT k.id AS key_id, k.account_id, a.plan, a.custom_per_minute, a.custom_per_day,
                 k.scopes, k.allowed_origins, k.expires_at
            FROM api_keys k JOIN accounts a ON a.id = k.account_id
           WHERE k.key_hash = ${hash} AND k.revoked_at IS NULL AND a.deleted_at IS NULL`,
    );
    return (
      row && {
        keyId: Number(row.key_id),
        accountId: Number(row.account_id),
        plan: row.plan,
        customPerMinute: row.custom_per_minute,
        customPerDay: row.custom_per_day,
        scopes: row.scopes,
        allowedOrigins: row.allowed_origins,
        expiresAt: row.expires_at,
      }
    );
  }

  /** Sets each key's `last_used_at`, unless it already holds a later use. */
  async recordUses(uses: ReadonlyMap<number, Date>): Promise<void> {
    const ids = [...uses.keys()];
    await this.sql.query(
      // Every process flushes the uses of the same keys: rows are locked in id order, so flushes never deadlock.
      sql`${lockInIdOrder('api_keys', ids)}
          UPDATE api_keys AS k SET last_used_at = u.used_at
            FROM unnest(${ids}::bigint[], ${[...uses.values()]}::timestamptz[]) AS u(id, used_at)
           WHERE k.id = u.id AND k.id IN (SELECT id FROM locked)
             AND (k.last_used_at IS NULL OR k.last_used_at < u.used_at)`,
    );
  }
}
