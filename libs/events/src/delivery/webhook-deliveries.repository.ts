import { Batcher, Sql } from '@app/database';
import { Injectable, Logger } from '@nestjs/common';
import type { EventDto } from '../dto/event.dto';
import type { EventType } from '../event-types';
import { DeliverEventJobData, deliveryJobId } from '../events.queue';

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

/** An attempt's outcome to write, and whether it settles its delivery. */
interface FinishedAttempt {
  delivery: DeliverEventJobData;
  attemptId: number;
  outcome: AttemptOutcome;
  last: boolean;
}

/** How long deliveries whose job Redis took wait to share one UPDATE: short next to the reconciler's interval. */
const ENQUEUED_FLUSH_DELAY_MS = 10;
/**
 * How long an attempt's outcome waits to share one statement with others'. Nothing waits for it (the job
 * completes once the endpoint has answered), so it can gather a few milliseconds' worth.
 */
const OUTCOME_FLUSH_DELAY_MS = 10;

/**
 * Deliveries' rows, given as `unnest($1::text[], $2::bigint[])`, locked in key order: statements that
 * change several deliveries at once (attempts started, settled, enqueued) can then never deadlock. Each
 * key is looked up on its own through the primary key: joined with the list instead, the planner may
 * read every pending delivery through the partial index (which it takes to be small) for each batch,
 * and a backlog then makes every statement as slow as the backlog is long.
 */
const LOCK_DELIVERIES = (condition: string) => `locked AS MATERIALIZED (
    SELECT d.event_id, d.endpoint_id
      FROM (SELECT DISTINCT * FROM unnest($1::text[], $2::bigint[]) AS k (event_id, endpoint_id) ORDER BY 1, 2) k,
           LATERAL (SELECT d.event_id, d.endpoint_id FROM webhook_deliveries d
                     WHERE d.event_id = k.event_id AND d.endpoint_id = k.endpoint_id AND ${condition}
                       FOR NO KEY UPDATE OF d) d)`;

/**
 * Counts an attempt of each pending delivery to an enabled endpoint and opens its `pending` attempt
 * row; returns what to send for each. The endpoint is checked in the lock, not joined to the UPDATE,
 * which could then reach the deliveries through their endpoint's index: all of an endpoint's
 * deliveries read for each one.
 */
export const START_ATTEMPTS = `WITH ${LOCK_DELIVERIES(
  `d.status = 'pending' AND EXISTS (SELECT FROM webhook_endpoints w WHERE w.id = d.endpoint_id AND w.enabled)`,
)},
  delivery AS (
    UPDATE webhook_deliveries d SET attempts = d.attempts + 1, attempted_at = now()
      FROM locked WHERE d.event_id = locked.event_id AND d.endpoint_id = locked.endpoint_id
    RETURNING d.event_id, d.endpoint_id, d.attempts
  ), attempt AS (
    INSERT INTO webhook_attempts (endpoint_id, event_id, event_type, attempt)
    SELECT delivery.endpoint_id, e.id, e.type, delivery.attempts FROM delivery JOIN events e ON e.id = delivery.event_id
    RETURNING id, event_id, endpoint_id, attempt
  )
  SELECT attempt.id AS attempt_id, attempt.attempt, attempt.endpoint_id, w.url, w.secret_ciphertext,
         e.id, e.type, e.object, e.created_at
    FROM attempt JOIN webhook_endpoints w ON w.id = attempt.endpoint_id JOIN events e ON e.id = attempt.event_id`;

/**
 * Writes attempts' outcomes ($3 to $7) and settles the deliveries given in $1, $2 with their status
 * $8, from `pending` only.
 */
export const FINISH_ATTEMPTS = `WITH ${LOCK_DELIVERIES(`d.status = 'pending'`)},
  attempt AS (
    UPDATE webhook_attempts a
       SET status = o.status, response_status = o.response_status, duration_ms = o.duration_ms, error = o.error
      FROM unnest($3::bigint[], $4::text[], $5::int[], $6::int[], $7::text[])
           AS o (id, status, response_status, duration_ms, error)
     WHERE a.id = o.id
  )
  UPDATE webhook_deliveries d SET status = t.status
    FROM locked, unnest($1::text[], $2::bigint[], $8::text[]) AS t (event_id, endpoint_id, status)
   WHERE d.event_id = locked.event_id AND d.endpoint_id = locked.endpoint_id
     AND t.event_id = locked.event_id AND t.endpoint_id = locked.endpoint_id`;

/** `enqueued_at` of the deliveries that have none yet. */
export const RECORD_ENQUEUED = `WITH ${LOCK_DELIVERIES('d.enqueued_at IS NULL')}
  UPDATE webhook_deliveries d SET enqueued_at = now()
    FROM locked WHERE d.event_id = locked.event_id AND d.endpoint_id = locked.endpoint_id`;

