import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AccountsService } from '@app/accounts';
import { createApiApp } from '../support/api-app';
import { createPet, signUp, TestAccount, TestPet } from '../support/factories';
import type { TestHttpApp } from '../support/http-app';
import { startWorker } from '../support/messages';
import { TestPhoto, tinyJpeg, waitForProcessed } from '../support/photos';
import {
  createEndpoint,
  CreatedEndpoint,
  latestEvent,
  startWebhookStack,
  verified,
  waitForDeliveries,
  WEBHOOK_TEST_ENV,
  WebhookStack,
} from '../support/webhooks';

type Urls = NonNullable<TestPhoto['urls']>;
const RENDITION_KEY = /renditions\/pho_[0-9A-Za-z_-]{24}\/(small|medium|large|full)-[0-9a-f]{32}\.jpg$/;

describe('photo URLs, formed from the base configured when a photo is read', () => {
  let directory: string;
  let stack: WebhookStack;
  let endpoint: CreatedEndpoint;
  let app: TestHttpApp | undefined;
  let lister: TestAccount;
  let pet: TestPet;
  let photo: TestPhoto;

  /** The api as it starts with `env`: a restart with other settings. */
  const restartApi = async (env: Record<string, string>) => {
    await app?.close();
    app = await createApiApp({ env: { ...WEBHOOK_TEST_ENV, PHOTO_STORAGE_DIR: directory, ...env } });
    return app;
  };
  /** The worker, which sends the webhooks, as it starts with `env`. */
  const restartWorker = async (env: Record<string, string>) => {
    await stack.worker.stop('SIGKILL');
    stack.worker = await startWorker({ ...WEBHOOK_TEST_ENV, PHOTO_STORAGE_DIR: directory, ...env });
  };
  /** The photo's URLs in the nth delivery of the pet's latest pet.updated event. */
  const deliveredUrls = async (count: number): Promise<Urls> => {
    const event = await latestEvent(app!.http, lister, 'pet.updated');
    const delivery = (await waitForDeliveries(stack.receiver, event.id, count))[count - 1]!;
    const body = verified(delivery, endpoint.secret) as { data: { object: { photos: Array<{ urls: Urls }> } } };
    return body.data.object.photos[0]!.urls;
  };

  /** Every read of the photo's URLs: the photo, the pet, the listing (the widget's), and its event in the feed. */
  const servedUrls = async (api: TestHttpApp): Promise<Urls[]> => {
    const one = await api.http.get(`/v1/pets/${pet.id}/photos/${photo.id}`).set(lister.auth).expect(200);
    const listed = await api.http.get(`/v1/pets/${pet.id}/photos`).set(lister.auth).expect(200);
    const got = await api.http.get(`/v1/pets/${pet.id}`).set(lister.auth).expect(200);
    const page = await api.http
      .get(`/v1/pets?listedBy=me&externalId=${String(pet.externalId)}`)
      .set(lister.auth)
      .expect(200);
    const events = await api.http.get('/v1/events?type=pet.updated&limit=1').set(lister.auth).expect(200);
    return [
      one.body.urls,
      listed.body[0].urls,
      got.body.photos[0].urls,
      page.body[0].photos[0].urls,
      events.body[0].data.object.photos[0].urls,
    ];
  };

  /** `urls` with every rendition's key under `base`. */
  const under = (base: string): Urls => {
    const keys = Object.entries(photo.urls!).map(([size, url]) => [size, `${base}/${RENDITION_KEY.exec(url)![0]}`]);
    return Object.fromEntries(keys) as Urls;
  };

  beforeAll(async () => {
    directory = mkdtempSync(join(tmpdir(), 'photo-urls-e2e-'));
    stack = await startWebhookStack();
    await restartWorker({ PHOTO_PUBLIC_BASE_URL: 'https://cdn-one.example/media' });
    const api = await restartApi({ PHOTO_PUBLIC_BASE_URL: 'https://cdn-one.example/media' });
    lister = await signUp(api.http);
    // The suite polls the photo until it is ready: more requests than the free plan's minute allows.
    await api.app.get(AccountsService).setPlan(lister.email, 'business');
    endpoint = await createEndpoint(api.http, lister, `${stack.baseUrl}/hooks/photo-urls`, ['pet.updated']);
    pet = await createPet(api.http, lister, { externalId: `urls-${Date.now()}` });
    const accepted = await api.http
      .post(`/v1/pets/${pet.id}/photos`)
      .set(lister.auth)
      .set('Content-Type', 'image/jpeg')
      .send(await tinyJpeg())
      .expect(202);
    photo = await waitForProcessed(api.http, lister.auth, accepted.headers.location!);
    expect(photo.status).toBe('ready');
  });
  afterAll(async () => {
    await stack?.stop();
    await app?.close();
    rmSync(directory, { recursive: true, force: true });
  });

  it('serves the photo made ready under one PHOTO_PUBLIC_BASE_URL with another once the api restarts with it', async () => {
    expect(photo.urls!.small).toMatch(/^https:\/\/cdn-one\.example\/media\/renditions\//);
    expect(await servedUrls(app!)).toEqual(Array(5).fill(under('https://cdn-one.example/media')));

    const api = await restartApi({ PHOTO_PUBLIC_BASE_URL: 'https://cdn-two.example/photos/' });
    expect(await servedUrls(api)).toEqual(Array(5).fill(under('https://cdn-two.example/photos')));
  });

  it('sends the webhook of the photo’s pet.updated with the base of the worker that sends it', async () => {
    expect(await deliveredUrls(1)).toEqual(under('https://cdn-one.example/media'));

    await restartWorker({ PHOTO_PUBLIC_BASE_URL: 'https://cdn-two.example/photos' });
    const event = await latestEvent(app!.http, lister, 'pet.updated');
    await app!.http
      .post(`/v1/webhook-endpoints/${endpoint.id}/redeliveries`)
      .set(lister.auth)
      .send({ eventId: event.id })
      .expect(202);
    expect(await deliveredUrls(2)).toEqual(under('https://cdn-two.example/photos'));
  });

  it('defaults to the api’s own /media, following PORT, or the public base URL its documents publish', async () => {
    let api = await restartApi({ PORT: '4210' });
    const urls = under('http://localhost:4210/media');
    expect(await servedUrls(api)).toEqual(Array(5).fill(urls));
    // The api serves the rendition at that address's path.
    await api.http.get(new URL(urls.small).pathname).expect(200).expect('Content-Type', 'image/jpeg');

    api = await restartApi({ PORT: '4211', PUBLIC_BASE_URL_PRODUCTION: 'https://pets.example/api/v1' });
    expect(await servedUrls(api)).toEqual(Array(5).fill(under('https://pets.example/api/media')));
  });
});
