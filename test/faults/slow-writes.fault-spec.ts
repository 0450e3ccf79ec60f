import { Client } from 'pg';
import { tinyJpeg, ThrowawayS3 } from '../support/photos';
import { AppProcess, sleep, startServing, waitFor } from '../support/processes';
import { StallingProxy } from '../support/stalling-proxy';
import { ThrowawayPostgres, ThrowawayRedis } from '../support/throwaway-services';

/** The shortest server timeouts the settings allow: every wait below outlasts them all. */
const SERVER_TIMEOUTS = { HEADERS_TIMEOUT_MS: '1000', REQUEST_TIMEOUT_MS: '2000', IDLE_TIMEOUT_MS: '1000' };
/** Longer than every server timeout above, shorter than the statement timeout (15 s). */
const PAST_SERVER_TIMEOUTS_MS = 4_000;
/** Longer than the statement timeout. */
const PAST_STATEMENT_TIMEOUT_MS = 20_000;
/** Far longer than any answer needs, storage that never answers included (10 s of silence, 3 attempts at most). */
const ANSWER_BOUND_MS = 90_000;

describe('faults: a write slower than every server timeout answers its outcome, or did not happen', () => {
  const postgres = new ThrowawayPostgres();
  const redis = new ThrowawayRedis();
  const s3 = new ThrowawayS3();
  const storage = new StallingProxy(() => s3.port);
  let api: AppProcess & { baseUrl: string };
  let database: Client;
  let auth: { Authorization: string };
  let image: Buffer;

  /** The answer's status and body; a request cut off without one rejects, and fails its test. */
  const call = async (path: string, init: RequestInit = {}) => {
    const response = await fetch(`${api.baseUrl}${path}`, { ...init, signal: AbortSignal.timeout(ANSWER_BOUND_MS) });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };
  const newPet = async (): Promise<number> => {
    const pet = await call('/v1/pets', {
      method: 'POST',
      headers: { ...auth, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'Rex', categoryId: 1 }),
    });
    expect(pet.status).toBe(201);
    return pet.body.id as number;
  };
  const rename = (petId: number, name: string) =>
    call(`/v1/pets/${petId}`, {
      method: 'PATCH',
      headers: { ...auth, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name }),
    });
  const upload = (petId: number) =>
    call(`/v1/pets/${petId}/photos`, {
      method: 'POST',
      headers: { ...auth, 'Content-Type': 'image/jpeg' },
      body: new Uint8Array(image),
    });
  const nameOf = async (petId: number) =>
    (await database.query<{ name: string }>('SELECT name FROM pets WHERE id = $1', [petId])).rows[0]!.name;
  const photoIds = async (petId: number) =>
    (await database.query<{ id: string }>('SELECT id FROM photos WHERE pet_id = $1', [petId])).rows.map(
      (row) => row.id,
    );
  /** Takes the pet's row lock in a transaction of its own; `released` settles once it let go after `ms`. */
  const lockFor = async (petId: number, ms: number): Promise<{ released: Promise<void> }> => {
    const holder = new Client({ connectionString: postgres.url });
    // A failed test leaves it holding until the suite's PostgreSQL goes.
    holder.on('error', () => undefined);
    await holder.connect();
    await holder.query('BEGIN');
    await holder.query('SELECT 1 FROM pets WHERE id = $1 FOR UPDATE', [petId]);
    const released = (async () => {
      await sleep(ms);
      await holder.query('ROLLBACK');
      await holder.end();
    })();
    return { released };
  };

  beforeAll(async () => {
    await Promise.all([postgres.create(), redis.create(), s3.create()]);
    await storage.create();
    api = await startServing('api', {
      DATABASE_URL: postgres.url,
      REDIS_URL: redis.url,
      DATABASE_MIGRATE_ON_START: 'true',
      ...s3.env,
      S3_ENDPOINT: `http://127.0.0.1:${storage.port}`,
      ...SERVER_TIMEOUTS,
    });
    database = new Client({ connectionString: postgres.url });
    await database.connect();
    const account = await call('/v1/accounts', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ email: 'slow-writes@example.com' }),
    });
    auth = { Authorization: `Bearer ${(account.body.apiKey as { key: string }).key}` };
    image = await tinyJpeg();
  }, 120_000);
  afterAll(async () => {
    storage.release();
    await api?.stop('SIGKILL');
    await database?.end();
    await storage.destroy();
    await Promise.all([postgres.destroy(), redis.destroy(), s3.destroy()]);
  });

  it('answers 200 to a PATCH that waited on a row lock past every server timeout, and keeps it', async () => {
    const petId = await newPet();
    const { released } = await lockFor(petId, PAST_SERVER_TIMEOUTS_MS);
    const renamed = await rename(petId, 'Patient');
    await released;
    expect(renamed).toMatchObject({ status: 200, body: { name: 'Patient' } });
    expect(await nameOf(petId)).toBe('Patient');
  }, 60_000);

  it('answers 503 to a PATCH behind a row lock held past the statement timeout, and keeps none of it', async () => {
    const petId = await newPet();
    const { released } = await lockFor(petId, PAST_STATEMENT_TIMEOUT_MS);
    const renamed = await rename(petId, 'Impatient');
    await released;
    expect(renamed).toMatchObject({ status: 503, body: { code: 'service_unavailable', status: 503 } });
    expect(await nameOf(petId)).toBe('Rex');
  }, 60_000);

  it('answers 202 to an upload whose storage stalled past every server timeout, and keeps the photo', async () => {
    const petId = await newPet();
    storage.stalled = true;
    const uploading = upload(petId);
    await waitFor(async () => storage.heldBytes >= image.length, 30_000, 'the upload to reach the stalled storage');
    await sleep(PAST_SERVER_TIMEOUTS_MS);
    storage.release();
    const accepted = await uploading;
    expect(accepted).toMatchObject({ status: 202, body: { status: 'processing' } });
    expect(await photoIds(petId)).toEqual([accepted.body.id]);
  }, 60_000);

  it(
    'answers 503 to an upload whose storage never answers, and keeps no photo',
    async () => {
      const petId = await newPet();
      storage.stalled = true;
      try {
        const refused = await upload(petId);
        expect(refused).toMatchObject({ status: 503, body: { code: 'service_unavailable', status: 503 } });
      } finally {
        storage.release();
      }
      expect(await photoIds(petId)).toEqual([]);
    },
    ANSWER_BOUND_MS + 30_000,
  );
});
