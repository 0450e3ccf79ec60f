import type { ApplicationDto, MeetingDto } from '@app/applications';
import { act, submit, useApplicationsSuite } from '../support/applications';
import { withDatabase } from '../support/database';
import { createPet, type TestAccount } from '../support/factories';
import {
  settleEarlierEmails,
  testAddress,
  TestSmtpServer,
  unsubscribeUrlOf,
  waitForEmailStatus,
} from '../support/email';
import { startWorker } from '../support/messages';
import { meetingIn, propose, step } from '../support/meetings';
import type { AppProcess } from '../support/processes';

/** Every email is sent within a minute of its change. */
const WITHIN_MS = 60_000;

describe('applications: the emails to the applicant and to the lister, sent by a real worker over SMTP', () => {
  const suite = useApplicationsSuite();
  const smtp = new TestSmtpServer();
  let worker: AppProcess;
  let petName: string;

  beforeAll(async () => {
    const [url] = await Promise.all([smtp.start(), settleEarlierEmails()]);
    worker = await startWorker({
      EMAIL_TRANSPORT: 'smtp',
      SMTP_URL: url,
      EMAIL_BACKOFF_MS: '200',
      MEETINGS_REMINDER_INTERVAL_MS: '500',
    });
  });
  afterAll(async () => {
    await worker?.stop('SIGKILL');
    await smtp.stop();
  });

  /** An application from `email` for a new pet of `lister` (the suite's unless said), named apart. */
  const apply = async (
    email: string,
    body: Record<string, unknown>,
    lister: TestAccount = suite.lister,
  ): Promise<ApplicationDto> => {
    petName = `Rex ${Math.floor(Math.random() * 1e6)}`;
    const pet = await createPet(suite.app.http, lister, { name: petName });
    return (
      await submit(suite.app.http, suite.applicant, pet.id, { contact: { name: 'Alex Doe', email }, ...body }).expect(
        201,
      )
    ).body;
  };
  const say = (by: TestAccount, id: string, body: string) =>
    suite.app.http.post(`/v1/applications/${id}/messages`).set(by.auth).send({ body }).expect(201);
  /** The subjects and text parts of the emails `address` received, once it has `count` of them. */
  const received = async (address: string, count: number) =>
    (await smtp.waitFor(address, count, WITHIN_MS)).map(({ parsed }) => ({
      subject: parsed.subject ?? '',
      text: parsed.text ?? '',
    }));
  const outboxOf = (address: string) =>
    withDatabase(
      async (client) =>
        (
          await client.query<{ id: string; list: string; template: string }>(
            'SELECT id, list, template FROM email_notifications WHERE address = $1 ORDER BY created_at, id',
            [address],
          )
        ).rows,
    );

  it('with consent, emails the applicant its changes of state, the lister’s messages verbatim and its meetings', async () => {
    const adopter = testAddress('adopter');
    const application = await apply(adopter, { emailConsent: true });
    expect(application.status).toBe('submitted');
    const [receivedEmail] = await received(adopter, 1);
    expect(receivedEmail!.subject).toBe(`Your application for ${petName} was received`);
    expect(receivedEmail!.text).toContain(application.id);
    expect(receivedEmail!.text).toContain('/v1/unsubscribe/');

    await act(suite.app.http, suite.lister, application.id, 'review').expect(200);
    const text = 'Hello Alex,\n\ncould you visit on Saturday? <b>Bring ID</b> & a lead.';
    await say(suite.lister, application.id, text);
    // The applicant's own message is the lister's to read: never emailed to the applicant.
    await say(suite.applicant, application.id, 'Saturday suits me.');
    const meeting: MeetingDto = (
      await propose(suite.app.http, suite.lister, application.id, meetingIn(120, { location: 'Hauptstraße 1' })).expect(
        201,
      )
    ).body;
    // Accepted less than a day before it starts: reminded at once.
    await step(suite.app.http, suite.applicant, meeting, 'accept').expect(200);

    const emails = await received(adopter, 6);
    const bySubject = (start: string) => emails.find((email) => email.subject.startsWith(start))!;
    expect(emails.map((email) => email.subject).sort()).toEqual(
      [
        `Your application for ${petName} was received`,
        `Your application for pet ${application.petId} is under review`,
        `A new message about your application for pet ${application.petId}`,
        `A meeting was proposed about pet ${application.petId}`,
        `The meeting was accepted about pet ${application.petId}`,
        `Reminder: your meeting about pet ${application.petId}`,
      ].sort(),
    );
    expect(bySubject('A new message').text).toContain(text);
    const proposal = bySubject('A meeting was proposed').text;
    expect(proposal).toContain(`When: ${meeting.startsAt} to ${meeting.endsAt} (UTC)`);
    expect(proposal).toContain('Where: Hauptstraße 1');
    const lists = new Set((await outboxOf(adopter)).map((row) => row.list));
    expect([...lists]).toEqual([`application:${application.id}`]);
  });

  it('without consent, emails the applicant nothing', async () => {
    const adopter = testAddress('silent');
    const application = await apply(adopter, { emailConsent: false });
    await act(suite.app.http, suite.lister, application.id, 'review').expect(200);
    await say(suite.lister, application.id, 'Are you there?');
    await propose(suite.app.http, suite.lister, application.id).expect(201);
    // Each change wrote its emails in its own transaction: none was written for this address.
    expect(await outboxOf(adopter)).toEqual([]);
  });

  it('emails the form’s notifyEmail each new application without the contact, and the applicant’s messages', async () => {
    const adopter = testAddress('private');
    const staff = testAddress('staff');
    const shelter = await suite.account();
    await suite.app.http
      .put('/v1/application-form')
      .set(shelter.auth)
      .send({ fields: [], notifyEmail: staff })
      .expect(200);
    const application = await apply(adopter, { message: 'I have a garden.' }, shelter);
    const [fresh] = await received(staff, 1);
    expect(fresh!.subject).toBe(`A new application for ${petName}`);
    expect(fresh!.text).toContain('I have a garden.');
    expect(fresh!.text).toContain(application.id);
    expect(fresh!.text).not.toContain(adopter);
    expect(fresh!.text).not.toContain('Alex Doe');

    await say(suite.applicant, application.id, 'Still submitted.');
    await act(suite.app.http, shelter, application.id, 'review').expect(200);
    await say(suite.applicant, application.id, 'Now under review.');
    // The lister's own message is not emailed to its staff.
    await say(shelter, application.id, 'Thanks!');
    const messages = await received(staff, 3);
    const whileSubmitted = messages.find((email) => email.text.includes('Still submitted.'));
    const underReview = messages.find((email) => email.text.includes('Now under review.'));
    expect(whileSubmitted!.subject).toBe(`A new message from an applicant for pet ${application.petId}`);
    expect(whileSubmitted!.text).toContain('Still submitted.');
    expect(whileSubmitted!.text).not.toContain(adopter);
    expect(underReview!.text).toContain('Now under review.');
    expect(underReview!.text).toContain(`Email: ${adopter}`);
    const rows = await outboxOf(staff);
    expect(rows.map((row) => row.list)).toEqual(Array(3).fill(`lister:${shelter.accountId}`));
    expect(rows.map((row) => row.template)).toEqual(['lister_new_application', 'lister_message', 'lister_message']);
  });

  it('sends the applicant nothing more about an application once it unsubscribed from it', async () => {
    const adopter = testAddress('leaving');
    const application = await apply(adopter, { emailConsent: true });
    const [first] = await smtp.waitFor(adopter, 1, WITHIN_MS);
    await suite.app.http.post(new URL(unsubscribeUrlOf(first!.raw)).pathname).expect(200);

    await act(suite.app.http, suite.lister, application.id, 'review').expect(200);
    await say(suite.lister, application.id, 'Hello?');
    const later = (await outboxOf(adopter)).slice(1);
    expect(later).toHaveLength(2);
    for (const { id } of later) await waitForEmailStatus(id, 'unsubscribed', WITHIN_MS);
    expect(smtp.to(adopter)).toHaveLength(1);
  });

  it('lifts a permanent refusal of the address when a new application consents again', async () => {
    const adopter = testAddress('bounced');
    smtp.refuseRecipient = (address) => (address === adopter ? { code: 550, message: 'No such user' } : undefined);
    const refused = await apply(adopter, { emailConsent: true });
    const [bounce] = await outboxOf(adopter);
    await waitForEmailStatus(bounce!.id, 'bounced', WITHIN_MS);
    smtp.refuseRecipient = () => undefined;
    await act(suite.app.http, suite.applicant, refused.id, 'withdraw').expect(200);
    const [, withdrawn] = await outboxOf(adopter);
    await waitForEmailStatus(withdrawn!.id, 'suppressed', WITHIN_MS);

    await apply(adopter, { emailConsent: true });
    const [email] = await received(adopter, 1);
    expect(email!.subject).toBe(`Your application for ${petName} was received`);
  });
});
