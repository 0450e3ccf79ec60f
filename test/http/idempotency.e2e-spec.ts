import type { Response } from 'supertest';
import { createApiApp } from '../support/api-app';
import { shutInsertGate, withDatabase } from '../support/database';
import { signUp, TestAccount } from '../support/factories';
import type { TestHttpApp } from '../support/http-app';
import { startWorker } from '../support/messages';
import { waitFor } from '../support/processes';

/** A retry that took the key over from the request still running, to run it a second time. */
const TOOK_OVER = 'took the key over';

/** When the reservation of the key ends; taking the key over moves it. */
const reservedUntil = (accountId: number, key: string) =>
  withDatabase(
    async (db) =>
      (
        await db.query<{ locked_until: string }>(
          `SELECT locked_until::text FROM idempotency_keys WHERE account_id = $1 AND key = $2`,
          [accountId, key],
        )
      ).rows[0]?.locked_until,
  );

/** The retry's answer, or TOOK_OVER as soon as `tookOver` says so. */
async function answerOrTookOver(
  retry: Promise<Response>,
  tookOver: () => Promise<boolean>,
): Promise<Response | typeof TOOK_OVER> {
  let answered = false;
  const watch = async (): Promise<typeof TOOK_OVER> => {
    while (!answered && !(await tookOver())) await new Promise((resolve) => setTimeout(resolve, 50));
    return TOOK_OVER;
  };
  try {
    return await Promise.race([retry, watch()]);
  } finally {
    answered = true;
  }
}

