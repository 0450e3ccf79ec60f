import { Client } from 'pg';
import { AppProcess, startServing, waitFor } from '../support/processes';
import { ThrowawayPostgres, ThrowawayRedis } from '../support/throwaway-services';

/** Within 60 seconds of its time; a worker back from a fault has the whole of it. */
const REMINDER_BOUND_MS = 60_000;
const DAY_MS = 24 * 60 * 60 * 1000;

interface Reminder {
  createdAt: string;
  data: { object: { id: string } };
}

/**
 * Meeting reminders exactly once whatever fails: a worker killed before a reminder is due, and a worker
 * killed mid-reminder (its meetings claimed, a lock keeping it from recording their events). The claim rolls
 * back with the events, and the next worker sends them.
 */
describe('faults: meeting reminders across killed workers, on PostgreSQL and Redis of their own', () => {
  const postgres = new ThrowawayPostgres();
  const redis = new ThrowawayRedis();
  let api: AppProcess & { baseUrl: string };
  let worker: AppProcess | undefined;
  let env: Record<string, string>;
  let lister: string;
  let applicant: string;

  const database = async <T>(work: (client: Client) => Promise<T>): Promise<T> => {
    const client = new Client({ connectionString: postgres.url });
    await client.connect();
    try {
      return await work(client);
    } finally {
      await client.end();
    }
  };
  const request = async (key: string, method: string, path: string, body?: object) => {
    const response = await fetch(`${api.baseUrl}${path}`, {
      method,
      headers: { Authorization: `Bearer ${key}`, ...(body && { 'Content-Type': 'application/json' }) },
      body: body && JSON.stringify(body),
    });
    return (await response.json()) as Record<string, unknown> & { id: string };
  };
  const signUp = async (email: string) => {
    const response = await fetch(`${api.baseUrl}/v1/accounts`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ email }),
    });
    const { account, apiKey } = (await response.json()) as { account: { id: number }; apiKey: { key: string } };
    // Above the free plan's 60 requests a minute, which polling the feed would exceed.
    await database((client) => client.query(`UPDATE accounts SET plan = 'enterprise' WHERE id = $1`, [account.id]));
    return apiKey.key;
  };
  /** An accepted meeting of a new application, starting `startsInMs` from now. */
  const acceptedMeeting = async (startsInMs: number) => {
    const pet = await request(lister, 'POST', '/v1/pets', { name: 'Met', categoryId: 2 });
    const contact = { name: 'Alex', email: `alex-${pet.id}@example.com` };
    const application = await request(applicant, 'POST', `/v1/pets/${pet.id}/applications`, { answers: {}, contact });
    await request(lister, 'POST', `/v1/applications/${application.id}/review`);
    const startsAt = new Date(Date.now() + startsInMs);
    const meeting = await request(lister, 'POST', `/v1/applications/${application.id}/meetings`, {
      startsAt: startsAt.toISOString(),
      endsAt: new Date(startsAt.getTime() + 3_600_000).toISOString(),
    });
    const accepted = await request(
      applicant,
      'POST',
      `/v1/applications/${application.id}/meetings/${meeting.id}/accept`,
    );
    expect(accepted.status).toBe('accepted');
    return { id: meeting.id, dueAt: startsAt.getTime() - DAY_MS };
  };
  const reminders = async (key: string, meetingId: string): Promise<Reminder[]> =>
    ((await request(key, 'GET', '/v1/events?type=meeting.reminder&limit=100')) as unknown as Reminder[]).filter(
      (event) => event.data.object.id === meetingId,
    );
  /** Waits for both parties' reminders of `meetingId`; then, past a later meeting's, finds one each. */
  const expectRemindedOnce = async (meetingId: string) => {
    const both = async (id: string) =>
      (await reminders(lister, id)).length > 0 && (await reminders(applicant, id)).length > 0;
    await waitFor(() => both(meetingId), REMINDER_BOUND_MS, 'the reminder of both parties');
    const later = await acceptedMeeting(60_000);
    await waitFor(() => both(later.id), REMINDER_BOUND_MS, 'a later meeting’s reminder');
    for (const key of [lister, applicant]) expect(await reminders(key, meetingId)).toHaveLength(1);
  };
  const reminded = (meetingId: string) =>
    database(
      async (client) =>
        (await client.query('SELECT reminded_at FROM meetings WHERE id = $1', [meetingId])).rows[0].reminded_at !==
        null,
    );

  beforeAll(async () => {
    await Promise.all([postgres.create(), redis.create()]);
    env = { DATABASE_URL: postgres.url, REDIS_URL: redis.url, MEETINGS_REMINDER_INTERVAL_MS: '500' };
    api = await startServing('api', { ...env, DATABASE_MIGRATE_ON_START: 'true' });
    lister = await signUp('meetings-faults-lister@example.com');
    applicant = await signUp('meetings-faults-applicant@example.com');
  });
  afterEach(async () => {
    await worker?.stop('SIGKILL');
    worker = undefined;
  });
  afterAll(async () => {
    await api?.stop();
    await Promise.all([postgres.destroy(), redis.destroy()]);
  });

  jest.setTimeout(4 * REMINDER_BOUND_MS);

  it('sends once the reminder that fell due while its worker was killed, soon after a worker is back', async () => {
    worker = await startServing('worker', env);
    const meeting = await acceptedMeeting(DAY_MS + 5_000);
    await worker.stop('SIGKILL');
    expect(await reminded(meeting.id)).toBe(false);
    // Due by PostgreSQL's clock, the one the reminders compare with, with no worker running.
    await waitFor(
      () =>
        database(
          async (client) =>
            (
              await client.query(`SELECT starts_at <= now() + interval '24 hours' AS due FROM meetings WHERE id = $1`, [
                meeting.id,
              ])
            ).rows[0].due as boolean,
        ),
      REMINDER_BOUND_MS,
      'the reminder to fall due',
    );

    worker = await startServing('worker', env);
    await expectRemindedOnce(meeting.id);
  });

  it('sends once a reminder whose worker was killed while sending it', async () => {
    const meeting = await acceptedMeeting(60_000);
    // Holds the events' table, so that the reminders' batch stalls at recording them, its meetings claimed.
    const holder = new Client({ connectionString: postgres.url });
    await holder.connect();
    await holder.query('BEGIN');
    await holder.query('LOCK TABLE events IN SHARE MODE');
    worker = await startServing('worker', env);
    await waitFor(
      () =>
        database(
          async (client) =>
            Number(
              (
                await client.query(
                  `SELECT count(*) AS n FROM pg_stat_activity
                    WHERE wait_event_type = 'Lock' AND query LIKE 'INSERT INTO events%'`,
                )
              ).rows[0].n,
            ) > 0,
        ),
      REMINDER_BOUND_MS,
      'the reminders’ batch to stall at its events',
    );
    await worker.stop('SIGKILL');
    await holder.query('COMMIT');
    await holder.end();
    expect(await reminded(meeting.id)).toBe(false);

    worker = await startServing('worker', env);
    await expectRemindedOnce(meeting.id);
  });
});