interface StartedRow {
  attempt_id: string;
  attempt: number;
  endpoint_id: string;
  url: string;
  secret_ciphertext: string;
  id: string;
  type: EventType;
  object: Record<string, unknown>;
  created_at: Date;
}

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

  /**
   * Attempts that jobs running at once start share one statement, and so do their outcomes: under load a
   * statement and a commit serve many deliveries, and the batches grow rather than the connections.
   */
  private readonly starts = new Batcher<DeliverEventJobData, StartedAttempt | undefined>(
    (deliveries) => this.startBatch(deliveries),
    0,
  );
  private readonly outcomes = new Batcher<FinishedAttempt>(
    (attempts) => this.writeOutcomes(attempts),
    OUTCOME_FLUSH_DELAY_MS,
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
   * with the attempts other jobs start meanwhile; undefined when the delivery is settled, or its
   * endpoint disabled or gone.
   */
  startAttempt(delivery: DeliverEventJobData): Promise<StartedAttempt | undefined> {
    return this.sql.batched(this.starts, delivery);
  }

  /**
   * Writes an attempt's outcome shortly, with the outcomes other jobs have meanwhile, and settles its
   * delivery when it succeeded or was the last: `succeeded` or `failed`, from `pending` only. Never fails:
   * resolves once written, or once the write has failed, leaving the attempt to the reconciler (it closes
   * an attempt left `pending`, and settles a delivery from its job's end).
   */
  recordOutcome(
    delivery: DeliverEventJobData,
    attemptId: number,
    outcome: AttemptOutcome,
    last: boolean,
  ): Promise<void> {
    return this.outcomes.add({ delivery, attemptId, outcome, last });
  }

  /** Writes the outcomes recorded so far now. */
  flushOutcomes(): Promise<void> {
    return this.outcomes.flush();
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
      await this.sql.query(RECORD_ENQUEUED, [
        deliveries.map((delivery) => delivery.eventId),
        deliveries.map((delivery) => delivery.endpointId),
      ]);
    } catch (error) {
      this.logger.warn(`${deliveries.length} enqueued deliveries left to the reconciler: ${(error as Error).message}`);
    }
  }

  /**
   * One statement for the batch's deliveries, each once: a delivery that came twice (a job run again
   * while its first run was still under way) starts its second attempt in a statement after this one.
   */
  private async startBatch(deliveries: DeliverEventJobData[]): Promise<Array<StartedAttempt | undefined>> {
    const keys = deliveries.map(deliveryJobId);
    const isFirst = keys.map((key, index) => keys.indexOf(key) === index);
    const first = deliveries.filter((_delivery, index) => isFirst[index]);
    const rows = await this.sql.rows<StartedRow>(START_ATTEMPTS, [
      first.map((delivery) => delivery.eventId),
      first.map((delivery) => delivery.endpointId),
    ]);
    const started = new Map(
      rows.map((row) => [
        deliveryJobId({ eventId: row.id, endpointId: Number(row.endpoint_id) }),
        {
          attemptId: Number(row.attempt_id),
          attempt: row.attempt,
          url: row.url,
          secretCiphertext: row.secret_ciphertext,
          event: { id: row.id, type: row.type, createdAt: row.created_at.toISOString(), data: { object: row.object } },
        },
      ]),
    );
    if (first.length === deliveries.length) return keys.map((key) => started.get(key));
    const startedAgain = await this.startBatch(deliveries.filter((_delivery, index) => !isFirst[index]));
    return keys.map((key, index) => (isFirst[index] ? started.get(key) : startedAgain.shift()));
  }

  private async writeOutcomes(attempts: FinishedAttempt[]): Promise<void> {
    // Attempt rows in id order, as each is locked; deliveries are locked in key order by the statement.
    const byId = [...attempts].sort((a, b) => a.attemptId - b.attemptId);
    const settling = attempts.filter(({ outcome, last }) => outcome.succeeded || last);
    try {
      await this.sql.query(FINISH_ATTEMPTS, [
        settling.map(({ delivery }) => delivery.eventId),
        settling.map(({ delivery }) => delivery.endpointId),
        byId.map(({ attemptId }) => attemptId),
        byId.map(({ outcome }) => (outcome.succeeded ? 'succeeded' : 'failed')),
        byId.map(({ outcome }) => outcome.responseStatus ?? null),
        byId.map(({ outcome }) => outcome.durationMs),
        byId.map(({ outcome }) => outcome.error ?? null),
        settling.map(({ outcome }) => (outcome.succeeded ? 'succeeded' : 'failed')),
      ]);
    } catch (error) {
      this.logger.warn(`${attempts.length} attempt outcomes left to the reconciler: ${(error as Error).message}`);
    }
  }

  private async deliveries(sql: string, params: unknown[]): Promise<DeliverEventJobData[]> {
    const rows = await this.sql.rows<{ event_id: string; endpoint_id: string }>(sql, params);
    return rows.map((row) => ({ eventId: row.event_id, endpointId: Number(row.endpoint_id) }));
  }
}
