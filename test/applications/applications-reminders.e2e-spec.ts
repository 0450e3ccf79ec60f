import type { ApplicationDto, MeetingDto } from '@app/applications';
import { useApplicationsSuite } from '../support/applications';
import { withDatabase } from '../support/database';
import type { TestAccount } from '../support/factories';
import type { TestHttpApp } from '../support/http-app';
import { FeedEvent, meetingEvents, meetingIn, propose, step } from '../support/meetings';
import { AppProcess, startServing, waitFor } from '../support/processes';

const INTERVAL_MS = 500;
const DAY_MS = 24 * 60 * 60 * 1000;
/** A reminder is due within a minute of its time. */
const WITHIN_MS = 60_000;

describe('applications: meeting reminders, from the worker', () => {
  const suite = useApplicationsSuite();
  let app: TestHttpApp;
  let lister: TestAccount;
  let applicant: TestAccount;
  let worker: AppProcess;
  let application: ApplicationDto;
  beforeAll(async () => {
    ({ app, lister, applicant } = suite);
    worker = await startServing('worker', { MEETINGS_REMINDER_INTERVAL_MS: String(INTERVAL_MS) });
    application = await suite.applicationIn('under_review');
  });
  afterAll(() => worker?.stop('SIGKILL'));

  const proposed = async (minutes: number): Promise<MeetingDto> =>
    (await propose(app.http, lister, application.id, meetingIn(minutes)).expect(201)).body;
  const accepted = async (minutes: number): Promise<MeetingDto> =>
    (await step(app.http, applicant, await proposed(minutes), 'accept').expect(200)).body;
  const reminders = async (party: TestAccount, meeting: MeetingDto): Promise<FeedEvent[]> =>
    (await meetingEvents(app.http, party)).filter(
      (event) => event.type === 'meeting.reminder' && event.data.object.id === meeting.id,
    );
  const remindedBoth = async (meeting: MeetingDto, withinMs: number) => {
    await waitFor(
      async () => (await reminders(lister, meeting)).length > 0 && (await reminders(applicant, meeting)).length > 0,
      withinMs,
      `the reminder of ${meeting.id}`,
    );
    return reminders(lister, meeting);
  };

  it('reminds both parties at once of a meeting accepted less than 24 hours before it starts, with the meeting', async () => {
    const meeting = await accepted(120);
    const [sent] = await remindedBoth(meeting, WITHIN_MS);
    expect(sent!.data.object).toEqual(meeting);
    expect(new Date(sent!.createdAt).getTime() - new Date(meeting.updatedAt).getTime()).toBeLessThan(WITHIN_MS);
    expect((await reminders(applicant, meeting))[0]!.data.object).toEqual(meeting);
    const [row] = await withDatabase(
      async (client) => (await client.query('SELECT reminded_at FROM meetings WHERE id = $1', [meeting.id])).rows,
    );
    expect(row.reminded_at).toBeInstanceOf(Date);
    await step(app.http, applicant, meeting, 'cancel').expect(200);
  });

  it('reminds 24 hours before the start, within a minute, once; not a proposed or cancelled meeting', async () => {
    const dueInMs = 12_000;
    const meeting = await accepted((DAY_MS + dueInMs) / 60_000);
    const dueAt = new Date(meeting.startsAt).getTime() - DAY_MS;
    const onlyProposed = await proposed(60);
    const cancelled = await accepted(24 * 60 + 0.1);
    await step(app.http, lister, cancelled, 'cancel').expect(200);
    const [sent] = await remindedBoth(meeting, dueInMs + WITHIN_MS);
    const sentAt = new Date(sent!.createdAt).getTime();
    expect(sentAt).toBeGreaterThanOrEqual(dueAt);
    expect(sentAt - dueAt).toBeLessThan(WITHIN_MS);
    // A later reminder, sent by a later run: every run before it found nothing more of the others.
    await step(app.http, applicant, meeting, 'cancel').expect(200);
    const barrier = await accepted(30);
    await remindedBoth(barrier, WITHIN_MS);
    for (const party of [lister, applicant]) {
      expect(await reminders(party, meeting)).toHaveLength(1);
      expect(await reminders(party, onlyProposed)).toEqual([]);
      expect(await reminders(party, cancelled)).toEqual([]);
    }
  });
});
