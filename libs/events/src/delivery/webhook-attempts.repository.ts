import { Batcher } from '@app/core';
import { GenerateSql, sql, Sql, SqlFragment } from '@app/database';
import { Injectable, Logger } from '@nestjs/common';
import type { EventDto } from '../dto/event.dto';
import type { EventType } from '../event-types';
import { DeliverEventJobData, deliveryKey } from '../events.queue';
import { type EventRow, toEvent } from '../events.repository';
import { type SealedSecretsRow, toSealedSecrets } from '../webhooks/webhook-endpoints.repository';
import type { SealedSecrets } from '../webhooks/webhook-secrets';

/** An attempt's row and its endpoint: what its outcome is written to. */
export interface AttemptOf {
  attemptId: number;
  endpointId: number;
}

/** A delivery's attempt not yet answered: what to send, where, and the row its outcome goes to. */
export interface PendingAttempt extends AttemptOf, SealedSecrets {
  attempt: number;
  /** Asked for by the account (a redelivery, a test event): made once, never retried. */
  manual: boolean;
  url: string;
  /** A disabled endpoint is sent nothing: its attempt fails without a request. */
  enabled: boolean;
  event: EventDto;
}

/** An attempt's row and its delivery: what the dispatcher gives a job, and what the reconciler checks. */
export interface AttemptKey extends AttemptOf {
  eventId: string;
  /** A manual attempt's number, which names its job. */
  manualAttempt?: number;
}

export interface AttemptOutcome {
  succeeded: boolean;
  responseStatus?: number;
  /** Absent when nothing was sent. */
  durationMs?: number;
  error?: string;
}

