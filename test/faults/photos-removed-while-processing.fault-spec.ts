import { connect } from 'node:net';
import { Client } from 'pg';
import { jpegWithLocation, S3_TEST_BUCKET, ThrowawayS3 } from '../support/photos';
import { AppProcess, startServing, waitFor } from '../support/processes';
import { StallingProxy } from '../support/stalling-proxy';
import { ThrowawayPostgres, ThrowawayRedis } from '../support/throwaway-services';

/** What docs/photos.md promises for a removed photo's files, with the default sweep interval. */
const FILES_GONE_WITHIN_MS = 60_000;

describe('faults: a photo removed while the worker writes its renditions, and clients that leave /media early', () => {
  const postgres = new ThrowawayPostgres();
  const redis = new ThrowawayRedis();
  const s3 = new ThrowawayS3();
  const storage = new StallingProxy(() => s3.port);
  let api: AppProcess & { baseUrl: string };
  let worker: AppProcess;
  let database: Client;
  let auth: { Authorization: string };
  let image: Buffer;

  const call = async (path: string, init: RequestInit = {}) => {
    const response = await fetch(`${api.baseUrl}${path}`, { ...init, signal: AbortSignal.timeout(30_000) });
    const text = await response.text();
    return { status: response.status, body: (text ? JSON.parse(text) : {}) as Record<string, unknown> };
  };
  const uploadPhoto = async (): Promise<{ petId: number; photoId: string }> => {
    const pet = await call('/v1/pets', {
      method: 'POST',
      headers: { ...auth, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'Rex', categoryId: 1 }),
    });
    expect(pet.status).toBe(201);
    const accepted = await call(`/v1/pets/${pet.body.id}/photos`, {
      method: 'POST',
      headers: { ...auth, 'Content-Type': 'image/jpeg' },
      body: new Uint8Array(image),
    });
    expect(accepted).toMatchObject({ status: 202, body: { status: 'processing' } });
    return { petId: pet.body.id as number, photoId: accepted.body.id as string };
  };
  const renditionKeysListed = async (photoId: string) =>
    (
      await database.query<{ key: string }>(
        "SELECT key FROM photo_file_removals WHERE photo_id = $1 AND key LIKE 'renditions/%'",
        [photoId],
      )
    ).rows.map((row) => row.key);
  const mediaStatus = async (key: string) => (await fetch(`${api.baseUrl}/media/${key}`)).status;

  beforeAll(async () => {
    await Promise.all([postgres.create(), redis.create(), s3.create()]);
    await storage.create();
    const env = {
      DATABASE_URL: postgres.url,
      REDIS_URL: redis.url,
      ...s3.env,
      S3_ENDPOINT: `http://127.0.0.1:${storage.port}`,
    };
    api = await startServing('api', { ...env, DATABASE_MIGRATE_ON_START: 'true', LOG_LEVEL: 'debug' });
    // The default sweep interval: the one the documented minute is counted with.
    worker = await startServing('worker', env);
    database = new Client({ connectionString: postgres.url });
    await database.connect();
    const account = await call('/v1/accounts', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ email: 'photos-removed@example.com' }),
    });
    auth = { Authorization: `Bearer ${(account.body.apiKey as { key: string }).key}` };
    image = await jpegWithLocation(1200, 900);
  }, 120_000);
  afterAll(async () => {
    storage.release();
    await worker?.stop('SIGKILL');
    await api?.stop('SIGKILL');
    await database?.end();
    await storage.destroy();
    await Promise.all([postgres.destroy(), redis.destroy(), s3.destroy()]);
  });

  it('removes the renditions of a photo removed while they were written within a minute, and never serves them', async () => {
    storage.stallOn = (chunk) => chunk.toString('latin1').includes(`PUT /${S3_TEST_BUCKET}/renditions/`);
    const { petId, photoId } = await uploadPhoto();
    await waitFor(async () => storage.heldBytes > 0, 60_000, 'the worker to write a rendition');
    const keys = await renditionKeysListed(photoId);
    expect(keys).toHaveLength(4);
    expect((await call(`/v1/pets/${petId}/photos/${photoId}`, { method: 'DELETE', headers: auth })).status).toBe(204);
    storage.release();

    const statuses = async () => Promise.all(keys.map(mediaStatus));
    await waitFor(
      async () => (await renditionKeysListed(photoId)).length === 0 && (await statuses()).every((s) => s === 404),
      FILES_GONE_WITHIN_MS,
      'the removed photo’s renditions to go within a minute',
    );
    const listed = await call(`/v1/pets/${petId}/photos`, { headers: auth });
    expect(listed).toMatchObject({ status: 200, body: [] });
  }, 150_000);

  it('logs a client that leaves before its /media file is sent at debug level, without a stack', async () => {
    const { photoId } = await uploadPhoto();
    await waitFor(
      async () =>
        (await database.query('SELECT 1 FROM photos WHERE id = $1 AND status = $2', [photoId, 'ready'])).rowCount === 1,
      60_000,
      'the photo to be ready',
    );
    const { rows } = await database.query<{ key: string }>(
      "SELECT renditions->>'full' AS key FROM photos WHERE id = $1",
      [photoId],
    );
    const path = `/media/${rows[0]!.key}`;
    // Gone as soon as the request is out: the file's stream meets a response whose client left.
    for (let count = 0; count < 3; count++) {
      const socket = connect(Number(new URL(api.baseUrl).port), '127.0.0.1');
      socket.on('error', () => undefined);
      socket.write(`GET ${path} HTTP/1.1\r\nHost: x\r\n\r\n`, () => socket.destroy());
    }
    const left = () => api.logLines().filter((line) => line.msg === 'the client left before the file was sent');
    await waitFor(async () => left().length === 3, 30_000, 'the three clients that left to be logged');
    expect(left()).toEqual(Array.from({ length: 3 }, () => expect.objectContaining({ level: 20 })));
    expect(left().some((line) => 'err' in line)).toBe(false);
    expect(api.logLines().filter((line) => (line.level as number) >= 50)).toEqual([]);
  }, 120_000);
});
