import { Injectable } from '@nestjs/common';
import { GenerateSql, sql, Sql } from '@app/database';

/** How long a completed request's response is replayed to retries; older rows are deleted. */
const RETENTION = sql`interval '24 hours'`;
/** How long a reservation shields a running request; after it, a retry may take the key over. */
const RESERVATION = sql`interval '60 seconds'`;

export interface StoredResponse {
  fingerprint: Buffer;
  /** Null while the first request still runs. */
  response_status: number | null;
  response_body: unknown;
  response_location: string | null;
  response_etag: string | null;
}

/** What a replay answers besides the body: the status and the headers that describe the result. */
/** An `Idempotency-Key` as the export shows it. */
export interface ExportedIdempotencyKey {
  key: string;
  /** Null while its request is under way. */
  responseStatus: number | null;
  responseLocation: string | null;
  createdAt: string;
}

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
  @GenerateSql({ params: [1, 'key-1', Buffer.alloc(32)] })
  async reserve(accountId: number, key: string, fingerprint: Buffer): Promise<StoredResponse | undefined> {
    const [taken] = await this.sql.rows<{ taken: boolean }>(
      sql`WITH expired AS (
            DELETE FROM idempotency_keys
             WHERE account_id = ${accountId} AND key = ${key} AND created_at < now() - ${RETENTION}
          )
          INSERT INTO idempotency_keys AS k (account_id, key, fingerprint, locked_until)
          VALUES (${accountId}, ${key}, ${fingerprint}, now() + ${RESERVATION})
          ON CONFLICT (account_id, key) DO UPDATE
             SET locked_until = EXCLUDED.locked_until
           WHERE k.response_status IS NULL AND k.locked_until < now() AND k.fingerprint = EXCLUDED.fingerprint
          RETURNING true AS taken`,
    );
    if (taken) return undefined;
    const [stored] = await this.sql.rows<StoredResponse>(
      sql`SELECT fingerprint, response_status, response_body, response_location, response_etag
            FROM idempotency_keys WHERE account_id = ${accountId} AND key = ${key}`,
    );
    // Deleted as expired between the two statements: take it again.
    return stored ?? this.reserve(accountId, key, fingerprint);
  }

  @GenerateSql({ params: [1, 'key-1', { status: 201, body: {}, location: '/v1/pets/1', etag: '"1"' }] })
  async record(accountId: number, key: string, response: RecordedResponse): Promise<void> {
    await this.sql.query(
      sql`UPDATE idempotency_keys
             SET response_status = ${response.status}, response_body = ${JSON.stringify(response.body ?? null)},
                 response_location = ${response.location}, response_etag = ${response.etag}, locked_until = NULL
           WHERE account_id = ${accountId} AND key = ${key}`,
    );
  }

  /** Frees a key whose request failed, so that the client can retry it. */
  @GenerateSql({ params: [1, 'key-1'] })
  async release(accountId: number, key: string): Promise<void> {
    await this.sql.query(
      sql`DELETE FROM idempotency_keys WHERE account_id = ${accountId} AND key = ${key} AND response_status IS NULL`,
    );
  }

  /** Deletes up to `limit` rows older than the retention; returns how many it deleted. */
  @GenerateSql({ params: [1000] })
  async deleteExpired(limit: number): Promise<number> {
    const { rowCount } = await this.sql.query(
      sql`DELETE FROM idempotency_keys
           WHERE (account_id, key) IN (
             SELECT account_id, key FROM idempotency_keys
              WHERE created_at < now() - ${RETENTION}
              LIMIT ${limit}
                FOR UPDATE SKIP LOCKED)`,
    );
    return rowCount ?? 0;
  }

  /**
   * The account's keys a page at a time, by key: what each reserved and answered, without the stored body (a
   * copy of an answer whose record the export shows where it is kept).
   */
  @GenerateSql({ params: [1, 500] })
  exported(accountId: number, pageSize: number): AsyncIterable<ExportedIdempotencyKey> {
    const rows = this.sql.pages<ExportedIdempotencyKey>(
      pageSize,
      (after) =>
        sql`SELECT key, response_status AS "responseStatus", response_location AS "responseLocation",
                   to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "createdAt"
              FROM idempotency_keys WHERE account_id = ${accountId} AND key > ${after?.key ?? ''}
             ORDER BY key LIMIT ${pageSize}`,
    );
    return rows;
  }

  /** Deletes up to `limit` keys of a deleted account, with their stored answers; how many. */
  @GenerateSql({ params: [1, 200] })
  async deleteSome(accountId: number, limit: number): Promise<number> {
    const { rowCount } = await this.sql.query(
      sql`DELETE FROM idempotency_keys
           WHERE (account_id, key) IN (SELECT account_id, key FROM idempotency_keys WHERE account_id = ${accountId} LIMIT ${limit})`,
    );
    return rowCount!;
  }
}
