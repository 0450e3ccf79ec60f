import { createPet, TestAccount } from '../support/factories';
import type { TestHttpApp } from '../support/http-app';
import { PetsSuite, startPetsSuite } from '../support/pets';

describe('creating pets', () => {
  let suite: PetsSuite;
  let app: TestHttpApp;
  let account: TestAccount;

  beforeAll(async () => {
    suite = await startPetsSuite('pets_create');
    ({ app, account } = suite);
  });
  afterAll(() => suite.close());

  describe('POST /v1/pets (createPet)', () => {
    it('creates a pet with 201, its id, the default status and a Location header', async () => {
      const response = await app.http
        .post('/v1/pets')
        .set(account.auth)
        .send({ name: '  Rex  ', categoryId: 1 })
        .expect(201);
      expect(response.body).toEqual({
        id: expect.any(Number),
        name: 'Rex',
        categoryId: 1,
        status: 'available',
        sex: 'unknown',
        photos: [],
        createdAt: response.body.updatedAt,
        updatedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      });
      expect(response.headers.location).toBe(`/v1/pets/${response.body.id}`);
      expect(response.headers['content-type']).toMatch(/^application\/json/);
    });

    it('keeps a status given on creation', async () => {
      const pet = await createPet(app.http, account, { status: 'sold' });
      expect(pet.status).toBe('sold');
    });

    it('creates each of many pets sent at once in shared statements, refusing only the one with an unknown category', async () => {
      const statuses = ['available', 'pending', 'sold'];
      const sent = Array.from({ length: 20 }, (_, i) => ({
        name: `Together ${i}`,
        categoryId: i === 7 ? 999 : (i % 7) + 1,
        status: statuses[i % 3],
      }));
      suite.sql.reset();
      const answers = await Promise.all(sent.map((pet) => app.http.post('/v1/pets').set(account.auth).send(pet)));
      const inserts = suite.sql.countOf('INSERT INTO pets');
      // Requests that arrive while a batch is written go together in the next one.
      expect(inserts).toBeGreaterThan(0);
      expect(inserts).toBeLessThan(sent.length);
      expect(answers[7]!.status).toBe(400);
      expect(answers[7]!.body).toMatchObject({ code: 'validation_failed', status: 400 });
      expect(answers[7]!.body.message).toContain('categoryId');
      const created = answers.filter((_, i) => i !== 7);
      expect(new Set(created.map((answer) => answer.body.id)).size).toBe(created.length);
      for (const [i, pet] of sent.entries()) {
        if (i === 7) continue;
        expect(answers[i]!.status).toBe(201);
        expect(answers[i]!.body).toMatchObject({ id: expect.any(Number), ...pet, sex: 'unknown' });
        expect(answers[i]!.headers.location).toBe(`/v1/pets/${answers[i]!.body.id}`);
        const stored = await app.http.get(answers[i]!.headers.location).set(account.auth).expect(200);
        expect(stored.body).toEqual(answers[i]!.body);
      }
    });

    it.each([
      ['a missing name', { categoryId: 1 }, 'name'],
      ['an empty name', { name: '   ', categoryId: 1 }, 'name'],
      ['a name over 100 characters', { name: 'x'.repeat(101), categoryId: 1 }, 'name'],
      ['a non-string name', { name: 7, categoryId: 1 }, 'name'],
      ['a missing categoryId', { name: 'Rex' }, 'categoryId'],
      ['a fractional categoryId', { name: 'Rex', categoryId: 1.5 }, 'categoryId'],
      ['a string categoryId', { name: 'Rex', categoryId: '1' }, 'categoryId'],
      ['a categoryId of 0', { name: 'Rex', categoryId: 0 }, 'categoryId'],
      ['a categoryId above 2^53-1', { name: 'Rex', categoryId: 2 ** 60 }, 'categoryId'],
      ['an unknown categoryId', { name: 'Rex', categoryId: 999 }, 'categoryId'],
      ['a status outside the enumeration', { name: 'Rex', categoryId: 1, status: 'adopted' }, 'status'],
      ['an unknown field', { name: 'Rex', categoryId: 1, id: 5 }, 'id'],
    ])('rejects %s with 400 validation_failed naming the field', async (_case, body, field) => {
      const response = await app.http.post('/v1/pets').set(account.auth).send(body).expect(400);
      expect(response.body).toMatchObject({ code: 'validation_failed', status: 400 });
      expect(response.body.message).toContain(field);
    });

    it('rejects a body that is not an object with validation_failed', async () => {
      const response = await app.http
        .post('/v1/pets')
        .set(account.auth)
        .send([{ name: 'Rex', categoryId: 1 }])
        .expect(400);
      expect(response.body).toMatchObject({ code: 'validation_failed', status: 400 });
    });

    it('rejects malformed JSON with invalid_json', async () => {
      const response = await app.http
        .post('/v1/pets')
        .set(account.auth)
        .set('Content-Type', 'application/json')
        .send('{"name": "Rex",')
        .expect(400);
      expect(response.body).toEqual({ code: 'invalid_json', message: expect.any(String), status: 400 });
    });

    it('rejects a body that is not JSON with unsupported_content_type', async () => {
      const response = await app.http
        .post('/v1/pets')
        .set(account.auth)
        .set('Content-Type', 'text/plain')
        .send('name=Rex')
        .expect(400);
      expect(response.body).toMatchObject({ code: 'unsupported_content_type', status: 400 });
    });

    it('rejects a body over 64 KiB with 413 payload_too_large', async () => {
      const response = await app.http
        .post('/v1/pets')
        .set(account.auth)
        .send({ name: 'x'.repeat(70 * 1024), categoryId: 1 })
        .expect(413);
      expect(response.body).toMatchObject({ code: 'payload_too_large', status: 413 });
    });

    it('answers 401 unauthorized without a key', async () => {
      const response = await app.http.post('/v1/pets').send({ name: 'Rex', categoryId: 1 }).expect(401);
      expect(response.body).toMatchObject({ code: 'unauthorized', status: 401 });
      expect(response.headers['www-authenticate']).toBe('Bearer');
    });
  });
  describe('the record', () => {
    const full = {
      name: 'Biscuit',
      categoryId: 2,
      description: 'Shy at first, then a lap cat.',
      breed: 'Maine Coon',
      sex: 'female',
      ageGroup: 'senior',
      size: 'large',
      tags: ['calm', 'indoor'],
      photoUrls: ['https://photos.example.com/biscuit.jpg'],
      location: { latitude: -33.8688, longitude: 151.2093 },
    };

    it('stores and answers every field, with createdAt and updatedAt and a strong ETag', async () => {
      const response = await app.http.post('/v1/pets').set(account.auth).send(full).expect(201);
      expect(response.body).toEqual({
        id: expect.any(Number),
        status: 'available',
        ...full,
        photos: [],
        createdAt: response.body.updatedAt,
        updatedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      });
      expect(response.headers.etag).toMatch(/^"[0-9]+"$/);
      const fetched = await app.http.get(`/v1/pets/${response.body.id}`).set(account.auth).expect(200);
      expect(fetched.body).toEqual(response.body);
      expect(fetched.headers.etag).toBe(response.headers.etag);
    });

    it('leaves out the fields never set, and trims text, lower-cases and trims tags', async () => {
      const pet = await createPet(app.http, account, {
        description: '  Loud  ',
        breed: ' Mix ',
        tags: [' Good-With-Kids ', 'CALM'],
      });
      expect(pet).toMatchObject({ description: 'Loud', breed: 'Mix', tags: ['good-with-kids', 'calm'] });
      for (const field of ['ageGroup', 'size', 'photoUrls', 'location']) expect(pet).not.toHaveProperty(field);
    });

    it('stores a coordinate too small for any real place as 0', async () => {
      const pet = await createPet(app.http, account, { location: { latitude: 5e-324, longitude: -1e-310 } });
      expect(pet.location).toEqual({ latitude: 0, longitude: 0 });
      const changed = await app.http
        .patch(`/v1/pets/${pet.id}`)
        .set(account.auth)
        .send({ location: { latitude: 45, longitude: 5e-324 } })
        .expect(200);
      expect(changed.body.location).toEqual({ latitude: 45, longitude: 0 });
    });

    it('counts lengths in code points', async () => {
      const pet = await createPet(app.http, account, { breed: '🐕'.repeat(100), tags: ['🐾'.repeat(30)] });
      expect(pet.breed).toBe('🐕'.repeat(100));
    });

    it.each([
      ['an empty description', { description: '  ' }, 'description'],
      ['a description over 2000 characters', { description: 'x'.repeat(2001) }, 'description'],
      ['a non-string description', { description: 5 }, 'description'],
      ['an empty breed', { breed: '' }, 'breed'],
      ['a breed over 100 characters', { breed: 'x'.repeat(101) }, 'breed'],
      ['a sex outside the enumeration', { sex: 'other' }, 'sex'],
      ['an ageGroup outside the enumeration', { ageGroup: 'puppy' }, 'ageGroup'],
      ['a size outside the enumeration', { size: 'huge' }, 'size'],
      ['tags that are not an array', { tags: 'calm' }, 'tags'],
      ['eleven tags', { tags: Array.from({ length: 11 }, (_, i) => `t${i}`) }, 'tags'],
      ['an empty tag', { tags: ['  '] }, 'tags'],
      ['a tag over 30 characters', { tags: ['x'.repeat(31)] }, 'tags'],
      ['a non-string tag', { tags: [5] }, 'tags'],
      ['tags that repeat once lower-cased', { tags: ['Calm', 'calm '] }, 'tags'],
      [
        'eleven photo URLs',
        { photoUrls: Array.from({ length: 11 }, (_, i) => `https://p.example.com/${i}`) },
        'photoUrls',
      ],
      ['an http photo URL', { photoUrls: ['http://photos.example.com/a.jpg'] }, 'photoUrls'],
      ['a relative photo URL', { photoUrls: ['/a.jpg'] }, 'photoUrls'],
      ['a photo URL over 2048 characters', { photoUrls: [`https://p.example.com/${'x'.repeat(2040)}`] }, 'photoUrls'],
      ['a location that is not an object', { location: 'here' }, 'location'],
      ['a latitude over 90', { location: { latitude: 90.1, longitude: 0 } }, 'location.latitude'],
      ['a latitude under -90', { location: { latitude: -91, longitude: 0 } }, 'location.latitude'],
      ['a longitude over 180', { location: { latitude: 0, longitude: 180.5 } }, 'location.longitude'],
      ['a longitude under -180', { location: { latitude: 0, longitude: -181 } }, 'location.longitude'],
      ['a location without latitude', { location: { longitude: 0 } }, 'location.latitude'],
      ['a string coordinate', { location: { latitude: '1', longitude: 0 } }, 'location.latitude'],
      ['an unknown location field', { location: { latitude: 1, longitude: 1, altitude: 3 } }, 'altitude'],
      ['a read-only createdAt', { createdAt: '2026-01-01T00:00:00Z' }, 'createdAt'],
      ['a read-only updatedAt', { updatedAt: '2026-01-01T00:00:00Z' }, 'updatedAt'],
    ])('rejects %s with 400 validation_failed naming the field', async (_case, fields, field) => {
      const response = await app.http
        .post('/v1/pets')
        .set(account.auth)
        .send({ name: 'Rex', categoryId: 1, ...fields })
        .expect(400);
      expect(response.body).toMatchObject({ code: 'validation_failed', status: 400 });
      expect(response.body.message).toContain(field);
    });
  });
});
