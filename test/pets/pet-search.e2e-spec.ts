import { createPet, signUp, TestAccount, TestPet } from '../support/factories';
import type { TestHttpApp } from '../support/http-app';
import { PetsSuite, startPetsSuite, walkPages } from '../support/pets';
import { truncatePets } from '../support/database';

/** Every filter and sort, combinable, each walk visiting every matching pet once. */
describe('finding animals', () => {
  let suite: PetsSuite;
  let app: TestHttpApp;
  let account: TestAccount;
  let other: TestAccount;
  let pets: TestPet[];

  const ids = (list: Array<{ id: number }>) => list.map((pet) => pet.id);
  /** Every pet a walk from `query` visits, two to a page, checking each page's link keeps the query. */
  const find = async (query: string, caller = account) => {
    const walk = await walkPages(app, caller, `/v1/pets?limit=2&${query}`);
    return walk;
  };
  const expected = (match: (pet: TestPet) => boolean) => ids(pets.filter(match));

  beforeAll(async () => {
    suite = await startPetsSuite('pets_search');
    ({ app, account } = suite);
    other = await signUp(app.http);
    await truncatePets(suite.database.url);
    const records: Array<[Record<string, unknown>, TestAccount?]> = [
      [
        {
          name: 'Rex',
          categoryId: 1,
          sex: 'male',
          ageGroup: 'adult',
          size: 'large',
          tags: ['calm', 'garden'],
          breed: 'Labrador',
          location: { latitude: 52.52, longitude: 13.405 },
        },
      ],
      [
        {
          name: 'Élodie',
          categoryId: 2,
          sex: 'female',
          ageGroup: 'baby',
          size: 'small',
          description: 'Curious kitten who loves the garden',
          location: { latitude: 52.4, longitude: 13.06 },
        },
      ],
      [
        {
          name: 'Bruno',
          categoryId: 1,
          sex: 'male',
          ageGroup: 'senior',
          size: 'medium',
          status: 'pending',
          tags: ['calm'],
          location: { latitude: 48.137, longitude: 11.575 },
        },
      ],
      [{ name: 'Mimi', categoryId: 2, status: 'sold', description: 'An élégant older cat', tags: ['indoor'] }, other],
      [
        {
          name: 'Hoppy',
          categoryId: 3,
          sex: 'female',
          ageGroup: 'young',
          size: 'small',
          breed: 'Lop',
          location: { latitude: 52.53, longitude: 13.41 },
        },
        other,
      ],
      [
        {
          name: 'Kiwi',
          categoryId: 4,
          ageGroup: 'adult',
          size: 'small',
          tags: ['loud', 'calm'],
          location: { latitude: -33.87, longitude: 151.21 },
        },
      ],
      [{ name: 'Shelly', categoryId: 5, status: 'pending', description: 'Slow but calm tortoise' }],
      [{ name: 'Nemo', categoryId: 7, size: 'small', location: { latitude: 52.52, longitude: 13.405 } }, other],
    ];
    pets = [];
    for (const [record, lister] of records) pets.push(await createPet(app.http, lister ?? account, record));
  });
  afterAll(() => suite.close());

  it.each([
    ['status=pending', (pet: TestPet) => pet.status === 'pending'],
    ['status=available,sold', (pet: TestPet) => pet.status !== 'pending'],
    ['categoryId=2', (pet: TestPet) => pet.categoryId === 2],
    ['sex=female', (pet: TestPet) => pet.sex === 'female'],
    ['sex=unknown', (pet: TestPet) => pet.sex === 'unknown'],
    ['ageGroup=adult', (pet: TestPet) => pet.ageGroup === 'adult'],
    ['size=small', (pet: TestPet) => pet.size === 'small'],
    ['tag=CALM', (pet: TestPet) => ((pet.tags as string[] | undefined) ?? []).includes('calm')],
    ['q=garden', (pet: TestPet) => pet.name === 'Élodie'],
    ['q=KITTEN%20élodie', (pet: TestPet) => pet.name === 'Élodie'],
    ['q=ELODIE', (pet: TestPet) => pet.name === 'Élodie'],
    ['q=elegant%20cat', (pet: TestPet) => pet.name === 'Mimi'],
    ['q=calm%20tortoise', (pet: TestPet) => pet.name === 'Shelly'],
    ['q=labrador', (pet: TestPet) => pet.name === 'Rex'],
    ['q=calm%20dragon', () => false],
    ['categoryId=1&status=pending&tag=calm', (pet: TestPet) => pet.name === 'Bruno'],
    ['size=small&sex=female&ageGroup=baby', (pet: TestPet) => pet.name === 'Élodie'],
  ])('keeps only the pets matching %s, in id order, every page linking the query on', async (query, match) => {
    const walk = await find(query);
    expect(walk.seen).toEqual(expected(match));
  });

  it('finds a pet by the words of its text as last changed, and no longer by the words it lost', async () => {
    const shelly = pets.find((pet) => pet.name === 'Shelly')!;
    const change = (body: Record<string, unknown>) =>
      app.http.patch(`/v1/pets/${shelly.id}`).set(account.auth).send(body).expect(200);
    await change({ description: 'Slow but cheerful tortoise', breed: 'Hermann' });
    expect((await find('q=cheerful%20hermann')).seen).toEqual([shelly.id]);
    expect((await find('q=calm%20tortoise')).seen).toEqual([]);
    await change({ description: 'Slow but calm tortoise', breed: null });
    expect((await find('q=calm%20tortoise')).seen).toEqual([shelly.id]);
    expect((await find('q=hermann')).seen).toEqual([]);
  });

  it('keeps the filters in every next link', async () => {
    const response = await app.http.get('/v1/pets?limit=1&size=small&sort=-createdAt').set(account.auth);
    const link = response.headers.link as string;
    expect(link).toContain('size=small');
    expect(link).toContain('sort=-createdAt');
    expect(link).toContain('limit=1');
  });

  it('keeps only the caller’s pets with listedBy=me', async () => {
    expect((await find('listedBy=me')).seen).toEqual(
      ids(pets.filter((pet) => !['Mimi', 'Hoppy', 'Nemo'].includes(pet.name))),
    );
    expect((await find('listedBy=me', other)).seen).toEqual(
      expected((pet) => ['Mimi', 'Hoppy', 'Nemo'].includes(pet.name)),
    );
  });

  it('keeps pets changed at or after updatedSince', async () => {
    const changed = await app.http
      .patch(`/v1/pets/${pets[2]!.id}`)
      .set(account.auth)
      .send({ breed: 'Boxer' })
      .expect(200);
    const since = encodeURIComponent(changed.body.updatedAt);
    expect((await find(`updatedSince=${since}`)).seen).toEqual([pets[2]!.id]);
    expect((await find('updatedSince=2000-01-01T00:00:00%2B02:00')).seen).toHaveLength(pets.length);
  });

  it('finds pets near a point within radiusKm, each with its distance, nearest first with sort=distance', async () => {
    const near = await find('near=52.52,13.405&radiusKm=30');
    expect(near.seen).toEqual(expected((pet) => ['Rex', 'Élodie', 'Hoppy', 'Nemo'].includes(pet.name)));
    const byName = Object.fromEntries(near.pets.map((pet) => [pet.name, pet.distanceKm]));
    expect(byName).toEqual({ Rex: 0, Nemo: 0, Hoppy: 1.2, Élodie: 26.9 });
    const sorted = await find('near=52.52,13.405&radiusKm=500&sort=distance');
    expect(sorted.pets.map((pet) => pet.name)).toEqual(['Rex', 'Nemo', 'Hoppy', 'Élodie']);
    const wide = await find('near=52.52,13.405');
    expect(wide.seen).toHaveLength(4);
    const plain = await app.http.get('/v1/pets').set(account.auth);
    expect(plain.body.every((pet: object) => !('distanceKm' in pet))).toBe(true);
  });

  it('sorts newest first with sort=-createdAt and least recently changed first with sort=updatedAt', async () => {
    expect((await find('sort=-createdAt')).seen).toEqual(ids(pets).reverse());
    await app.http.patch(`/v1/pets/${pets[0]!.id}`).set(account.auth).send({ size: 'xlarge' }).expect(200);
    const walk = await find('sort=updatedAt');
    expect(walk.seen.at(-1)).toBe(pets[0]!.id);
    const times = walk.pets.map((pet) => Date.parse(pet.updatedAt as string));
    expect(times).toEqual([...times].sort((a, b) => a - b));
  });

  it.each([
    'status=adopted',
    'status=available,',
    'categoryId=0',
    'categoryId=abc',
    'categoryId=999',
    'sex=other',
    'ageGroup=puppy',
    'size=huge',
    'tag=',
    `tag=${'x'.repeat(31)}`,
    'q=',
    'q=%20%20',
    `q=${'x'.repeat(201)}`,
    'listedBy=you',
    'updatedSince=yesterday',
    'updatedSince=2026-06-01',
    'updatedSince=2026-13-01T00:00:00Z',
    'updatedSince=2026-02-30T00:00:00Z',
    'updatedSince=0000-01-01T00:00:00Z',
    'updatedSince=2026-06-01T24:00:00Z',
    'near=52.5',
    'near=91,0',
    'near=0,181',
    'near=a,b',
    'radiusKm=10',
    'near=0,0&radiusKm=0',
    'near=0,0&radiusKm=501',
    'near=0,0&radiusKm=ten',
    'sort=name',
    'sort=distance',
    'sort=updatedAt&cursor=djE6MjA',
  ])('refuses %s with 400 validation_failed naming the parameter', async (query) => {
    const response = await app.http.get(`/v1/pets?${query}`).set(account.auth).expect(400);
    expect(response.body).toMatchObject({ code: 'validation_failed', status: 400 });
    expect(response.body.message).toContain(
      query.includes('cursor') ? 'cursor' : query.split(/[=&]/)[query.startsWith('near=0,0&') ? 2 : 0],
    );
  });

  it('refuses a cursor of another sort', async () => {
    const first = await app.http.get('/v1/pets?limit=1&sort=updatedAt').set(account.auth).expect(200);
    const cursor = /cursor=([^&>]+)/.exec(first.headers.link as string)![1];
    await app.http.get(`/v1/pets?sort=-createdAt&cursor=${cursor}`).set(account.auth).expect(400);
  });
});
