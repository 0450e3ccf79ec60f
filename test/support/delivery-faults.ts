import type { ServerResponse } from 'node:http';
import { Client } from 'pg';
import { startWorker, StoredMessage, WebhookReceiver } from './messages';
import { AppProcess, startServing, waitFor } from './processes';
import { ThrowawayPostgres, ThrowawayRedis } from './throwaway-services';

/**
 * Far longer than any answer needs, Redis or PostgreSQL down or not: a request still unanswered then
 * hung, and its answer records why. Not a speed check (the bench measures speed).
 */
const HANG_BOUND_MS = 15_000;
export const WORKERS = 2;
/** Small, so that a test knows when every worker is busy and the rest of its batch waits in the queue. */
export const WORKER_CONCURRENCY = 4;
/** The default: shared by the messages app (the jobs' attempts) and the workers. */
export const MAX_ATTEMPTS = 5;

export interface Answer {
  status: number;
  headers: Headers;
  body: { id?: string; message?: string; status?: string | number; code?: string };
  startedAt: number;
  answeredAt: number;
  /** Why there is no answer (status 0): a timeout past HANG_BOUND_MS or a refused connection. */
  error?: string;
}

/**
 * For a fault suite: the messages app and two workers as real processes, on PostgreSQL and Redis of
 * the suite's own (Redis with its append-only file, as production runs it), each worker delivering to
 * a webhook receiver of its own so a test can tell which worker holds a delivery. Each scenario gets
 * an account of its own. Every test starts with two workers and receivers that answer at once.
 */
