import type { AddressInfo } from 'node:net';
import { createPetAdoptionClient, verifyWebhook, WebhookVerificationError, type PetAdoptionClient } from '@app/client';
import { createApiApp } from '../support/api-app';
import { suiteDatabase, type SuiteDatabase } from '../support/database';
import { uniqueEmail } from '../support/factories';
import type { TestHttpApp } from '../support/http-app';
import { startWorker, WebhookReceiver } from '../support/messages';
import type { AppProcess } from '../support/processes';
import { emptyWebhooksQueue, waitForDeliveries, WEBHOOK_TEST_ENV } from '../support/webhooks';

describe('the typed client’s verifyWebhook, on a delivery by a real worker process', () => {
  const receiver = new WebhookReceiver();
  let app: TestHttpApp;
  let worker: AppProcess | undefined;
  let client: PetAdoptionClient;
  let database: SuiteDatabase | undefined;
  let receiverUrl: string;

  beforeAll(async () => {
    // A database of its own: the worker dispatches every event of its database, and the shared one holds
    // other suites' events for endpoints that no longer answer, which would queue ahead of this one's.
    database = await suiteDatabase('client_webhooks');
    const env = { ...WEBHOOK_TEST_ENV, DATABASE_URL: database.url };
    await emptyWebhooksQueue();
    receiverUrl = (await receiver.start()).replace(/\/hooks\/messages$/, '/hooks/client');
    app = await createApiApp({ env });
    worker = await startWorker(env);
    await app.app.listen(0, '127.0.0.1');
    const baseUrl = `http://127.0.0.1:${(app.app.getHttpServer().address() as AddressInfo).port}/v1`;
    const signUp = await createPetAdoptionClient({ baseUrl }).api.POST('/accounts', {
      body: { email: uniqueEmail('client-webhooks') },
    });
    client = createPetAdoptionClient({ baseUrl, apiKey: signUp.data!.apiKey.key });
  });
  afterAll(async () => {
    await worker?.stop('SIGKILL');
    await app.close();
    await receiver.stop();
    await database?.drop();
  });

  it('verifies the pet.created delivery with the secret createWebhookEndpoint gave, and no other', async () => {
    const endpoint = await client.api.POST('/webhook-endpoints', {
      body: { url: receiverUrl, events: ['pet.created'] },
    });
    expect(endpoint.response.status).toBe(201);
    const { data: pet } = await client.api.POST('/pets', { body: { name: 'Signed', categoryId: 1 } });
    const { data: events } = await client.api.GET('/events', { params: { query: { type: 'pet.created', limit: 1 } } });
    const [delivery] = await waitForDeliveries(receiver, events![0]!.id, 1);

    const event = verifyWebhook<{ id: string; type: string; data: { object: unknown } }>(
      endpoint.data!.secret,
      delivery!.headers as Record<string, string>,
      delivery!.body,
    );
    expect(event).toMatchObject({ id: events![0]!.id, type: 'pet.created', data: { object: pet } });

    const otherSecret = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;
    expect(() => verifyWebhook(otherSecret, delivery!.headers as Record<string, string>, delivery!.body)).toThrow(
      WebhookVerificationError,
    );
    // A body changed on the way does not verify either.
    expect(() =>
      verifyWebhook(endpoint.data!.secret, delivery!.headers as Record<string, string>, `${delivery!.body} `),
    ).toThrow(WebhookVerificationError);
  });
});
