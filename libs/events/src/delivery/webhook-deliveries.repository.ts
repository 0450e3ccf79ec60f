import { Batcher, Sql } from '@app/database';
import { Injectable, Logger } from '@nestjs/common';
import type { EventDto } from '../dto/event.dto';
import type { EventType } from '../event-types';
import type { DeliverEventJobData } from '../events.queue';

/** An attempt under way: what to send, where, and the row its outcome goes to. */
export interface StartedAttempt {
  attemptId: number;
  attempt: number;
  url: string;
  secretCiphertext: string;
  event: EventDto;
}

export interface AttemptOutcome {
  succeeded: boolean;
  responseStatus?: number;
  durationMs: number;
  error?: string;
}

export interface AttemptRow {
  id: number;
  eventId: string;
  eventType: EventType;
  attempt: number;
  status: 'succeeded' | 'failed' | 'pending';
  responseStatus: number | null;
  durationMs: number | null;
  error: string | null;
  createdAt: Date;
}

export interface AttemptPage {
  attempts: AttemptRow[];
  /** Id of the last attempt returned, when older ones follow. */
  lastId?: number;
}

/** How long deliveries whose job Redis took wait to share one UPDATE: short next to the reconciler's interval. */
const ENQUEUED_FLUSH_DELAY_MS = 10;

/**
 * `webhook_deliveries` (one row per event and endpoint: what a job stands for) and `webhook_attempts`
 * (one row per attempt, as clients list them). A delivery is `pending` until an attempt succeeds or the
 * last one fails; every change of it is guarded by that status, so a job run twice does no harm.
 */
@Injectable()
export class WebhookDeliveriesRepository {
  private readonly logger = new Logger(WebhookDeliveriesRepository.name);
  /** `enqueued_at` of many deliveries with one UPDATE; a lost batch costs only a second enqueue. */
  private readonly enqueuedBatches = new Batcher<DeliverEventJobData>(
    (deliveries) => this.writeEnqueued(deliveries),
    ENQUEUED_FLUSH_DELAY_MS,
  );

  constructor(private readonly sql: Sql) {}

  async create(deliveries: DeliverEventJobData[]): Promise<void> {
    if (deliveries.length === 0) return;
    await this.sql.query(
      `INSERT INTO webhook_deliveries (event_id, endpoint_id)
       SELECT * FROM unnest($1::text[], $2::bigint[]) ON CONFLICT DO NOTHING`,
      [deliveries.map((delivery) => delivery.eventId), deliveries.map((delivery) => delivery.endpointId)],
    );
  }

  /** Has `enqueued_at` set shortly, with the others recorded meanwhile; never fails. */
  recordEnqueued(delivery: DeliverEventJobData): void {
    void this.enqueuedBatches.add(delivery);
  }

  flushEnqueued(): Promise<void> {
    return this.enqueuedBatches.flush();
  }

  /** Pending deliveries created at least `olderThanMs` ago that Redis never confirmed a job for. */
  findUnenqueued(olderThanMs: number, limit: number): Promise<DeliverEventJobData[]> {
    return this.deliveries(
      `SELECT event_id, endpoint_id FROM webhook_deliveries
        WHERE status = 'pending' AND enqueued_at IS NULL AND created_at < now() - $1 * interval '1 millisecond'
        ORDER BY created_at LIMIT $2`,
      [olderThanMs, limit],
    );
  }

  /** Pending deliveries whose job was enqueued at least `olderThanMs` ago: is it still in Redis? */
  findEnqueued(olderThanMs: number, limit: number): Promise<DeliverEventJobData[]> {
    return this.deliveries(
      `SELECT event_id, endpoint_id FROM webhook_deliveries
        WHERE status = 'pending' AND enqueued_at < now() - $1 * interval '1 millisecond'
        ORDER BY enqueued_at LIMIT $2`,
      [olderThanMs, limit],
    );
  }

  /**
   * Counts an attempt of a pending delivery to an enabled endpoint and opens its `pending` attempt row,
   * in one statement; undefined when the delivery is settled, or its endpoint disabled or gone.
   */
  async startAttempt(delivery: DeliverEventJobData): Promise<StartedAttempt | undefined> {
    const rows = await this.sql.rows<{
      attempt_id: string;
      attempt: number;
      url: string;
      secret_ciphertext: string;
      id: string;
      type: EventType;
      object: Record<string, unknown>;
      created_at: Date;
    }>(
      `WITH delivery AS (
         UPDATE webhook_deliveries d SET attempts = d.attempts + 1, attempted_at = now()
           FROM webhook_endpoints w
          WHERE d.event_id = $1 AND d.endpoint_id = $2 AND d.status = 'pending' AND w.id = d.endpoint_id AND w.enabled
         RETURNING d.attempts, w.url, w.secret_ciphertext
       ), attempt AS (
         INSERT INTO webhook_attempts (endpoint_id, event_id, event_type, attempt)
         SELECT $2, e.id, e.type, delivery.attempts FROM delivery, events e WHERE e.id = $1
         RETURNING id, attempt
       )
       SELECT attempt.id AS attempt_id, attempt.attempt, delivery.url, delivery.secret_ciphertext,
              e.id, e.type, e.object, e.created_at
         FROM attempt, delivery, events e WHERE e.id = $1`,
      [delivery.eventId, delivery.endpointId],
    );
    const row = rows[0];
    return (
      row && {
        attemptId: Number(row.attempt_id),
        attempt: row.attempt,
        url: row.url,
        secretCiphertext: row.secret_ciphertext,
        event: { id: row.id, type: row.type, createdAt: row.created_at.toISOString(), data: { object: row.object } },
      }
    );
  }

