import { Global, Injectable, Module } from '@nestjs/common';
import { settingsModule } from '@app/core';
import { sql, Sql } from '@app/database';
import { IdempotencySettings } from './idempotency.settings';

/** How long a completed request's response is replayed to retries; older rows are deleted. */
const RETENTION = '24 hours';
/** How long a reservation shields a running request; after it, a retry may take the key over. */
const RESERVATION_SECONDS = 60;

export interface StoredResponse {
  fingerprint: Buffer;
  /** Null while the first request still runs. */
  response_status: number | null;
  response_body: unknown;
  response_location: string | null;
  response_etag: string | null;
}

/** What a replay answers besides the body: the status and the headers that describe the result. */
export interface RecordedResponse {
  status: number;
  body: unknown;
  location: string | null;
  etag: string | null;
}

/** Every statement on `idempotency_keys`: one row per (account, Idempotency-Key). */
@Injectable()
export class IdempotencyKeysRepository {
  constructor(private readonly sql: Sql) {}

  /** Takes the key, or returns what is stored under it. */
  async reserve(accountId: number, key: string, fingerprint: Buffer): Promise<StoredResponse | undefined> {
    const [taken] = await this.sql.rows<{ taken: boolean }>(
      `WITH expired AS (
         DELETE FROM idempotency_keys
          WHERE account_id = $1 AND key = $2 AND created_at < now() - interval '${RETENTION}'
       )
       INSERT INTO idempotency_keys AS k (account_id, key, fingerprint, locked_until)
       VALUES ($1, $2, $3, now() + interval '${RESERVATION_SECONDS} seconds')
       ON CONFLICT (account_id, key) DO UPDATE
          SET locked_until = EXCLUDED.locked_until
        WHERE k.response_status IS NULL AND k.locked_until < now() AND k.fingerprint = EXCLUDED.fingerprint
       RETURNING true AS taken`,
      [accountId, key, fingerprint],
    );
    if (taken) return undefined;
    const [stored] = await this.sql.rows<StoredResponse>(
      `SELECT fingerprint, response_status, response_body, response_location, response_etag
         FROM idempotency_keys WHERE account_id = $1 AND key = $2`,
      [accountId, key],
    );
    // Deleted as expired between the two statements: take it again.
    return stored ?? this.reserve(accountId, key, fingerprint);
  }

  async record(accountId: number, key: string, response: RecordedResponse): Promise<void> {
    await this.sql.query(
      sql`UPDATE idempotency_keys
             SET response_status = ${response.status}, response_body = ${JSON.stringify(response.body ?? null)},
                 response_location = ${response.location}, response_etag = ${response.etag}, locked_until = NULL
           WHERE account_id = ${accountId} AND key = ${key}`,
    );
  }

  /** Frees a key whose request failed, so that the client can retry it. */
  async release(accountId: number, key: string): Promise<void> {
    await this.sql.query(
      'DELETE FROM idempotency_keys WHERE account_id = $1 AND key = $2 AND response_status IS NULL',
      [accountId, key],
    );
  }

  /** Deletes up to `limit` rows older than the retention; returns how many it deleted. */
  async deleteExpired(limit: number): Promise<number> {
    const { rowCount } = await this.sql.query(
      `DELETE FROM idempotency_keys
        WHERE (account_id, key) IN (
          SELECT account_id, key FROM idempotency_keys
           WHERE created_at < now() - interval '${RETENTION}'
           LIMIT $1
             FOR UPDATE SKIP LOCKED)`,
      [limit],
    );
    return rowCount ?? 0;
  }
}

/**
 * Global, so that every module whose routes are `@Idempotent()` can build the interceptor, and the
 * worker its purger.
 */
@Global()
@Module({
  imports: [settingsModule(IdempotencySettings)],
  providers: [IdempotencyKeysRepository],
  exports: [IdempotencyKeysRepository, settingsModule(IdempotencySettings)],
})
export class IdempotencyModule {}
