import { Injectable } from '@nestjs/common';
import { Sql } from '../database/sql';

/** How long a reservation shields a running request; after it, a retry may take the key over. */
const RESERVATION_SECONDS = 60;
const RETENTION = '24 hours';

/** What is stored under a key: the request's fingerprint, and its response once it has one. */
export interface StoredKey {
  fingerprint: Buffer;
  response_status: number | null;
  response_body: unknown;
  response_location: string | null;
}

/** `Idempotency-Key` records in PostgreSQL, one row per (account, key). */
@Injectable()
export class IdempotencyRepository {
  constructor(private readonly sql: Sql) {}

  /**
   * Takes the key for a request with this fingerprint: a new key, an expired one (deleted first), or one
   * whose reservation lapsed without a response. False when the key is someone else's to answer.
   */
  async reserve(accountId: number, key: string, fingerprint: Buffer): Promise<boolean> {
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
    return taken !== undefined;
  }

  async find(accountId: number, key: string): Promise<StoredKey | undefined> {
    const [stored] = await this.sql.rows<StoredKey>(
      `SELECT fingerprint, response_status, response_body, response_location
         FROM idempotency_keys WHERE account_id = $1 AND key = $2`,
      [accountId, key],
    );
    return stored;
  }

  /** Keeps the response to replay, and ends the reservation. */
  async saveResponse(
    accountId: number,
    key: string,
    response: { status: number; body: unknown; location: string | null },
  ): Promise<void> {
    await this.sql.query(
      `UPDATE idempotency_keys
          SET response_status = $3, response_body = $4, response_location = $5, locked_until = NULL
        WHERE account_id = $1 AND key = $2`,
      [accountId, key, response.status, JSON.stringify(response.body ?? null), response.location],
    );
  }

  /** Frees a key whose request failed, so that a retry can take it. */
  async release(accountId: number, key: string): Promise<void> {
    await this.sql.query(
      'DELETE FROM idempotency_keys WHERE account_id = $1 AND key = $2 AND response_status IS NULL',
      [accountId, key],
    );
  }
}
