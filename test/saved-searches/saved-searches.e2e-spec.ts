import { createApiApp } from '../support/api-app';
import { signUp, TestAccount } from '../support/factories';
import type { TestHttpApp } from '../support/http-app';
import { ISO_UTC } from '../support/messages';

const SAVED_SEARCH_ID = /^srch_[A-Za-z0-9_-]{24}$/;

/** The operations on saved searches: create, list, get, delete, and what each refuses. */
describe('saved searches', () => {
  let app: TestHttpApp;

  const create = (account: TestAccount, body: object) =>
    app.http.post('/v1/saved-searches').set(account.auth).send(body);

  beforeAll(async () => {
    app = await createApiApp();
  });
  afterAll(() => app.close());

  it('creates a saved search with its query as given, and lists, gets and deletes it', async () => {
    const account = await signUp(app.http);
    const query = 'categoryId=1&status=available,pending&near=52.52,13.405&radiusKm=30&q=Fr%C3%B6hlich+beagle';
    const response = await create(account, { name: '  Beagles near Berlin ', query }).expect(201);
    expect(response.body).toEqual({
      id: expect.stringMatching(SAVED_SEARCH_ID),
      name: 'Beagles near Berlin',
      query,
      emailAlerts: false,
      createdAt: expect.stringMatching(ISO_UTC),
    });
    expect(response.headers.location).toBe(`/v1/saved-searches/${response.body.id}`);
    const unnamed = (await create(account, { query: 'tag=calm' }).expect(201)).body;
    expect(unnamed).not.toHaveProperty('name');

    expect((await app.http.get('/v1/saved-searches').set(account.auth).expect(200)).body).toEqual([
      response.body,
      unnamed,
    ]);
    expect((await app.http.get(`/v1/saved-searches/${unnamed.id}`).set(account.auth).expect(200)).body).toEqual(
      unnamed,
    );
    await app.http.delete(`/v1/saved-searches/${unnamed.id}`).set(account.auth).expect(204);
    await app.http.get(`/v1/saved-searches/${unnamed.id}`).set(account.auth).expect(404);
    await app.http.delete(`/v1/saved-searches/${unnamed.id}`).set(account.auth).expect(404);
    expect((await app.http.get('/v1/saved-searches').set(account.auth).expect(200)).body).toEqual([response.body]);
  });

  it('answers 404 for another account’s saved search, and leaves it alone', async () => {
    const [owner, stranger] = [await signUp(app.http), await signUp(app.http)];
    const search = (await create(owner, { query: 'sex=female' }).expect(201)).body;
    const refused = await app.http.get(`/v1/saved-searches/${search.id}`).set(stranger.auth).expect(404);
    expect(refused.body).toEqual({ status: 404, code: 'not_found', message: expect.stringContaining(search.id) });
    await app.http.delete(`/v1/saved-searches/${search.id}`).set(stranger.auth).expect(404);
    await app.http.get('/v1/saved-searches/srch_nothing').set(stranger.auth).expect(404);
    expect((await app.http.get('/v1/saved-searches').set(stranger.auth).expect(200)).body).toEqual([]);
    await app.http.get(`/v1/saved-searches/${search.id}`).set(owner.auth).expect(200);
  });

  it.each([
    ['a status outside the enumeration', 'status=adopted', 'status'],
    ['a category that does not exist', 'categoryId=987654321', 'categoryId'],
    ['a category that is not an integer', 'categoryId=dogs', 'categoryId'],
    ['an organisation that does not exist', 'organizationId=org_doesnotexist', 'organizationId'],
    ['a sex outside the enumeration', 'sex=both', 'sex'],
    ['an age group outside the enumeration', 'ageGroup=old', 'ageGroup'],
    ['a size outside the enumeration', 'size=huge', 'size'],
    ['a tag over 30 characters', `tag=${'t'.repeat(31)}`, 'tag'],
    ['an empty q', 'q=', 'q'],
    ['a q over 200 characters', `q=${'w'.repeat(201)}`, 'q'],
    ['a malformed point', 'near=52.5', 'near'],
    ['radiusKm without near', 'radiusKm=10', 'radiusKm'],
    ['a radius over 500 km', 'near=52.5,13.4&radiusKm=501', 'radiusKm'],
    ['a repeated parameter', 'tag=calm&tag=small', 'tag'],
    ['a parameter listPets does not take', 'colour=black', 'colour'],
    ['cursor', 'cursor=abc', 'cursor'],
    ['limit', 'limit=10', 'limit'],
    ['sort', 'sort=-createdAt', 'sort'],
    ['listedBy', 'listedBy=me', 'listedBy'],
    ['updatedSince', 'updatedSince=2026-01-01T00:00:00Z', 'updatedSince'],
    ['externalId', 'externalId=A-1', 'externalId'],
  ])('refuses %s with validation_failed naming the parameter', async (_case, query, parameter) => {
    const account = await signUp(app.http);
    const response = await create(account, { query }).expect(400);
    expect(response.body).toMatchObject({ status: 400, code: 'validation_failed' });
    expect(response.body.message).toContain(parameter);
    expect((await app.http.get('/v1/saved-searches').set(account.auth).expect(200)).body).toEqual([]);
  });

  it('validates the query exactly as listPets does', async () => {
    const account = await signUp(app.http);
    for (const query of [
      'status=adopted',
      'near=91,0',
      'q=',
      'categoryId=987654321',
      'organizationId=org_doesnotexist',
      'status=available,sold&tag=Calm',
    ]) {
      const listed = await app.http.get(`/v1/pets?${query}`).set(account.auth);
      const saved = await create(account, { query });
      expect({ query, status: saved.status }).toEqual({ query, status: listed.status === 200 ? 201 : 400 });
    }
  });

  it.each([
    ['an empty query', { query: '' }],
    ['a query over 2000 characters', { query: `q=${'a'.repeat(1999)}` }],
    ['no query', {}],
    ['an empty name', { name: ' ', query: 'tag=calm' }],
    ['a name over 100 characters', { name: 'n'.repeat(101), query: 'tag=calm' }],
    ['an unknown field', { query: 'tag=calm', alerts: true }],
  ])('refuses a body with %s', async (_case, body) => {
    const response = await create(await signUp(app.http), body).expect(400);
    expect(response.body).toMatchObject({ status: 400, code: 'validation_failed' });
  });

  it('refuses a twenty-first saved search with too_many_saved_searches', async () => {
    const account = await signUp(app.http);
    for (let i = 0; i < 20; i++) await create(account, { query: `tag=t${i}` }).expect(201);
    const refused = await create(account, { query: 'tag=one-more' }).expect(409);
    expect(refused.body).toEqual({
      status: 409,
      code: 'too_many_saved_searches',
      message: 'An account has at most 20 saved searches: delete one first.',
    });
    const [first] = (await app.http.get('/v1/saved-searches').set(account.auth).expect(200)).body;
    await app.http.delete(`/v1/saved-searches/${first.id}`).set(account.auth).expect(204);
    await create(account, { query: 'tag=one-more' }).expect(201);
  });

  it('needs an API key', async () => {
    await app.http.get('/v1/saved-searches').expect(401);
    await app.http.post('/v1/saved-searches').send({ query: 'tag=calm' }).expect(401);
  });
});