describe('Idempotency-Key', () => {
  let app: TestHttpApp;
  let account: TestAccount;
  let other: TestAccount;
  const countPets = (name: string) =>
    withDatabase(async (db) =>
      Number((await db.query('SELECT count(*) FROM pets WHERE name = $1', [name])).rows[0].count),
    );

  beforeAll(async () => {
    app = await createApiApp();
    account = await signUp(app.http);
    other = await signUp(app.http);
  });
  afterAll(() => app.close());

  const createPet = (who: TestAccount, key: string | undefined, body: object) => {
    const call = app.http.post('/v1/pets').set(who.auth);
    if (key !== undefined) call.set('Idempotency-Key', key);
    return call.send(body);
  };

  it('replays the first response to a retry with the same key and body, without a second pet', async () => {
    const name = `Idem ${Date.now()}`;
    const first = await createPet(account, 'retry-1', { name, categoryId: 2 }).expect(201);
    const retry = await createPet(account, 'retry-1', { categoryId: 2, name }).expect(201);
    expect(retry.body).toEqual(first.body);
    expect(retry.headers.location).toBe(first.headers.location);
    expect(retry.headers.etag).toMatch(/^"/);
    expect(retry.headers.etag).toBe(first.headers.etag);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    expect(await countPets(name)).toBe(1);
  });

  it('refuses the same key with a different body with 422 idempotency_key_reused', async () => {
    await createPet(account, 'reused-1', { name: 'One', categoryId: 1 }).expect(201);
    const response = await createPet(account, 'reused-1', { name: 'Two', categoryId: 1 }).expect(422);
    expect(response.body).toEqual({ code: 'idempotency_key_reused', message: expect.any(String), status: 422 });
  });

  it('creates one pet when duplicates with one key arrive together, answering each 201 or 409', async () => {
    const name = `Race ${Date.now()}`;
    const answers = await Promise.all(
      Array.from({ length: 8 }, () => createPet(account, 'race-1', { name, categoryId: 3 })),
    );
    const statuses = answers.map((answer) => answer.status);
    expect(statuses).toContain(201);
    expect(statuses.every((status) => status === 201 || status === 409)).toBe(true);
    expect(await countPets(name)).toBe(1);
  });

  it('answers a retry while the first request still runs with 409 idempotency_key_in_use and Retry-After', async () => {
    const name = `In flight ${Date.now()}`;
    const gate = await shutInsertGate('pets', 'name', name);
    const first = createPet(account, 'in-flight', { name, categoryId: 3 }).then((response) => response);
    let retry: Promise<Response> | undefined;
    try {
      await waitFor(() => gate.isHolding(), 10_000, 'the first request to hold its INSERT at the gate');
      const reserved = await reservedUntil(account.accountId, 'in-flight');
      retry = createPet(account, 'in-flight', { name, categoryId: 3 }).then((response) => response);
      const outcome = await answerOrTookOver(
        retry,
        async () => (await reservedUntil(account.accountId, 'in-flight')) !== reserved,
      );
      expect(outcome).not.toBe(TOOK_OVER);
      const answer = outcome as Response;
      expect(answer.status).toBe(409);
      expect(answer.body).toEqual({ code: 'idempotency_key_in_use', message: expect.any(String), status: 409 });
      expect(answer.headers['retry-after']).toBe('1');

      await gate.open();
      expect((await first).status).toBe(201);
      expect(await countPets(name)).toBe(1);
    } finally {
      await gate.remove();
      await Promise.allSettled([first, retry]);
    }
  });

  it('scopes keys to the account', async () => {
    const name = `Scoped ${Date.now()}`;
    await createPet(account, 'shared-key', { name, categoryId: 1 }).expect(201);
    const theirs = await createPet(other, 'shared-key', { name, categoryId: 1 }).expect(201);
    expect(theirs.headers['idempotent-replayed']).toBeUndefined();
    expect(await countPets(name)).toBe(2);
  });

  it('releases the key when the request fails, so a corrected retry runs', async () => {
    await createPet(account, 'fails-first', { name: 'Bad', categoryId: 999 }).expect(400);
    await createPet(account, 'fails-first', { name: 'Bad', categoryId: 1 }).expect(201);
  });

  it('rejects a malformed key with validation_failed', async () => {
    const response = await createPet(account, 'x'.repeat(256), { name: 'Rex', categoryId: 1 }).expect(400);
    expect(response.body).toMatchObject({ code: 'validation_failed', status: 400 });
  });

  describe('keeps a response for 24 hours', () => {
    const ageKey = (key: string, age: string) =>
      withDatabase((db) =>
        db.query(`UPDATE idempotency_keys SET created_at = now() - $2::interval WHERE account_id = $1 AND key = $3`, [
          account.accountId,
          age,
          key,
        ]),
      );

    it('replays a key used 23 hours ago', async () => {
      const name = `Kept ${Date.now()}`;
      const first = await createPet(account, 'kept-key', { name, categoryId: 1 }).expect(201);
      await ageKey('kept-key', '23 hours');
      const retry = await createPet(account, 'kept-key', { name, categoryId: 1 }).expect(201);
      expect(retry.headers['idempotent-replayed']).toBe('true');
      expect(retry.body).toEqual(first.body);
      expect(await countPets(name)).toBe(1);
    });

    it('treats a key used 25 hours ago as new', async () => {
      const name = `Old ${Date.now()}`;
      await createPet(account, 'old-key', { name, categoryId: 1 }).expect(201);
      await ageKey('old-key', '25 hours');
      const again = await createPet(account, 'old-key', { name, categoryId: 1 }).expect(201);
      expect(again.headers['idempotent-replayed']).toBeUndefined();
      expect(await countPets(name)).toBe(2);
    });
  });

  describe('POST /v1/keys, whose response carries a secret', () => {
    const issueKey = (idempotencyKey: string) =>
      app.http.post('/v1/keys').set(account.auth).set('Idempotency-Key', idempotencyKey).send({ name: idempotencyKey });
    const storedResponse = (idempotencyKey: string) =>
      withDatabase(async (db) => {
        const { rows } = await db.query(
          'SELECT response_body::text AS body FROM idempotency_keys WHERE account_id = $1 AND key = $2',
          [account.accountId, idempotencyKey],
        );
        return rows[0]?.body as string | undefined;
      });

    it('stores the response without the secret', async () => {
      const issued = await issueKey('key-stored').expect(201);
      const stored = await storedResponse('key-stored');
      expect(JSON.parse(stored!)).toEqual({ ...issued.body, key: undefined });
      // Not even a part of it: the prefix aside, nothing of the secret is at rest.
      expect(stored).not.toContain(issued.body.key.slice(12));
    });

    it('answers a retry with 409 key_already_issued naming the key, never the secret, also once revoked', async () => {
      const issued = await issueKey('key-retry').expect(201);
      const conflict = {
        code: 'key_already_issued',
        message: expect.stringContaining(`key ${issued.body.id}`),
        status: 409,
      };
      const retry = await issueKey('key-retry').expect(409);
      expect(retry.body).toEqual(conflict);
      expect(retry.text).not.toContain(issued.body.key.slice(12));

      await app.http.delete(`/v1/keys/${issued.body.id}`).set(account.auth).expect(204);
      const afterRevocation = await issueKey('key-retry').expect(409);
      expect(afterRevocation.body).toEqual(conflict);
      expect(afterRevocation.text).not.toContain(issued.body.key.slice(12));

      const keys = await app.http.get('/v1/keys').set(account.auth).expect(200);
      expect(keys.body.filter((key: { name: string }) => key.name === 'key-retry')).toHaveLength(1);
    });
  });

  describe('the purge', () => {
    const storeKey = (key: string, age: string, status: number | null = 201) =>
      withDatabase((db) =>
        db.query(
          `INSERT INTO idempotency_keys (account_id, key, fingerprint, response_status, response_body, created_at)
           VALUES ($1, $2, '\\x00', $4, '{}', now() - $3::interval)`,
          [account.accountId, key, age, status],
        ),
      );
    const storedKeys = () =>
      withDatabase(async (db) => {
        const { rows } = await db.query(`SELECT key FROM idempotency_keys WHERE key LIKE 'purge-%' ORDER BY key`);
        return rows.map((row: { key: string }) => row.key);
      });

    it('deletes, in the worker, the keys older than 24 hours and keeps the younger ones', async () => {
      await storeKey('purge-expired', '25 hours');
      await storeKey('purge-expired-abandoned', '2 days', null);
      await storeKey('purge-live', '23 hours');
      await storeKey('purge-new', '0 seconds');
      const worker = await startWorker({ IDEMPOTENCY_PURGE_INTERVAL_MS: '1000' });
      try {
        await waitFor(
          async () => (await storedKeys()).every((key) => !key.startsWith('purge-expired')),
          15000,
          'the worker to purge the expired idempotency keys',
        );
        expect(await storedKeys()).toEqual(['purge-live', 'purge-new']);
      } finally {
        await worker.stop();
      }
    });
  });

  it('works as before without the header', async () => {
    const name = `Plain ${Date.now()}`;
    await createPet(account, undefined, { name, categoryId: 1 }).expect(201);
    await createPet(account, undefined, { name, categoryId: 1 }).expect(201);
    expect(await countPets(name)).toBe(2);
  });
});
