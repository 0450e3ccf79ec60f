import { Client } from 'pg';
import { TestSmtpServer } from '../support/email';
import { type AppProcess, freePort, startServing, waitFor } from '../support/processes';
import { ThrowawayPostgres, ThrowawayRedis } from '../support/throwaway-services';

/** Within the minute an email may take, with room for a worker's start. */
const EMAIL_BOUND_MS = 60_000;

interface Notification {
  status: string;
  attempts: number;
  last_error: string | null;
}

/**
 * Loses no email whatever fails: the mail server is unreachable (the worker retries), then it keeps the worker
 * waiting for its answer to the message and the worker is killed mid-send; the next worker sends the email once
 * its claim lapses, and it is sent once accepted.
 */
describe('faults: email across an unreachable mail server and a worker killed mid-send', () => {
  const postgres = new ThrowawayPostgres();
  const redis = new ThrowawayRedis();
  const smtp = new TestSmtpServer();
  let api: AppProcess & { baseUrl: string };
  let worker: AppProcess | undefined;
  let env: Record<string, string>;
  let smtpPort: number;

  const post = async (key: string | undefined, path: string, body: object) => {
    const response = await fetch(`${api.baseUrl}${path}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...(key && { Authorization: `Bearer ${key}` }) },
      body: JSON.stringify(body),
    });
    return (await response.json()) as Record<string, unknown>;
  };
  const signUp = async (email: string) =>
    ((await post(undefined, '/v1/accounts', { email })).apiKey as { key: string }).key;
  const notifications = async (address: string): Promise<Notification[]> => {
    const client = new Client({ connectionString: postgres.url });
    await client.connect();
    try {
      return (
        await client.query<Notification>(
          'SELECT status, attempts, last_error FROM email_notifications WHERE address = $1',
          [address],
        )
      ).rows;
    } finally {
      await client.end();
    }
  };

  beforeAll(async () => {
    await Promise.all([postgres.create(), redis.create()]);
    smtpPort = await freePort();
    env = {
      DATABASE_URL: postgres.url,
      REDIS_URL: redis.url,
      SAVED_SEARCH_MATCH_INTERVAL_MS: '100',
      EMAIL_TRANSPORT: 'smtp',
      SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
      EMAIL_BACKOFF_MS: '200',
      // A claim lasts twice this: a killed worker's email is due again two seconds later.
      EMAIL_SEND_TIMEOUT_MS: '1000',
    };
    api = await startServing('api', { ...env, DATABASE_MIGRATE_ON_START: 'true' });
  });
  afterAll(async () => {
    await worker?.stop('SIGKILL');
    await api?.stop();
    await smtp.stop().catch(() => undefined);
    await Promise.all([postgres.destroy(), redis.destroy()]);
  });

  jest.setTimeout(4 * EMAIL_BOUND_MS);

  it('retries while the server is unreachable, and sends once after a worker killed mid-send', async () => {
    const address = 'adopter@mail.test';
    const [lister, adopter] = [await signUp('lister@mail.test'), await signUp(address)];
    await post(adopter, '/v1/saved-searches', { query: 'tag=faulty', emailAlerts: true });
    worker = await startServing('worker', env);
    await post(lister, '/v1/pets', { name: 'Resilient', categoryId: 1, tags: ['faulty'] });

    // Nothing listens yet: each attempt fails to connect, and is retried.
    await waitFor(
      async () => ((await notifications(address))[0]?.attempts ?? 0) >= 2,
      EMAIL_BOUND_MS,
      'two attempts to an unreachable server',
    );
    const [unreachable] = await notifications(address);
    expect(unreachable).toMatchObject({ status: 'pending', last_error: expect.stringMatching(/ECONNREFUSED/) });

    smtp.refuseMessage = () => 'hold';
    await smtp.start(smtpPort);
    await waitFor(async () => smtp.held > 0, EMAIL_BOUND_MS, 'the worker to send and wait for the answer');
    await worker.stop('SIGKILL');
    expect(smtp.received).toHaveLength(0);

    smtp.refuseMessage = () => undefined;
    worker = await startServing('worker', env);
    const [email] = await smtp.waitFor(address, 1, EMAIL_BOUND_MS);
    expect(email!.parsed.text).toContain('Resilient');
    await waitFor(
      async () => (await notifications(address))[0]?.status === 'sent',
      EMAIL_BOUND_MS,
      'the email to be recorded as sent',
    );
    expect(await notifications(address)).toEqual([expect.objectContaining({ status: 'sent', last_error: null })]);
    expect(smtp.to(address)).toHaveLength(1);
  });
});