export interface AttemptRow {
  id: number;
  eventId: string;
  eventType: EventType;
  attempt: number;
  status: 'succeeded' | 'failed' | 'pending';
  manual: boolean;
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

interface ListedAttemptRow {
  id: string;
  event_id: string;
  event_type: EventType;
  attempt: number;
  status: AttemptRow['status'];
  manual: boolean;
  response_status: number | null;
  duration_ms: number | null;
  error: string | null;
  created_at: Date;
}

const LISTED_COLUMNS = sql`id, event_id, event_type, attempt, status, manual, response_status, duration_ms, error, created_at`;

function toAttemptRow(row: ListedAttemptRow): AttemptRow {
  return {
    id: Number(row.id),
    eventId: row.event_id,
    eventType: row.event_type,
    attempt: row.attempt,
    status: row.status,
    manual: row.manual,
    responseStatus: row.response_status,
    durationMs: row.duration_ms,
    error: row.error,
    createdAt: row.created_at,
  };
}

/** An attempt's outcome to write, and whether another attempt follows it. */
export interface FinishedAttempt {
  attempt: AttemptOf;
  outcome: AttemptOutcome;
  retried: boolean;
}

/**
 * How long an attempt's outcome waits to share one statement with others'. A success is written after its
 * job has ended (nothing waits for it), so it can gather a few milliseconds' worth.
 */
const OUTCOME_FLUSH_DELAY_MS = 10;

/**
 * The pending attempt of each delivery, with its event and endpoint; a delivery with none (settled, or its
 * endpoint deleted) is left out. Each is looked up on its own through the delivery's index: joined with
 * the list instead, the planner may read every pending attempt through the partial index (which it takes
 * to be small) for each batch.
 */
export function pendingAttempts(deliveries: readonly DeliverEventJobData[]): SqlFragment {
  const eventIds = deliveries.map((delivery) => delivery.eventId);
  const endpointIds = deliveries.map((delivery) => delivery.endpointId);
  return sql`
    SELECT a.id AS attempt_id, a.attempt, a.manual, k.endpoint_id, w.url, w.secret_ciphertext,
           w.previous_secret_ciphertext, w.previous_secret_expires_at, w.enabled,
           e.id, e.type, e.object, e.created_at
      FROM (SELECT DISTINCT * FROM unnest(${eventIds}::text[], ${endpointIds}::bigint[]) AS k (event_id, endpoint_id)) k
      JOIN LATERAL (SELECT a.id, a.attempt, a.manual FROM webhook_attempts a
                     WHERE a.event_id = k.event_id AND a.endpoint_id = k.endpoint_id AND a.status = 'pending'
                     ORDER BY a.attempt DESC LIMIT 1) a ON true
      JOIN webhook_endpoints w ON w.id = k.endpoint_id
      JOIN events e ON e.id = k.event_id`;
}

/**
 * Locks, in id order, the endpoints of the attempts to retry, before their outcomes are written in the same
 * transaction. The next attempt's foreign key locks its endpoint's row (KEY SHARE), which an endpoint's
 * DELETE locks before its attempts: locked after the attempts instead, a DELETE holding the endpoint and
 * waiting for an attempt of the batch would deadlock with it.
 */
function lockEndpoints(endpointIds: readonly number[]): SqlFragment {
  return sql`SELECT id FROM webhook_endpoints WHERE id = ANY(${endpointIds}::bigint[]) ORDER BY id FOR KEY SHARE`;
}

/**
 * Writes the outcomes of the pending attempts, each looked up through the primary key and locked in id
 * order (batches that share attempts then never deadlock), and opens the next attempt of those retried.
 * An attempt no longer pending (settled by a run before) is left as it is, and opens nothing.
 */
export function finishAttempts(attempts: readonly FinishedAttempt[]): SqlFragment {
  const ids = attempts.map(({ attempt }) => attempt.attemptId);
  const statuses = attempts.map(({ outcome }) => (outcome.succeeded ? 'succeeded' : 'failed'));
  const responseStatuses = attempts.map(({ outcome }) => outcome.responseStatus ?? null);
  const durations = attempts.map(({ outcome }) => outcome.durationMs ?? null);
  const errors = attempts.map(({ outcome }) => outcome.error ?? null);
  const retried = attempts.map(({ retried }) => retried);
  return sql`WITH locked AS MATERIALIZED (
      SELECT a.id, o.status, o.response_status, o.duration_ms, o.error, o.retried
        FROM (SELECT * FROM unnest(${ids}::bigint[], ${statuses}::text[], ${responseStatuses}::int[],
                                   ${durations}::int[], ${errors}::text[], ${retried}::boolean[])
                AS o (id, status, response_status, duration_ms, error, retried) ORDER BY 1) o,
             LATERAL (SELECT a.id FROM webhook_attempts a WHERE a.id = o.id AND a.status = 'pending'
                       FOR NO KEY UPDATE OF a) a
    ), settled AS (
      UPDATE webhook_attempts a
         SET status = locked.status, response_status = locked.response_status, duration_ms = locked.duration_ms,
             error = locked.error
        FROM locked WHERE a.id = locked.id
      RETURNING a.endpoint_id, a.event_id, a.event_type, a.attempt, locked.retried
    )
    INSERT INTO webhook_attempts (endpoint_id, event_id, event_type, attempt)
    SELECT endpoint_id, event_id, event_type, attempt + 1 FROM settled WHERE retried
    ON CONFLICT DO NOTHING`;
}

interface AttemptKeyRow {
  id: string;
  event_id: string;
  endpoint_id: string;
  /** Given when the attempt is manual. */
  manual_attempt?: number | null;
}

function toAttemptKey(row: AttemptKeyRow): AttemptKey {
  return {
    attemptId: Number(row.id),
    eventId: row.event_id,
    endpointId: Number(row.endpoint_id),
    ...(row.manual_attempt && { manualAttempt: row.manual_attempt }),
  };
}

interface PendingRow extends Omit<EventRow, 'seq'>, SealedSecretsRow {
  attempt_id: string;
  attempt: number;
  manual: boolean;
  endpoint_id: string;
  url: string;
  enabled: boolean;
}

/**
 * `webhook_attempts`: one row per attempt of a delivery (an event to an endpoint), as clients list them. A
 * delivery's first attempt is opened `pending` when its event is dispatched, and each failed attempt
 * that is not the last opens the next: a delivery is pending while it has a pending attempt, which its
 * job (named by the delivery) makes. Every outcome is written from `pending` only, so a job run twice does
 * no harm.
 */
@Injectable()
export class WebhookAttemptsRepository {
  private readonly logger = new Logger(WebhookAttemptsRepository.name);

