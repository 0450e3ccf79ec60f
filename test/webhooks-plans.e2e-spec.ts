import { escapeLiteral } from 'pg';
import type { SqlFragment } from '@app/database';
import { finishAttempts, pendingAttempts } from '../libs/events/src/delivery/webhook-attempts.repository';
import { suiteDatabase, SuiteDatabase, withDatabase } from './support/database';
import { PlanNode, rowsRead } from './support/plans';

/** Pending attempts to one endpoint, as a burst of events leaves them. */
const BACKLOG = 20_000;
const BATCH = 20;

/**
 * The statements that look up and settle a batch of attempts read those attempts, not the backlog: on a
 * table without statistics (a burst into a new database, as in the bench), a join with the batch's keys
 * can read every pending attempt, or every attempt of the endpoint, for each batch.
 */
describe('the plans of batched delivery statements', () => {
  let database: SuiteDatabase;
  let batch: { eventIds: string[]; endpointIds: number[]; attemptIds: number[] };

  beforeAll(async () => {
    database = await suiteDatabase('webhook_plans');
    batch = await withDatabase(async (client) => {
      const {
        rows: [account],
      } = await client.query<{ id: string }>(
        `INSERT INTO accounts (email, email_canonical) VALUES ('plans@example.com', 'plans@example.com') RETURNING id`,
      );
      const {
        rows: [endpoint],
      } = await client.query<{ id: string }>(
        `INSERT INTO webhook_endpoints (account_id, url, event_types, secret_ciphertext)
         VALUES ($1, 'https://example.com/hooks', '{*}', 'v1.unused') RETURNING id`,
        [account!.id],
      );
      await client.query(
        `INSERT INTO events (id, account_id, type, object)
         SELECT 'evt_plan_' || i, $1, 'pet.created', '{}' FROM generate_series(1, $2) i`,
        [account!.id, BACKLOG],
      );
      await client.query(
        `INSERT INTO webhook_attempts (event_id, endpoint_id, event_type, attempt) SELECT id, $1, type, 1 FROM events`,
        [endpoint!.id],
      );
      const eventIds = Array.from({ length: BATCH }, (_, i) => `evt_plan_${BACKLOG / 2 + i}`);
      const { rows } = await client.query<{ id: string }>(
        'SELECT id FROM webhook_attempts WHERE event_id = ANY($1) ORDER BY id',
        [eventIds],
      );
      return {
        eventIds,
        endpointIds: eventIds.map(() => Number(endpoint!.id)),
        attemptIds: rows.map((row) => Number(row.id)),
      };
    }, database.url);
  }, 60_000);
  afterAll(() => database.drop());

  /**
   * Runs `statement` for the batch under EXPLAIN ANALYZE, on a transaction rolled back: planned for its
   * values, as the api's connections plan, or once for any values, as the worker's may keep a plan.
   */
  const rowsOfAttemptsRead = (statement: SqlFragment, planCacheMode: string) =>
    withDatabase(async (client) => {
      await client.query(`SET plan_cache_mode = ${planCacheMode}`);
      await client.query('BEGIN');
      try {
        await client.query(`PREPARE batched AS ${statement.text}`);
        // EXECUTE takes no bound parameters: the arrays go as literals, typed by the prepared statement.
        const literals = (statement.values as unknown[][]).map((values) =>
          escapeLiteral(`{${values.map((value) => `"${String(value).replace(/["\\]/g, '\\$&')}"`).join(',')}}`),
        );
        const { rows } = await client.query(`EXPLAIN (ANALYZE, FORMAT JSON) EXECUTE batched (${literals.join(', ')})`);
        return rowsRead((rows[0]['QUERY PLAN'] as Array<{ Plan: PlanNode }>)[0]!.Plan, 'webhook_attempts');
      } finally {
        await client.query('ROLLBACK');
        await client.query('DEALLOCATE ALL');
      }
    }, database.url);

  describe.each(['force_custom_plan', 'force_generic_plan'])('under %s', (planCacheMode) => {
    it.each<[string, () => SqlFragment]>([
      [
        'looking up pending attempts',
        () => pendingAttempts(batch.eventIds.map((eventId, i) => ({ eventId, endpointId: batch.endpointIds[i]! }))),
      ],
      [
        'writing outcomes',
        () =>
          finishAttempts(
            batch.attemptIds.map((attemptId, i) => ({
              attempt: { attemptId, endpointId: batch.endpointIds[i]! },
              outcome: { succeeded: false, responseStatus: 500, durationMs: 3, error: 'answered 500' },
              retried: true,
            })),
          ),
      ],
    ])(`reads a few rows of webhook_attempts per attempt %s, with ${BACKLOG} pending`, async (_what, statement) => {
      const read = await rowsOfAttemptsRead(statement(), planCacheMode);
      expect(read).toBeGreaterThanOrEqual(BATCH);
      expect(read).toBeLessThanOrEqual(3 * BATCH);
    });
  });
});
