import { mkdtempSync, rmSync } from 'node:fs';
import { request as httpRequest, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AccountsService } from '@app/accounts';
import { PERIODIC_QUEUE } from '@app/core';
import sharp from 'sharp';
import { createApiApp } from '../support/api-app';
import { createPet, signUp, TestAccount, TestPet } from '../support/factories';
import type { TestHttpApp } from '../support/http-app';
import {
  gif,
  jpegWithLocation,
  metadataBlocks,
  pngDeclaring,
  pngWithLocation,
  TestPhoto,
  ThrowawayS3,
  tinyJpeg,
  waitForProcessed,
} from '../support/photos';
import { AppProcess, startServing, waitFor } from '../support/processes';
import { testQueue } from '../support/redis';

const MAX_BYTES = 2 * 1024 * 1024;
const PHOTO_ID = /^pho_[0-9A-Za-z_-]{24}$/;
const MEDIA_BASE = 'http://media.test/media';

/** The path under the api of a rendition URL (the tests' PHOTO_PUBLIC_BASE_URL is the api's /media). */
const mediaPath = (url: string) => url.slice(MEDIA_BASE.length - '/media'.length);

describe.each(['filesystem', 's3'] as const)('photos hosted by the service (%s storage)', (driver) => {
  let app: TestHttpApp;
  let worker: AppProcess;
  let s3: ThrowawayS3 | undefined;
  let directory: string;
  let lister: TestAccount;
  let other: TestAccount;
  let pet: TestPet;

  const upload = (petId: number, image: Buffer, account = lister, type = 'image/jpeg') =>
    app.http.post(`/v1/pets/${petId}/photos`).set(account.auth).set('Content-Type', type).send(image);
  const uploadMultipart = (petId: number, image: Buffer, filename = 'rex.jpg') =>
    app.http.post(`/v1/pets/${petId}/photos`).set(lister.auth).attach('file', image, filename);
  const readyPhoto = async (image: Buffer, type = 'image/jpeg', petId = pet.id) => {
    const accepted = await upload(petId, image, lister, type).expect(202);
    const photo = await waitForProcessed(app.http, lister.auth, accepted.headers.location!);
    expect(photo).toMatchObject({ status: 'ready' });
    return photo;
  };

  /** The app's port, listening on one first: these tests write to the socket themselves. */
  const listening = async () => {
    const server = app.app.getHttpServer() as Server;
    if (!server.listening) await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return (server.address() as AddressInfo).port;
  };

  beforeAll(async () => {
    directory = mkdtempSync(join(tmpdir(), 'photos-e2e-'));
    if (driver === 's3') s3 = await new ThrowawayS3().create();
    const env = {
      PHOTO_STORAGE_DIR: directory,
      PHOTO_MAX_BYTES: String(MAX_BYTES),
      PHOTO_PUBLIC_BASE_URL: MEDIA_BASE,
      PHOTO_SWEEP_INTERVAL_MS: '1000',
      ...s3?.env,
    };
    app = await createApiApp({ env });
    worker = await startServing('worker', env);
    lister = await signUp(app.http);
    other = await signUp(app.http);
    // The suite polls photos until they are processed: more requests than the free plan's minute allows.
    for (const account of [lister, other]) await app.app.get(AccountsService).setPlan(account.email, 'business');
  });
  beforeEach(async () => {
    pet = await createPet(app.http, lister);
  });
  afterAll(async () => {
    await worker?.stop('SIGKILL');
    await app?.close();
    await s3?.destroy();
    rmSync(directory, { recursive: true, force: true });
  });

  it('accepts a JPEG as multipart with 202 and Location, then makes four renditions without any metadata', async () => {
    const original = await jpegWithLocation(3000, 2000);
    expect(metadataBlocks(original)).toEqual(
      expect.arrayContaining(['COM', 'APP1:Exif', expect.stringMatching(/^APP1:http:\/\/ns\.adobe\.com\/xap/)]),
    );
    const accepted = await uploadMultipart(pet.id, original).expect(202);
    expect(accepted.body).toMatchObject({
      id: expect.stringMatching(PHOTO_ID),
      petId: pet.id,
      status: 'processing',
      position: 0,
    });
    expect(accepted.headers.location).toBe(`/v1/pets/${pet.id}/photos/${accepted.body.id}`);

    const photo = await waitForProcessed(app.http, lister.auth, accepted.headers.location!);
    // Orientation 6 turns the 3000×2000 upload upright: 2000 wide, 3000 high, its longest side 2048 at most.
    expect(photo).toMatchObject({ status: 'ready', width: 1365, height: 2048 });
    const widths = { small: 100, medium: 300, large: 600, full: 1365 };
    for (const [size, width] of Object.entries(widths)) {
      const url = photo.urls![size as keyof typeof widths];
      expect(url.startsWith(`${MEDIA_BASE}/`)).toBe(true);
      const served = await app.http.get(mediaPath(url)).buffer(true).expect(200);
      expect(served.headers).toMatchObject({
        'cache-control': 'public, max-age=31536000, immutable',
        'content-type': 'image/jpeg',
        'x-content-type-options': 'nosniff',
        // Any site's page may show it (the widget's).
        'cross-origin-resource-policy': 'cross-origin',
        etag: expect.stringMatching(/^"[0-9a-f]{32}"$/),
      });
      const bytes = served.body as Buffer;
      expect(metadataBlocks(bytes)).toEqual([]);
      expect(bytes.includes('Foster')).toBe(false);
      expect((await sharp(bytes).metadata()).width).toBe(width);
      await app.http.get(mediaPath(url)).set('If-None-Match', served.headers.etag!).expect(304);
    }
  });

  it('accepts a PNG with transparency as the raw body; its WebP renditions carry no metadata either', async () => {
    const original = await pngWithLocation(640, 480, true);
    expect(metadataBlocks(original)).toEqual(expect.arrayContaining(['tEXt', 'eXIf', 'zTXt']));
    const photo = await readyPhoto(original, 'image/png');
    expect(photo).toMatchObject({ width: 480, height: 640 });
    for (const url of Object.values(photo.urls!)) {
      const served = await app.http.get(mediaPath(url)).buffer(true).expect(200);
      expect(served.headers['content-type']).toBe('image/webp');
      expect(metadataBlocks(served.body as Buffer)).toEqual([]);
    }
  });

  it('keeps a narrow upload’s own width in the renditions wider than it', async () => {
    const photo = await readyPhoto(await pngWithLocation(250, 200), 'image/png');
    expect(photo).toMatchObject({ width: 200, height: 250 });
    const medium = await app.http.get(mediaPath(photo.urls!.medium)).buffer(true).expect(200);
    expect((await sharp(medium.body as Buffer).metadata()).width).toBe(200);
  });

  it('puts ready photos on the pet, by position, with a new updatedAt and a pet.updated event', async () => {
    const before = (await app.http.get(`/v1/pets/${pet.id}`).set(lister.auth).expect(200)).body as TestPet;
    expect(before.photos).toEqual([]);
    const first = await readyPhoto(await tinyJpeg());
    const second = await readyPhoto(await tinyJpeg());
    const after = (await app.http.get(`/v1/pets/${pet.id}`).set(other.auth).expect(200)).body as TestPet;
    const entry = (photo: TestPhoto) => ({ id: photo.id, width: photo.width, height: photo.height, urls: photo.urls });
    expect(after.photos).toEqual([entry(first), entry(second)]);
    expect(after.updatedAt > before.updatedAt).toBe(true);
    const events = (await app.http.get('/v1/events?type=pet.updated&limit=100').set(lister.auth).expect(200))
      .body as Array<{
      data: { object: TestPet };
    }>;
    expect(
      events.some((event) => event.data.object.id === pet.id && (event.data.object.photos as unknown[]).length === 2),
    ).toBe(true);

    const moved = await app.http
      .patch(`/v1/pets/${pet.id}/photos/${second.id}`)
      .set(lister.auth)
      .send({ position: 0 })
      .expect(200);
    expect(moved.body).toMatchObject({ id: second.id, position: 0 });
    const reordered = (await app.http.get(`/v1/pets/${pet.id}/photos`).set(other.auth).expect(200)).body as TestPhoto[];
    expect(reordered.map((photo) => [photo.id, photo.position])).toEqual([
      [second.id, 0],
      [first.id, 1],
    ]);
    const pastTheEnd = await app.http
      .patch(`/v1/pets/${pet.id}/photos/${second.id}`)
      .set(lister.auth)
      .send({ position: 99 })
      .expect(200);
    expect(pastTheEnd.body.position).toBe(1);
    const petAfterMoves = (await app.http.get(`/v1/pets/${pet.id}`).set(lister.auth).expect(200)).body as TestPet;
    expect((petAfterMoves.photos as TestPhoto[]).map((photo) => photo.id)).toEqual([first.id, second.id]);
  });

  it('lets only the lister change photos (403), and shows other keys the ready ones only (404 before)', async () => {
    const refused = await upload(pet.id, await tinyJpeg(), other).expect(403);
    expect(refused.body).toMatchObject({ code: 'forbidden', status: 403 });
    const accepted = await upload(pet.id, await tinyJpeg()).expect(202);
    const location = accepted.headers.location!;
    const seenByOther = await app.http.get(location).set(other.auth);
    // Processing is quick: the other key sees 404 while it processes, 200 once ready.
    expect([404, 200]).toContain(seenByOther.status);
    const photo = await waitForProcessed(app.http, lister.auth, location);
    await app.http.get(location).set(other.auth).expect(200);
    await app.http.patch(location).set(other.auth).send({ position: 0 }).expect(403);
    await app.http.delete(location).set(other.auth).expect(403);
    await app.http.patch(location).set(lister.auth).send({ position: -1 }).expect(400);
    await app.http.get(`/v1/pets/${pet.id}/photos/pho_nothingherenothinghere00`).set(lister.auth).expect(404);
    expect(photo.status).toBe('ready');
  });

  it('refuses what is not a JPEG, PNG or WebP image that decodes, or is over 50 megapixels, with 400 invalid_image', async () => {
    const jpeg = await jpegWithLocation(400, 300);
    const cases: Array<[string, Buffer, string]> = [
      ['a GIF sent as image/png', await gif(), 'image/png'],
      ['a truncated JPEG', jpeg.subarray(0, Math.floor(jpeg.length / 2)), 'image/jpeg'],
      ['a PNG declaring 30000×30000 pixels from a few bytes', pngDeclaring(30000, 30000), 'image/png'],
      ['text', Buffer.from('not an image at all'), 'image/jpeg'],
      [
        'a JPEG start on a PNG',
        Buffer.concat([Buffer.from([0xff, 0xd8, 0xff]), await pngWithLocation(50, 50)]),
        'image/jpeg',
      ],
    ];
    for (const [name, bytes, type] of cases) {
      const response = await upload(pet.id, bytes, lister, type);
      expect({ name, status: response.status, body: response.body }).toEqual({
        name,
        status: 400,
        body: { code: 'invalid_image', message: expect.any(String), status: 400 },
      });
    }
    expect((await app.http.get(`/v1/pets/${pet.id}/photos`).set(lister.auth).expect(200)).body).toEqual([]);
  });

  it('renders a polyglot (a PNG with an archive and a script appended) into renditions that carry none of it', async () => {
    const payload = Buffer.from('PK\u0003\u0004<script>alert("polyglot")</script>');
    const photo = await readyPhoto(Buffer.concat([await pngWithLocation(120, 90), payload]), 'image/png');
    const full = await app.http.get(mediaPath(photo.urls!.full)).buffer(true).expect(200);
    expect((full.body as Buffer).includes('polyglot')).toBe(false);
  });

  it('refuses a declared length over PHOTO_MAX_BYTES with 413 before reading the body', async () => {
    const port = await listening();
    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const request = httpRequest({
        port,
        method: 'POST',
        path: `/v1/pets/${pet.id}/photos`,
        headers: { ...lister.auth, 'Content-Type': 'image/jpeg', 'Content-Length': String(MAX_BYTES + 1) },
      });
      request.on('response', (response) => {
        let body = '';
        response.on('data', (chunk: Buffer) => (body += chunk.toString()));
        response.on('end', () => resolve({ status: response.statusCode!, body }));
      });
      request.on('error', reject);
      // Only the headers and a first chunk: the answer must not wait for the rest.
      request.write(Buffer.alloc(1024));
    });
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body)).toMatchObject({ code: 'payload_too_large', status: 413 });
  });

  it('ends a chunked upload with 413 as soon as it passes PHOTO_MAX_BYTES', async () => {
    const port = await listening();
    let sent = 0;
    const status = await new Promise<number>((resolve, reject) => {
      const request = httpRequest({
        port,
        method: 'POST',
        path: `/v1/pets/${pet.id}/photos`,
        headers: { ...lister.auth, 'Content-Type': 'image/jpeg', 'Transfer-Encoding': 'chunked' },
      });
      let answered = false;
      request.on('response', (response) => {
        answered = true;
        response.resume();
        resolve(response.statusCode!);
      });
      request.on('error', (error) => (answered ? undefined : reject(error)));
      const chunk = Buffer.alloc(64 * 1024);
      const more = () => {
        // Keeps sending well past the limit unless the answer comes first.
        if (answered || sent > MAX_BYTES * 4) return request.end();
        sent += chunk.length;
        if (request.write(chunk)) setImmediate(more);
        else request.once('drain', more);
      };
      more();
    });
    expect(status).toBe(413);
    expect(sent).toBeLessThan(MAX_BYTES * 4);
  });

  it('refuses an eleventh photo with 409 too_many_photos', async () => {
    const image = await tinyJpeg();
    for (let i = 0; i < 10; i++) await upload(pet.id, image).expect(202);
    const refused = await upload(pet.id, image).expect(409);
    expect(refused.body).toMatchObject({ code: 'too_many_photos', status: 409 });
  });

  it('replays an upload retried with the same Idempotency-Key, adding no second photo', async () => {
    const image = await tinyJpeg();
    const send = () => upload(pet.id, image).set('Idempotency-Key', `photo-${pet.id}`).expect(202);
    const first = await send();
    const again = await send();
    expect(again.body.id).toBe(first.body.id);
    expect(again.headers.location).toBe(first.headers.location);
    expect((await app.http.get(`/v1/pets/${pet.id}/photos`).set(lister.auth).expect(200)).body).toHaveLength(1);
  });

  it('refuses the same Idempotency-Key with another image (422), and replays the same image sent as multipart', async () => {
    const key = `photo-image-${pet.id}`;
    const image = await tinyJpeg();
    const first = await upload(pet.id, image).set('Idempotency-Key', key).expect(202);
    const other = await jpegWithLocation(32, 24);
    const refused = await upload(pet.id, other).set('Idempotency-Key', key).expect(422);
    expect(refused.body).toEqual({ code: 'idempotency_key_reused', message: expect.any(String), status: 422 });
    const replayed = await uploadMultipart(pet.id, image).set('Idempotency-Key', key).expect(202);
    expect(replayed.headers['idempotent-replayed']).toBe('true');
    expect(replayed.body).toEqual(first.body);
    const photos = (await app.http.get(`/v1/pets/${pet.id}/photos`).set(lister.auth).expect(200)).body as TestPhoto[];
    expect(photos.map((photo) => photo.id)).toEqual([first.body.id]);
  });

  it('removes a photo (204) and its files within a minute; removing the pet removes the rest', async () => {
    const removed = await readyPhoto(await tinyJpeg());
    const kept = await readyPhoto(await tinyJpeg());
    await app.http.delete(`/v1/pets/${pet.id}/photos/${removed.id}`).set(lister.auth).expect(204);
    await app.http.get(`/v1/pets/${pet.id}/photos/${removed.id}`).set(lister.auth).expect(404);
    const remaining = (await app.http.get(`/v1/pets/${pet.id}`).set(lister.auth).expect(200)).body as TestPet;
    expect((remaining.photos as TestPhoto[]).map((photo) => [photo.id])).toEqual([[kept.id]]);
    expect(
      (await app.http.get(`/v1/pets/${pet.id}/photos/${kept.id}`).set(lister.auth).expect(200)).body.position,
    ).toBe(0);
    const gone = async (photo: TestPhoto) => {
      for (const url of Object.values(photo.urls!))
        if ((await app.http.get(mediaPath(url))).status !== 404) return false;
      return true;
    };
    await waitFor(() => gone(removed), 60000, 'the removed photo’s files to go');
    expect(await gone(kept)).toBe(false);
    await app.http.delete(`/v1/pets/${pet.id}`).set(lister.auth).expect(204);
    await waitFor(() => gone(kept), 60000, 'the removed pet’s photo files to go');
  }, 150000);

  it('sweeps from a job scheduler of the periodic queue every PHOTO_SWEEP_INTERVAL_MS, beside the worker’s other periodic work', async () => {
    const periodic = testQueue(PERIODIC_QUEUE);
    try {
      const everyMs = async () =>
        new Map((await periodic.getJobSchedulers()).map((scheduler) => [scheduler.key, scheduler.every]));
      const names = [
        'applications-retention',
        'events-reconcile',
        'events-retention',
        'idempotency-keys-purge',
        'meetings-reminders',
        'messages-reconcile',
        'orders-expiry-sweep',
        'photos-sweep',
        'saved-search-digests',
      ];
      // The worker sets its schedulers once started, and removes those of other apps (other suites') after.
      await waitFor(
        async () => [...(await everyMs()).keys()].sort().join() === names.join(),
        30000,
        'the worker’s job schedulers',
      );
      expect((await everyMs()).get('photos-sweep')).toBe(1000);
    } finally {
      await periodic.close();
    }
  });
});