  /**
   * The pending attempts that jobs running at once look up share one statement, and so do their
   * outcomes: under load a statement and a commit serve many deliveries, and the batches grow rather
   * than the connections.
   */
  private readonly pending = new Batcher<DeliverEventJobData, PendingAttempt | undefined>(
    (deliveries) => this.readPending(deliveries),
    0,
  );
  private readonly outcomes = new Batcher<FinishedAttempt>(
    (attempts) => this.writeOutcomes(attempts),
    OUTCOME_FLUSH_DELAY_MS,
  );

  constructor(private readonly sql: Sql) {}

  /**
   * Opens the first attempt of each delivery, `pending`; one already opened is left as it is. Returns the
   * attempts opened.
   */
  @GenerateSql({ params: [[{ eventId: 'evt_1', endpointId: 1, eventType: 'pet.created' }]] })
  async openFirstAttempts(deliveries: Array<DeliverEventJobData & { eventType: EventType }>): Promise<AttemptKey[]> {
    if (deliveries.length === 0) return [];
    const eventIds = deliveries.map((delivery) => delivery.eventId);
    const endpointIds = deliveries.map((delivery) => delivery.endpointId);
    const eventTypes = deliveries.map((delivery) => delivery.eventType);
    const rows = await this.sql.rows<AttemptKeyRow>(
      sql`INSERT INTO webhook_attempts (event_id, endpoint_id, event_type, attempt)
          SELECT *, 1 FROM unnest(${eventIds}::text[], ${endpointIds}::bigint[], ${eventTypes}::text[])
          ON CONFLICT DO NOTHING
          RETURNING id, event_id, endpoint_id`,
    );
    return rows.map(toAttemptKey);
  }

  /**
   * The delivery's pending attempt, with what to send and where, found with the attempts other jobs
   * look up meanwhile; undefined when the delivery is settled or its endpoint gone.
   */
  @GenerateSql({ params: [{ eventId: 'evt_1', endpointId: 1 }] })
  pendingAttempt(delivery: DeliverEventJobData): Promise<PendingAttempt | undefined> {
    return this.sql.batched(this.pending, delivery);
  }

  /**
   * Writes an attempt's outcome shortly, with the outcomes other jobs have meanwhile, from `pending`
   * only, and opens the next attempt when `retried`. Rejects when the write failed: the attempt then stays
   * pending, for its job's next run or the reconciler.
   */
  @GenerateSql({
    params: [{ attemptId: 1, endpointId: 1 }, { succeeded: false, responseStatus: 500, durationMs: 30 }, true],
  })
  recordOutcome(attempt: AttemptOf, outcome: AttemptOutcome, retried: boolean): Promise<void> {
    return this.outcomes.add({ attempt, outcome, retried });
  }

  /** Writes the outcomes recorded so far now. */
  flushOutcomes(): Promise<void> {
    return this.outcomes.flush();
  }

  /**
   * Attempts pending since at least `olderThanMs` ago, after `afterId` in id order: in flight past any
   * timeout, waiting for a retry, or never enqueued.
   */
  @GenerateSql({ params: [60_000, 0, 1000] })
  async findStale(olderThanMs: number, afterId: number, limit: number): Promise<AttemptKey[]> {
    const rows = await this.sql.rows<AttemptKeyRow>(
      sql`SELECT id, event_id, endpoint_id, CASE WHEN manual THEN attempt END AS manual_attempt FROM webhook_attempts
           WHERE status = 'pending' AND id > ${afterId} AND created_at < now() - ${olderThanMs} * interval '1 millisecond'
           ORDER BY id LIMIT ${limit}`,
    );
    return rows.map(toAttemptKey);
  }