  /**
   * Writes an attempt's outcome, and settles its delivery when it succeeded or was the last: `succeeded`
   * or `failed`, from `pending` only.
   */
  async finishAttempt(
    delivery: DeliverEventJobData,
    attemptId: number,
    outcome: AttemptOutcome,
    last: boolean,
  ): Promise<void> {
    const status = outcome.succeeded ? 'succeeded' : 'failed';
    await this.sql.query(
      `WITH attempt AS (
         UPDATE webhook_attempts SET status = $4, response_status = $5, duration_ms = $6, error = $7 WHERE id = $3
       )
       UPDATE webhook_deliveries SET status = $4
        WHERE event_id = $1 AND endpoint_id = $2 AND status = 'pending' AND ($4 = 'succeeded' OR $8)`,
      [
        delivery.eventId,
        delivery.endpointId,
        attemptId,
        status,
        outcome.responseStatus ?? null,
        outcome.durationMs,
        outcome.error ?? null,
        last,
      ],
    );
  }

  /** Settles a pending delivery as failed without an attempt (its endpoint was disabled, or its job failed for good). */
  async abandon(delivery: DeliverEventJobData): Promise<void> {
    await this.sql.query(
      `UPDATE webhook_deliveries SET status = 'failed' WHERE event_id = $1 AND endpoint_id = $2 AND status = 'pending'`,
      [delivery.eventId, delivery.endpointId],
    );
  }

  /** Closes attempts left `pending` for `olderThanMs` by a worker that stopped mid-attempt; how many. */
  async closeInterrupted(olderThanMs: number): Promise<number> {
    const result = await this.sql.query(
      `UPDATE webhook_attempts SET status = 'failed', error = 'the attempt was interrupted'
        WHERE status = 'pending' AND created_at < now() - $1 * interval '1 millisecond'`,
      [olderThanMs],
    );
    return result.rowCount ?? 0;
  }

  /** The endpoint's attempts, newest first, keyset-paginated by id. */
  async listAttempts(endpointId: number, options: { limit: number; beforeId?: number }): Promise<AttemptPage> {
    const rows = await this.sql.rows<{
      id: string;
      event_id: string;
      event_type: EventType;
      attempt: number;
      status: AttemptRow['status'];
      response_status: number | null;
      duration_ms: number | null;
      error: string | null;
      created_at: Date;
    }>(
      `SELECT id, event_id, event_type, attempt, status, response_status, duration_ms, error, created_at
         FROM webhook_attempts WHERE endpoint_id = $1 AND id < $2 ORDER BY id DESC LIMIT $3`,
      [endpointId, options.beforeId ?? Number.MAX_SAFE_INTEGER, options.limit + 1],
    );
    const attempts = rows.slice(0, options.limit).map((row) => ({
      id: Number(row.id),
      eventId: row.event_id,
      eventType: row.event_type,
      attempt: row.attempt,
      status: row.status,
      responseStatus: row.response_status,
      durationMs: row.duration_ms,
      error: row.error,
      createdAt: row.created_at,
    }));
    return { attempts, lastId: rows.length > options.limit ? attempts[attempts.length - 1]!.id : undefined };
  }

  /** Deletes up to `limit` attempts made before `days` ago; how many. */
  async deleteAttemptsOlderThan(days: number, limit: number): Promise<number> {
    const result = await this.sql.query(
      `DELETE FROM webhook_attempts WHERE id IN (
         SELECT id FROM webhook_attempts WHERE created_at < now() - $1 * interval '1 day' ORDER BY created_at LIMIT $2)`,
      [days, limit],
    );
    return result.rowCount ?? 0;
  }

  /** Never throws: a lost batch is the reconciler's to repair. */
  private async writeEnqueued(deliveries: DeliverEventJobData[]): Promise<void> {
    try {
      await this.sql.query(
        `UPDATE webhook_deliveries d SET enqueued_at = now()
           FROM unnest($1::text[], $2::bigint[]) AS t (event_id, endpoint_id)
          WHERE d.event_id = t.event_id AND d.endpoint_id = t.endpoint_id AND d.enqueued_at IS NULL`,
        [deliveries.map((delivery) => delivery.eventId), deliveries.map((delivery) => delivery.endpointId)],
      );
    } catch (error) {
      this.logger.warn(`${deliveries.length} enqueued deliveries left to the reconciler: ${(error as Error).message}`);
    }
  }

  private async deliveries(sql: string, params: unknown[]): Promise<DeliverEventJobData[]> {
    const rows = await this.sql.rows<{ event_id: string; endpoint_id: string }>(sql, params);
    return rows.map((row) => ({ eventId: row.event_id, endpointId: Number(row.endpoint_id) }));
  }
}