export function useDeliveryFaults(scenarios: string[]) {
  const postgres = new ThrowawayPostgres();
  const redis = new ThrowawayRedis({ persistent: true });
  const receivers = Array.from({ length: WORKERS }, () => new WebhookReceiver());
  const workers: Array<AppProcess | undefined> = [];
  const accounts: Record<string, Record<string, string>> = {};
  let messagesApp: AppProcess;
  let base: string;
  let sharedEnv: Record<string, string>;
  let workerEnvs: Array<Record<string, string>>;

  /** A fresh connection per call: the suite stops PostgreSQL, which would break a kept one. */
  const query = async <T extends object>(sql: string, params: unknown[] = []): Promise<T[]> => {
    const client = new Client({ connectionString: postgres.url });
    await client.connect();
    try {
      return (await client.query(sql, params)).rows as T[];
    } finally {
      await client.end();
    }
  };
  const stored = (ids: string[]) =>
    query<StoredMessage>('SELECT * FROM messages WHERE id = ANY($1) ORDER BY created_at', [ids]);

  /**
   * Waits until every message is `sent` (a timeout names the statuses it got stuck in), and checks
   * that none failed on the way: no final failure, no attempt that ended in an error.
   */
  const waitForSent = async (ids: string[], timeoutMs = 20000): Promise<StoredMessage[]> => {
    let rows: StoredMessage[] = [];
    const allSent = async () => {
      rows = await stored(ids);
      return rows.length === ids.length && rows.every((row) => row.status === 'sent');
    };
    await waitFor(allSent, timeoutMs, 'every message to be sent').catch((error: Error) => {
      const statuses = rows.map((row) => `${row.id}: ${row.status} (${row.last_error ?? 'no error'})`);
      throw new Error(`${error.message}; stored:\n${statuses.join('\n')}`, { cause: error });
    });
    for (const row of rows) expect(row).toMatchObject({ failed_at: null, last_error: null });
    return rows;
  };

  const post = async (account: Record<string, string>, message: string): Promise<Answer> => {
    const startedAt = Date.now();
    try {
      const response = await fetch(`${base}/messages`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', ...account },
        body: JSON.stringify({ message }),
        signal: AbortSignal.timeout(HANG_BOUND_MS),
      });
      const text = await response.text();
      return {
        status: response.status,
        headers: response.headers,
        body: text ? JSON.parse(text) : {},
        startedAt,
        answeredAt: Date.now(),
      };
    } catch (error) {
      const answeredAt = Date.now();
      return { status: 0, headers: new Headers(), body: {}, startedAt, answeredAt, error: String(error) };
    }
  };
  const accept = async (account: Record<string, string>, count: number, label: string): Promise<string[]> => {
    const answers = await Promise.all(Array.from({ length: count }, (_, i) => post(account, `${label} ${i}`)));
    for (const answer of answers) expect(answer).toMatchObject({ status: 202, body: { status: 'queued' } });
    return answers.map((answer) => answer.body.id!);
  };

  /** Every webhook POST any worker made, by the message id in its body. */
  const deliveriesOf = (id: string) =>
    receivers.flatMap((receiver) => receiver.deliveries).filter((delivery) => JSON.parse(delivery.body).id === id);
  const answerAtOnce = (receiver: WebhookReceiver) => {
    receiver.answer = (_delivery, response) => response.writeHead(204).end();
  };
  /** Keeps every delivery at the receiver waiting, until the test answers it (or its sender dies). */
  const hold = (receiver: WebhookReceiver, held: ServerResponse[]) => {
    receiver.answer = (_delivery, response) => held.push(response);
  };

  /**
   * At least once, effect once: each message was marked `sent` by exactly one UPDATE and its
   * `sent_at` written once, and every delivery of it carried its id in X-Message-Id.
   */
  const expectSentOnce = async (ids: string[]) => {
    const marks = await query<{ message_id: string; marked_sent: number; sent_at_set: number }>(
      `SELECT message_id, count(*) FILTER (WHERE new_status = 'sent')::int AS marked_sent,
            count(*) FILTER (WHERE sent_at_changed)::int AS sent_at_set
       FROM message_transitions WHERE message_id = ANY($1) GROUP BY message_id`,
      [ids],
    );
    expect(marks).toHaveLength(ids.length);
    for (const mark of marks) expect(mark).toMatchObject({ marked_sent: 1, sent_at_set: 1 });
    for (const id of ids) {
      const deliveries = deliveriesOf(id);
      expect(deliveries.length).toBeGreaterThanOrEqual(1);
      for (const delivery of deliveries) expect(delivery.headers['x-message-id']).toBe(id);
    }
  };

  const signUp = async (api: string, email: string): Promise<Record<string, string>> => {
    const response = await fetch(`${api}/v1/accounts`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ email }),
    });
    expect(response.status).toBe(201);
    const { apiKey } = (await response.json()) as { apiKey: { key: string } };
    return { Authorization: `Bearer ${apiKey.key}` };
  };

  beforeAll(async () => {
    await Promise.all([postgres.create(), redis.create()]);
    const urls = await Promise.all(receivers.map((receiver) => receiver.start()));
    sharedEnv = {
      DATABASE_URL: postgres.url,
      REDIS_URL: redis.url,
      MESSAGES_BACKOFF_MS: '50',
      MESSAGES_MAX_ATTEMPTS: String(MAX_ATTEMPTS),
      MESSAGES_RECONCILE_INTERVAL_MS: '500',
    };
    workerEnvs = urls.map((url) => ({
      ...sharedEnv,
      MESSAGES_TRANSPORT: 'webhook',
      MESSAGES_WEBHOOK_URL: url,
      MESSAGES_WEBHOOK_SECRET: 'webhook-secret-for-the-fault-tests',
      WORKER_CONCURRENCY: String(WORKER_CONCURRENCY),
      // The minimum: a killed worker's jobs go to the other one about a second later.
      WORKER_LOCK_DURATION_MS: '1000',
      // Longer than a worker stays frozen, so its delivery in flight outlives the freeze.
      MESSAGES_WEBHOOK_TIMEOUT_MS: '10000',
    }));

    // Sign-up lives in the api app, which also creates the schema; it has no part in the faults.
    const apiProcess = await startServing('api', { ...sharedEnv, DATABASE_MIGRATE_ON_START: 'true' });
    const api = apiProcess.baseUrl;
    try {
      // One account per scenario, so one scenario's traffic does not use up another's rate limit.
      for (const scenario of scenarios)
        accounts[scenario] = await signUp(api, `messages-faults-${scenario}@example.com`);
    } finally {
      await apiProcess.stop();
    }

    // The schema keeps only a message's current state; this log of its changes shows whether it was
    // ever marked sent twice. It only observes: an AFTER trigger that writes to a table of its own.
    await query(`
    CREATE TABLE message_transitions (message_id text, old_status text, new_status text, sent_at_changed boolean);
    CREATE FUNCTION record_message_transition() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO message_transitions
          VALUES (NEW.id, OLD.status, NEW.status, NEW.sent_at IS DISTINCT FROM OLD.sent_at);
        RETURN NEW;
      END $$;
    CREATE TRIGGER messages_transitions AFTER UPDATE ON messages FOR EACH ROW
      WHEN (OLD.status IS DISTINCT FROM NEW.status OR OLD.sent_at IS DISTINCT FROM NEW.sent_at)
      EXECUTE FUNCTION record_message_transition();`);

    const started = await startServing('messages', { ...sharedEnv, DATABASE_MIGRATE_ON_START: 'false' });
    messagesApp = started;
    base = started.baseUrl;
  });
  beforeEach(async () => {
    for (const receiver of receivers) {
      // Each scenario looks at its own deliveries only.
      receiver.deliveries.splice(0);
      answerAtOnce(receiver);
    }
    // A scenario that killed a worker leaves the next one a replacement, so each starts with two.
    await Promise.all(
      workerEnvs.map(async (env, i) => {
        workers[i] ??= await startWorker({ ...env, DATABASE_MIGRATE_ON_START: 'false' });
      }),
    );
  });
  afterAll(async () => {
    await Promise.all([messagesApp, ...workers].map((app) => app?.stop('SIGKILL')));
    await Promise.all(receivers.map((receiver) => receiver.stop()));
    await Promise.all([postgres.destroy(), redis.destroy()]);
  });

  return {
    postgres,
    redis,
    receivers,
    workers,
    accounts,
    query,
    waitForSent,
    post,
    accept,
    answerAtOnce,
    hold,
    expectSentOnce,
  };
}