  /** The endpoint's attempts, newest first, keyset-paginated by id. */
  @GenerateSql({ params: [1, { limit: 20 }] })
  async listAttempts(endpointId: number, options: { limit: number; beforeId?: number }): Promise<AttemptPage> {
    const rows = await this.sql.rows<ListedAttemptRow>(
      sql`SELECT ${LISTED_COLUMNS} FROM webhook_attempts
           WHERE endpoint_id = ${endpointId} AND id < ${options.beforeId ?? Number.MAX_SAFE_INTEGER}
           ORDER BY id DESC LIMIT ${options.limit + 1}`,
    );
    const attempts = rows.slice(0, options.limit).map(toAttemptRow);
    return { attempts, lastId: rows.length > options.limit ? attempts[attempts.length - 1]!.id : undefined };
  }

  /**
   * Opens a manual attempt of the event (which must exist) to the endpoint, numbered after the delivery's
   * last one: undefined while the event awaits its dispatch or the delivery has a pending attempt (its
   * retries are under way), or when another manual attempt took the number first. A delivery has at most one
   * pending attempt, which is what its jobs find.
   */
  @GenerateSql({ params: ['evt_1', 1] })
  async openManualAttempt(eventId: string, endpointId: number): Promise<AttemptRow | undefined> {
    const rows = await this.sql.rows<ListedAttemptRow>(
      sql`INSERT INTO webhook_attempts (event_id, endpoint_id, event_type, attempt, manual)
          SELECT e.id, ${endpointId}, e.type, coalesce(last.attempt, 0) + 1, true
            FROM events e,
                 LATERAL (SELECT max(a.attempt) AS attempt, bool_or(a.status = 'pending') AS pending
                            FROM webhook_attempts a WHERE a.event_id = e.id AND a.endpoint_id = ${endpointId}) last
           WHERE e.id = ${eventId} AND e.dispatched_at IS NOT NULL AND last.pending IS NOT TRUE
          ON CONFLICT DO NOTHING
          RETURNING ${LISTED_COLUMNS}`,
    );
    return rows[0] && toAttemptRow(rows[0]);
  }

  /** One statement for the batch's deliveries, each once. */
  private async readPending(deliveries: DeliverEventJobData[]): Promise<Array<PendingAttempt | undefined>> {
    const rows = await this.sql.rows<PendingRow>(pendingAttempts(deliveries));
    const pending = new Map(
      rows.map((row) => [
        deliveryKey({ eventId: row.id, endpointId: Number(row.endpoint_id) }),
        {
          attemptId: Number(row.attempt_id),
          endpointId: Number(row.endpoint_id),
          attempt: row.attempt,
          manual: row.manual,
          url: row.url,
          ...toSealedSecrets(row),
          enabled: row.enabled,
          event: toEvent(row),
        },
      ]),
    );
    return deliveries.map((delivery) => pending.get(deliveryKey(delivery)));
  }

  /** An attempt answered twice in one batch (a job run twice at once) keeps the first outcome, as a later batch would. */
  private async writeOutcomes(batch: FinishedAttempt[]): Promise<void> {
    const attempts = [
      ...new Map([...batch].reverse().map((finished) => [finished.attempt.attemptId, finished])).values(),
    ];
    const retriedEndpoints = [
      ...new Set(attempts.filter(({ retried }) => retried).map(({ attempt }) => attempt.endpointId)),
    ];
    try {
      // Without a retry, no next attempt locks an endpoint: the outcomes need no transaction.
      if (retriedEndpoints.length === 0) await this.sql.query(finishAttempts(attempts));
      else
        await this.sql.transaction(async () => {
          await this.sql.query(lockEndpoints(retriedEndpoints));
          await this.sql.query(finishAttempts(attempts));
        });
    } catch (error) {
      this.logger.warn(`${attempts.length} attempt outcomes not written: ${(error as Error).message}`);
      throw error;
    }
  }
}
