import { EventsRepository } from '../../libs/events/src/events.repository';
import { createApiApp } from '../support/api-app';
import { withDatabase } from '../support/database';
import { createPet, signUp } from '../support/factories';
import type { TestHttpApp } from '../support/http-app';
import { createEndpoint, WEBHOOK_TEST_ENV } from '../support/webhooks';

/** Retention as the worker's periodic cleanup runs it, one batch. */
describe('events past retention', () => {
  let app: TestHttpApp;

  beforeAll(async () => {
    app = await createApiApp({ env: WEBHOOK_TEST_ENV });
  });
  afterAll(() => app.close());

  it('are deleted with their attempts, unless an attempt is younger than the retention or still pending', async () => {
    const account = await signUp(app.http);
    const endpoint = await createEndpoint(app.http, account, 'http://127.0.0.1:9/hooks');
    for (const name of ['Old', 'Retried lately', 'Recent', 'Waiting since an outage'])
      await createPet(app.http, account, { name });
    const ids = await withDatabase(async (client) => {
      const { rows } = await client.query<{ id: string }>('SELECT id FROM events WHERE account_id = $1 ORDER BY seq', [
        account.accountId,
      ]);
      const [old, retried, recent, waiting] = rows.map((row) => row.id);
      await client.query(`UPDATE events SET created_at = now() - interval '31 days' WHERE id = ANY($1)`, [
        [old, retried, waiting],
      ]);
      await client.query(
        `INSERT INTO webhook_attempts (event_id, endpoint_id, event_type, attempt, status, created_at)
         VALUES ($1, $4, 'pet.created', 1, 'failed', now() - interval '31 days'),
                ($2, $4, 'pet.created', 1, 'failed', now() - interval '31 days'),
                ($2, $4, 'pet.created', 2, 'succeeded', now() - interval '29 days'),
                ($3, $4, 'pet.created', 1, 'succeeded', now()),
                ($5, $4, 'pet.created', 1, 'pending', now() - interval '31 days')`,
        [old, retried, recent, endpoint.id, waiting],
      );
      return { old: old!, retried: retried!, recent: recent!, waiting: waiting! };
    });

    await app.app.get(EventsRepository).deleteOlderThan(30, 1000);

    const left = await withDatabase(async (client) => ({
      events: (await client.query('SELECT id FROM events WHERE account_id = $1 ORDER BY seq', [account.accountId]))
        .rows,
      attempts: (
        await client.query('SELECT event_id, attempt FROM webhook_attempts WHERE endpoint_id = $1 ORDER BY id', [
          endpoint.id,
        ])
      ).rows,
    }));
    expect(left.events).toEqual([{ id: ids.retried }, { id: ids.recent }, { id: ids.waiting }]);
    expect(left.attempts).toEqual([
      { event_id: ids.retried, attempt: 1 },
      { event_id: ids.retried, attempt: 2 },
      { event_id: ids.recent, attempt: 1 },
      { event_id: ids.waiting, attempt: 1 },
    ]);
  });

  it('keeps a pet event until it is as far past its matching, which its alerts were recorded with', async () => {
    const account = await signUp(app.http);
    for (const name of ['Matched late', 'Matched in time']) await createPet(app.http, account, { name });
    const [late, inTime] = await withDatabase(async (client) => {
      const { rows } = await client.query<{ id: string; name: string }>(
        `UPDATE events SET created_at = now() - interval '31 days',
                           matched_at = now() - CASE WHEN object ->> 'name' = 'Matched late'
                                                     THEN interval '29 days' ELSE interval '31 days' END
          WHERE account_id = $1 RETURNING id, object ->> 'name' AS name`,
        [account.accountId],
      );
      const id = (name: string) => rows.find((row) => row.name === name)!.id;
      return [id('Matched late'), id('Matched in time')];
    });

    await app.app.get(EventsRepository).deleteOlderThan(30, 1000);

    const left = await withDatabase(
      async (client) => (await client.query('SELECT id FROM events WHERE id = ANY($1)', [[late, inTime]])).rows,
    );
    expect(left).toEqual([{ id: late }]);
  });

  it('deletes the saved-search alerts stored apart once as old, a batch at a time', async () => {
    const account = await signUp(app.http);
    await createPet(app.http, account, { name: 'Alerted' });
    const alerts = await withDatabase(
      async (client) =>
        (
          await client.query<{ seq: string; recent: boolean }>(
            `INSERT INTO saved_search_alerts (account_id, change_id, saved_search_id, created_at)
             SELECT $1, (SELECT id FROM events WHERE account_id = $1), 'srch_retained', created_at
               FROM unnest(ARRAY[now() - interval '31 days', now() - interval '30 days 1 minute',
                                 now() - interval '29 days']) AS t (created_at)
             RETURNING seq, created_at > now() - interval '30 days' AS recent`,
            [account.accountId],
          )
        ).rows,
    );
    const repository = app.app.get(EventsRepository);

    expect(await repository.deleteAlertsOlderThan(30, 1)).toBe(1);
    expect(await repository.deleteAlertsOlderThan(30, 1000)).toBe(1);
    const left = await withDatabase(
      async (client) =>
        (await client.query('SELECT seq FROM saved_search_alerts WHERE account_id = $1', [account.accountId])).rows,
    );
    expect(left).toEqual(alerts.filter((alert) => alert.recent).map(({ seq }) => ({ seq })));
  });
});
