import type { ApplicationDto, ApplicationMessageDto } from '@app/applications';
import { act, submit, useApplicationsSuite } from '../support/applications';
import type { TestAccount } from '../support/factories';
import type { TestHttpApp } from '../support/http-app';

interface FeedEvent {
  id: string;
  type: string;
  createdAt: string;
  data: { object: Record<string, unknown> };
}

describe('applications: the conversation, and the events of both parties', () => {
  const suite = useApplicationsSuite();
  let app: TestHttpApp;
  let lister: TestAccount;
  let applicant: TestAccount;
  let stranger: TestAccount;
  beforeAll(() => ({ app, lister, applicant, stranger } = suite));

  const send = (by: TestAccount, id: string, body: unknown) =>
    app.http.post(`/v1/applications/${id}/messages`).set(by.auth).send({ body });
  /** The account's events of `type` about `objectId` (an application or a message), oldest first. */
  const eventsOf = async (by: TestAccount, type: string, objectId: string): Promise<FeedEvent[]> => {
    const events = (await app.http.get(`/v1/events?type=${type}&limit=100`).set(by.auth).expect(200))
      .body as FeedEvent[];
    return events.filter((event) => event.data.object.id === objectId).reverse();
  };

  describe('messages', () => {
    it('starts with the submission’s message; either party writes while open, oldest first, paginated', async () => {
      const pet = await suite.pet();
      const made: ApplicationDto = (await submit(app.http, applicant, pet.id, { message: ' Hello! ' }).expect(201))
        .body;
      const sent: ApplicationMessageDto[] = [];
      for (const [by, body] of [
        [lister, 'Tell us about your garden.'],
        [applicant, 'It is fenced.'],
        [lister, 'Lovely.'],
      ] as const)
        sent.push((await send(by, made.id, body).expect(201)).body);
      expect(sent[0]).toEqual({
        id: expect.stringMatching(/^amsg_[A-Za-z0-9_-]{24}$/),
        applicationId: made.id,
        sender: 'lister',
        body: 'Tell us about your garden.',
        createdAt: expect.any(String),
      });
      const seen: ApplicationMessageDto[] = [];
      let url: string | undefined = `/v1/applications/${made.id}/messages?limit=3`;
      while (url) {
        const page: { body: ApplicationMessageDto[]; headers: Record<string, string> } = await app.http
          .get(url)
          .set(applicant.auth)
          .expect(200);
        seen.push(...page.body);
        url = /<([^>]+)>; rel="next"/.exec(page.headers.link ?? '')?.[1];
      }
      expect(seen.map((message) => [message.sender, message.body])).toEqual([
        ['applicant', 'Hello!'],
        ...sent.map((message) => [message.sender, message.body]),
      ]);
      const asLister = await app.http.get(`/v1/applications/${made.id}/messages`).set(lister.auth).expect(200);
      expect(asLister.body).toEqual(seen);
    });

    it('refuses a stranger (404), a body out of bounds (400) and a final application (409)', async () => {
      const made = await suite.applicationIn('submitted');
      await send(stranger, made.id, 'Hi').expect(404);
      await app.http.get(`/v1/applications/${made.id}/messages`).set(stranger.auth).expect(404);
      await send(applicant, 'app_nothing', 'Hi').expect(404);
      for (const body of ['', '   ', 'x'.repeat(5001), 7]) await send(applicant, made.id, body).expect(400);
      await send(applicant, made.id, '😀'.repeat(5000)).expect(201);
      await act(app.http, lister, made.id, 'decline').expect(200);
      expect((await send(applicant, made.id, 'Why?').expect(409)).body.code).toBe('invalid_application_state');
    });
  });

  describe('events', () => {
    it('application.submitted to the lister, without contact; the first message to the lister only', async () => {
      const pet = await suite.pet();
      const made: ApplicationDto = (await submit(app.http, applicant, pet.id, { message: 'Hi' }).expect(201)).body;
      const [submitted, ...more] = await eventsOf(lister, 'application.submitted', made.id);
      expect(more).toEqual([]);
      expect(submitted!.data.object).toEqual({ ...made, role: 'lister', contact: undefined });
      expect('contact' in submitted!.data.object).toBe(false);
      expect(submitted!.createdAt).toBe(made.createdAt);
      expect(await eventsOf(applicant, 'application.submitted', made.id)).toEqual([]);
      const messages = (await app.http.get(`/v1/applications/${made.id}/messages`).set(lister.auth)).body;
      const [message] = await eventsOf(lister, 'application.message', messages[0].id);
      expect(message!.data.object).toEqual(messages[0]);
      expect(await eventsOf(applicant, 'application.message', messages[0].id)).toEqual([]);
    });

    it('application.message to the party that did not write it', async () => {
      const made = await suite.applicationIn('under_review');
      const fromLister: ApplicationMessageDto = (await send(lister, made.id, 'When can you visit?').expect(201)).body;
      expect((await eventsOf(applicant, 'application.message', fromLister.id))[0]!.data.object).toEqual(fromLister);
      expect(await eventsOf(lister, 'application.message', fromLister.id)).toEqual([]);
    });

    it('application.updated to both parties on each change of state, each with its own view; none when unchanged', async () => {
      const made = await suite.applicationIn('submitted');
      const reviewed: ApplicationDto = (await act(app.http, lister, made.id, 'review').expect(200)).body;
      await act(app.http, lister, made.id, 'review').expect(200);
      const approved: ApplicationDto = (await act(app.http, lister, made.id, 'approve').expect(200)).body;
      await app.http.post(`/v1/store/orders/${approved.orderId}/cancel`).set(applicant.auth).expect(200);
      const asApplicant = await eventsOf(applicant, 'application.updated', made.id);
      const asLister = await eventsOf(lister, 'application.updated', made.id);
      for (const events of [asApplicant, asLister])
        expect(events.map((event) => event.data.object.status)).toEqual(['under_review', 'approved', 'closed']);
      expect(asLister[0]!.data.object).toEqual(reviewed);
      expect(asApplicant[1]!.data.object).toEqual({ ...approved, role: 'applicant' });
      expect(asApplicant[2]!.data.object).toMatchObject({ closedReason: 'order_cancelled', role: 'applicant' });
    });

    it('a lister’s copy of an application declined straight from submitted still has no contact', async () => {
      const made = await suite.applicationIn('submitted');
      await act(app.http, lister, made.id, 'decline', { reason: 'No garden.' }).expect(200);
      const [declined] = await eventsOf(lister, 'application.updated', made.id);
      expect(declined!.data.object).toMatchObject({ status: 'declined' });
      expect('contact' in declined!.data.object).toBe(false);
      const [mine] = await eventsOf(applicant, 'application.updated', made.id);
      expect(mine!.data.object.contact).toEqual(made.contact);
    });
  });
});
