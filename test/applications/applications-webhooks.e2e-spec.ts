import type { ApplicationDto } from '@app/applications';
import { act, submit } from '../support/applications';
import { createPet, signUp, TestAccount } from '../support/factories';
import type { TestHttpApp } from '../support/http-app';
import {
  createEndpoint,
  latestEvent,
  startWebhookStack,
  verified,
  waitForDeliveries,
  WebhookStack,
} from '../support/webhooks';

describe('applications: their events delivered to webhooks by a real worker', () => {
  let stack: WebhookStack;
  let app: TestHttpApp;
  beforeAll(async () => {
    stack = await startWebhookStack();
    app = stack.app;
  });
  afterAll(() => stack?.stop());

  /** An account with an endpoint subscribed to `events` at its own path of the receiver. */
  const subscriber = async (events: string[]): Promise<{ account: TestAccount; secret: string }> => {
    const account = await signUp(app.http);
    const endpoint = await createEndpoint(app.http, account, `${stack.baseUrl}/${account.accountId}`, events);
    return { account, secret: endpoint.secret };
  };

  it('sends each party the event as it reads the application, signed', async () => {
    const lister = await subscriber(['application.submitted', 'application.updated', 'application.message']);
    const applicant = await subscriber(['application.updated', 'application.message']);
    const pet = await createPet(app.http, lister.account);
    const made: ApplicationDto = (await submit(app.http, applicant.account, pet.id, { message: 'Hi' }).expect(201))
      .body;
    for (const type of ['application.submitted', 'application.message']) {
      const event = await latestEvent(app.http, lister.account, type);
      const [delivery] = await waitForDeliveries(stack.receiver, event.id, 1);
      const body = verified(delivery!, lister.secret) as { type: string; data: { object: Record<string, unknown> } };
      expect(body.type).toBe(type);
      if (type === 'application.submitted') {
        expect(body.data.object).toMatchObject({ id: made.id, role: 'lister' });
        expect('contact' in body.data.object).toBe(false);
      }
    }
    await act(app.http, lister.account, made.id, 'review').expect(200);
    for (const party of [lister, applicant]) {
      const event = await latestEvent(app.http, party.account, 'application.updated');
      const [delivery] = await waitForDeliveries(stack.receiver, event.id, 1);
      const body = verified(delivery!, party.secret) as { data: { object: ApplicationDto } };
      expect(body.data.object).toMatchObject({ id: made.id, status: 'under_review', contact: made.contact });
      expect(body.data.object.role).toBe(party === lister ? 'lister' : 'applicant');
    }
  });
});
