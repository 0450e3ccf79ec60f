import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { Client } from 'pg';
import { queuePrefix } from '@app/core';
import { PHOTOS_QUEUE } from '@app/photos';
import { jpegWithLocation, ThrowawayS3 } from '../support/photos';
import { AppProcess, startServing, waitFor } from '../support/processes';
import { ThrowawayPostgres, ThrowawayRedis } from '../support/throwaway-services';

/** Photos per test: enough for a worker of concurrency 1 to be busy with one when it is stopped. */
const PHOTOS = 4;
/** Every 202 ends `ready` within 60 seconds of everything running again; more for a loaded machine. */
const SETTLED_WITHIN_MS = 90_000;

describe('faults: photos through a killed worker and an S3 store that goes away', () => {
  const postgres = new ThrowawayPostgres();
  const redis = new ThrowawayRedis();
  const s3 = new ThrowawayS3();
  let api: AppProcess & { baseUrl: string };
  let worker: AppProcess | undefined;
  let database: Client;
  let auth: { Authorization: string };
  let image: Buffer;

  const env = () => ({
    DATABASE_URL: postgres.url,
    REDIS_URL: redis.url,
    ...s3.env,
    // A killed worker's job is taken over within seconds, and a photo whose storage was away tried again soon.
    PHOTO_WORKER_LOCK_DURATION_MS: '2000',
    PHOTO_WORKER_CONCURRENCY: '1',
    PHOTO_RETRY_DELAY_MS: '200',
    PHOTO_SWEEP_INTERVAL_MS: '1000',
  });
  const call = async (path: string, init: RequestInit = {}) => {
    const response = await fetch(`${api.baseUrl}${path}`, { ...init, signal: AbortSignal.timeout(30_000) });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };
  /** A new pet of the suite's account, and `PHOTOS` uploads of it, each answered 202. */
  const uploadPhotos = async (): Promise<string[]> => {
    const pet = await call('/v1/pets', {
      method: 'POST',
      headers: { ...auth, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'Rex', categoryId: 1 }),
    });
    expect(pet.status).toBe(201);
    const ids: string[] = [];
    for (let count = 0; count < PHOTOS; count++) {
      const accepted = await call(`/v1/pets/${pet.body.id}/photos`, {
        method: 'POST',
        headers: { ...auth, 'Content-Type': 'image/jpeg' },
        body: new Uint8Array(image),
      });
      expect(accepted).toMatchObject({ status: 202, body: { status: 'processing' } });
      ids.push(accepted.body.id as string);
    }
    return ids;
  };
  /** Read from PostgreSQL: polling the api would spend the free plan's minute. */
  const statuses = async (ids: string[]) =>
    (await database.query<{ status: string }>('SELECT status FROM photos WHERE id = ANY ($1)', [ids])).rows.map(
      (row) => row.status,
    );
  const expectAllReady = async (ids: string[]) => {
    await waitFor(
      async () => !(await statuses(ids)).includes('processing'),
      SETTLED_WITHIN_MS,
      'the accepted photos to be processed',
    );
    expect(await statuses(ids)).toEqual(ids.map(() => 'ready'));
  };

  beforeAll(async () => {
    await Promise.all([postgres.create(), redis.create(), s3.create()]);
    api = await startServing('api', { ...env(), DATABASE_MIGRATE_ON_START: 'true' });
    database = new Client({ connectionString: postgres.url });
    await database.connect();
    const account = await call('/v1/accounts', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ email: 'photo-faults@example.com' }),
    });
    auth = { Authorization: `Bearer ${(account.body.apiKey as { key: string }).key}` };
    // Large enough that rendering it keeps a worker busy for a moment.
    image = await jpegWithLocation(4000, 3000);
  }, 120_000);
  afterAll(async () => {
    await worker?.stop('SIGKILL');
    await api?.stop('SIGKILL');
    await database?.end();
    await Promise.all([postgres.destroy(), redis.destroy(), s3.destroy()]);
  });

  it('brings every photo of a worker SIGKILLed mid-processing to ready through the next worker', async () => {
    worker = await startServing('worker', env());
    const ids = await uploadPhotos();
    const connection = new Redis(redis.url, { maxRetriesPerRequest: null });
    const queue = new Queue(PHOTOS_QUEUE, { connection, prefix: queuePrefix(PHOTOS_QUEUE) });
    try {
      await waitFor(async () => (await queue.getActiveCount()) > 0, 30_000, 'a photo being processed');
    } finally {
      await queue.close();
      connection.disconnect();
    }
    await worker.stop('SIGKILL');
    worker = await startServing('worker', env());
    await expectAllReady(ids);
  }, 180_000);

  it('brings every photo accepted before the store went away to ready once it is back', async () => {
    await worker?.stop();
    const ids = await uploadPhotos();
    await s3.stop();
    // Its warnings say when it puts a photo off (the suites' processes are silent otherwise).
    worker = await startServing('worker', { ...env(), LOG_LEVEL: 'warn' });
    const putOff = () => worker!.output().includes('processing put off');
    try {
      await waitFor(async () => putOff(), 30_000, 'the worker to put processing off while the store is away');
    } finally {
      await s3.start();
    }
    await expectAllReady(ids);
  }, 180_000);
});
