import { createApiApp } from './support/api-app';
import { withDatabase } from './support/database';
import { signUp, TestAccount } from './support/factories';
import type { TestHttpApp } from './support/http-app';

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
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    expect(await countPets(name)).toBe(1);
  });

  it('refuses the same key with a different body with 422 idempotency_key_reused', async () => {
    await createPet(account, 'reused-1', { name: 'One', categoryId: 1 }).expect(201);
    const response = await createPet(account, 'reused-1', { name: 'Two', categoryId: 1 }).expect(422);
    expect(response.body).toEqual({ code: 'idempotency_key_reused', message: expect.any(String), status: 422 });
  });

  it('answers a concurrent duplicate with 409 while the first is in flight, and creates one pet', async () => {
    const name = `Race ${Date.now()}`;
    const answers = await Promise.all(
      Array.from({ length: 8 }, () => createPet(account, 'race-1', { name, categoryId: 3 })),
    );
    const statuses = answers.map((answer) => answer.status).sort();
    expect(statuses.filter((status) => status === 201).length).toBeGreaterThanOrEqual(1);
    expect(statuses.every((status) => status === 201 || status === 409)).toBe(true);
    for (const answer of answers.filter((a) => a.status === 409)) {
      expect(answer.body).toMatchObject({ code: 'idempotency_key_in_use', status: 409 });
      expect(answer.headers['retry-after']).toBeDefined();
    }
    expect(await countPets(name)).toBe(1);
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

  it('treats a key older than 24 hours as new', async () => {
    const name = `Old ${Date.now()}`;
    await createPet(account, 'old-key', { name, categoryId: 1 }).expect(201);
    await withDatabase((db) =>
      db.query(`UPDATE idempotency_keys SET created_at = now() - interval '25 hours' WHERE key = 'old-key'`),
    );
    const again = await createPet(account, 'old-key', { name, categoryId: 1 }).expect(201);
    expect(again.headers['idempotent-replayed']).toBeUndefined();
    expect(await countPets(name)).toBe(2);
  });

  it('replays POST /v1/keys without issuing a second key', async () => {
    const first = await app.http
      .post('/v1/keys')
      .set(account.auth)
      .set('Idempotency-Key', 'key-1')
      .send({ name: 'ci' })
      .expect(201);
    const retry = await app.http
      .post('/v1/keys')
      .set(account.auth)
      .set('Idempotency-Key', 'key-1')
      .send({ name: 'ci' })
      .expect(201);
    expect(retry.body).toEqual(first.body);
    const keys = await app.http.get('/v1/keys').set(account.auth).expect(200);
    expect(keys.body.filter((key: { name: string }) => key.name === 'ci')).toHaveLength(1);
  });

  it('works as before without the header', async () => {
    const name = `Plain ${Date.now()}`;
    await createPet(account, undefined, { name, categoryId: 1 }).expect(201);
    await createPet(account, undefined, { name, categoryId: 1 }).expect(201);
    expect(await countPets(name)).toBe(2);
  });
});
