import type { ApplicationDto, MeetingDto } from '@app/applications';
import { act, useApplicationsSuite } from './support/applications';
import type { TestAccount } from './support/factories';
import type { TestHttpApp } from './support/http-app';
import { meetingEvents, meetingIn, minutesFromNow, plusMinutes, propose, step } from './support/meetings';

const DAY_MINUTES = 24 * 60;

describe('applications: meetings, their bounds and steps, and their events', () => {
  const suite = useApplicationsSuite();
  let app: TestHttpApp;
  let lister: TestAccount;
  let applicant: TestAccount;
  let stranger: TestAccount;
  beforeAll(() => ({ app, lister, applicant, stranger } = suite));

  const proposed = async (application: ApplicationDto, body?: object): Promise<MeetingDto> =>
    (await propose(app.http, lister, application.id, body).expect(201)).body;
  const listed = async (application: ApplicationDto, by = applicant): Promise<MeetingDto[]> =>
    (await app.http.get(`/v1/applications/${application.id}/meetings`).set(by.auth).expect(200)).body;

  it('answers 201 with the proposed meeting, and tells both parties with meeting.updated', async () => {
    const application = await suite.applicationIn('under_review');
    const body = meetingIn(3 * DAY_MINUTES, { location: '  The shelter, 12 Mill Lane ' });
    const meeting = await proposed(application, body);
    expect(meeting).toEqual({
      id: expect.stringMatching(/^mtg_[A-Za-z0-9_-]{24}$/),
      applicationId: application.id,
      startsAt: body.startsAt,
      endsAt: body.endsAt,
      location: 'The shelter, 12 Mill Lane',
      status: 'proposed',
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    expect(await listed(application)).toEqual([meeting]);
    expect(await listed(application, lister)).toEqual([meeting]);
    for (const party of [lister, applicant]) {
      const events = (await meetingEvents(app.http, party)).filter((event) => event.data.object.id === meeting.id);
      expect(events).toEqual([
        { id: expect.any(String), type: 'meeting.updated', createdAt: meeting.updatedAt, data: { object: meeting } },
      ]);
    }
    const withoutLocation = await proposed(application, meetingIn(4 * DAY_MINUTES));
    expect('location' in withoutLocation).toBe(false);
  });

  it('takes a start in the future up to 90 days ahead and a length of 15 minutes to 4 hours, bounds included', async () => {
    const application = await suite.applicationIn('approved');
    const fits = async (body: object) => {
      const meeting = await proposed(application, body);
      await step(app.http, lister, meeting, 'cancel').expect(200);
    };
    const refused = async (body: object, field: string) => {
      const response = await propose(app.http, lister, application.id, body).expect(400);
      expect(response.body).toMatchObject({ code: 'validation_failed', status: 400 });
      expect(JSON.stringify(response.body)).toContain(field);
    };
    const soon = minutesFromNow(60);
    await fits({ startsAt: soon, endsAt: plusMinutes(soon, 15) });
    await fits({ startsAt: soon, endsAt: plusMinutes(soon, 240) });
    const last = minutesFromNow(90 * DAY_MINUTES - 5);
    await fits({ startsAt: last, endsAt: plusMinutes(last, 60) });
    await fits({ ...meetingIn(), location: 'x'.repeat(500) });
    await refused({ startsAt: soon, endsAt: plusMinutes(soon, 14.99) }, 'endsAt');
    await refused({ startsAt: soon, endsAt: plusMinutes(soon, 240.01) }, 'endsAt');
    await refused({ startsAt: soon, endsAt: soon }, 'endsAt');
    const past = minutesFromNow(-1);
    await refused({ startsAt: past, endsAt: plusMinutes(past, 60) }, 'startsAt');
    const beyond = minutesFromNow(90 * DAY_MINUTES + 5);
    await refused({ startsAt: beyond, endsAt: plusMinutes(beyond, 60) }, 'startsAt');
    await refused({ ...meetingIn(), location: 'x'.repeat(501) }, 'location');
    await refused({ ...meetingIn(), location: '   ' }, 'location');
    await refused({ ...meetingIn(), location: null }, 'location');
    await refused({ ...meetingIn(), room: 2 }, 'room');
    await refused({ startsAt: '2026-13-01T10:00:00Z', endsAt: '2026-13-01T11:00:00Z' }, 'startsAt');
    await refused({ startsAt: soon.slice(0, 10), endsAt: plusMinutes(soon, 60) }, 'startsAt');
    await refused({ endsAt: plusMinutes(soon, 60) }, 'startsAt');
    expect(await listed(application)).toHaveLength(4);
  });

  it('lets only the lister propose, while the application is under review or approved', async () => {
    const reviewed = await suite.applicationIn('under_review');
    expect((await propose(app.http, applicant, reviewed.id).expect(403)).body).toMatchObject({ code: 'forbidden' });
    await propose(app.http, stranger, reviewed.id).expect(404);
    await propose(app.http, lister, 'app_unknown').expect(404);
    for (const status of ['submitted', 'declined', 'withdrawn'] as const) {
      const application = await suite.applicationIn(status);
      const response = await propose(app.http, lister, application.id).expect(409);
      expect(response.body).toMatchObject({ code: 'invalid_application_state', status: 409 });
    }
    await app.http.get(`/v1/applications/${reviewed.id}/meetings`).set(stranger.auth).expect(404);
  });

  it('keeps at most 3 proposed or accepted meetings per application', async () => {
    const application = await suite.applicationIn('under_review');
    const [first, second] = [await proposed(application), await proposed(application)];
    await step(app.http, applicant, first!, 'accept').expect(200);
    const third = await proposed(application);
    const response = await propose(app.http, lister, application.id).expect(409);
    expect(response.body).toMatchObject({ code: 'too_many_meetings', status: 409 });
    await step(app.http, applicant, second!, 'decline').expect(200);
    const fourth = await proposed(application);
    await propose(app.http, lister, application.id).expect(409);
    await step(app.http, lister, third, 'cancel').expect(200);
    await proposed(application);
    expect((await listed(application)).map((meeting) => meeting.id)).toContain(fourth.id);
  });

  it('accepts, declines and cancels by the rules of the transitions, each step told to both parties', async () => {
    const application = await suite.applicationIn('under_review');
    const meeting = await proposed(application);
    await step(app.http, lister, meeting, 'accept').expect(403);
    await step(app.http, lister, meeting, 'decline').expect(403);
    await step(app.http, stranger, meeting, 'accept').expect(404);
    await step(app.http, stranger, meeting, 'cancel').expect(404);
    await step(app.http, applicant, { ...meeting, id: 'mtg_unknown' }, 'accept').expect(404);
    const accepted: MeetingDto = (await step(app.http, applicant, meeting, 'accept').expect(200)).body;
    expect(accepted).toMatchObject({ ...meeting, status: 'accepted', updatedAt: expect.any(String) });
    expect((await step(app.http, applicant, meeting, 'accept').expect(200)).body).toEqual(accepted);
    const refused = (await step(app.http, applicant, meeting, 'decline').expect(409)).body;
    expect(refused).toMatchObject({ code: 'invalid_application_state', status: 409 });
    const cancelled: MeetingDto = (await step(app.http, applicant, meeting, 'cancel').expect(200)).body;
    expect(cancelled.status).toBe('cancelled');
    expect((await step(app.http, lister, meeting, 'cancel').expect(200)).body).toEqual(cancelled);
    await step(app.http, applicant, meeting, 'accept').expect(409);

    const other = await proposed(application);
    const declined: MeetingDto = (await step(app.http, applicant, other, 'decline').expect(200)).body;
    expect(declined.status).toBe('declined');
    expect((await step(app.http, applicant, other, 'decline').expect(200)).body).toEqual(declined);
    await step(app.http, lister, other, 'cancel').expect(409);
    await step(app.http, applicant, other, 'accept').expect(409);
    const byLister = await proposed(application);
    expect((await step(app.http, lister, byLister, 'cancel').expect(200)).body.status).toBe('cancelled');

    for (const party of [lister, applicant]) {
      const statuses = (await meetingEvents(app.http, party))
        .filter((event) => event.data.object.applicationId === application.id)
        .map((event) => [event.type, event.data.object.id, event.data.object.status]);
      expect(statuses).toEqual([
        ['meeting.updated', meeting.id, 'proposed'],
        ['meeting.updated', meeting.id, 'accepted'],
        ['meeting.updated', meeting.id, 'cancelled'],
        ['meeting.updated', other.id, 'proposed'],
        ['meeting.updated', other.id, 'declined'],
        ['meeting.updated', byLister.id, 'proposed'],
        ['meeting.updated', byLister.id, 'cancelled'],
      ]);
    }
  });

  it('lists them soonest first, a page at a time', async () => {
    const application = await suite.applicationIn('approved');
    const later = await proposed(application, meetingIn(5 * DAY_MINUTES));
    const soonest = await proposed(application, meetingIn(DAY_MINUTES));
    const middle = await proposed(application, meetingIn(3 * DAY_MINUTES));
    const first = await app.http
      .get(`/v1/applications/${application.id}/meetings?limit=2`)
      .set(lister.auth)
      .expect(200);
    expect(first.body.map((meeting: MeetingDto) => meeting.id)).toEqual([soonest.id, middle.id]);
    const next = /<([^>]+)>; rel="next"/.exec(first.headers.link as string)![1]!;
    const second = await app.http.get(next).set(lister.auth).expect(200);
    expect(second.body.map((meeting: MeetingDto) => meeting.id)).toEqual([later.id]);
    expect(second.headers.link).toBeUndefined();
    await app.http.get(`/v1/applications/${application.id}/meetings?limit=0`).set(lister.auth).expect(400);
    await app.http.get(`/v1/applications/${application.id}/meetings?cursor=nope`).set(lister.auth).expect(400);
  });

  it('cancels the proposed and accepted meetings of an application that becomes final, in its transaction', async () => {
    const cases: Array<[string, (application: ApplicationDto) => Promise<unknown>]> = [
      ['withdrawn', (application) => act(app.http, applicant, application.id, 'withdraw').expect(200)],
      ['declined', (application) => act(app.http, lister, application.id, 'decline').expect(200)],
      [
        'closed',
        (application) => app.http.post(`/v1/store/orders/${application.orderId}/cancel`).set(lister.auth).expect(200),
      ],
    ];
    for (const [status, end] of cases) {
      const application = await suite.applicationIn(status === 'declined' ? 'under_review' : 'approved');
      const [accepted, open, declined] = [
        await proposed(application),
        await proposed(application),
        await proposed(application),
      ];
      await step(app.http, applicant, accepted!, 'accept').expect(200);
      await step(app.http, applicant, declined!, 'decline').expect(200);
      await end(application);
      expect((await app.http.get(`/v1/applications/${application.id}`).set(applicant.auth)).body.status).toBe(status);
      const byId = new Map((await listed(application)).map((meeting) => [meeting.id, meeting.status]));
      expect([byId.get(accepted!.id), byId.get(open!.id), byId.get(declined!.id)]).toEqual([
        'cancelled',
        'cancelled',
        'declined',
      ]);
      const cancellations = (await meetingEvents(app.http, lister)).filter(
        (event) => event.data.object.applicationId === application.id && event.data.object.status === 'cancelled',
      );
      expect(cancellations.map((event) => event.data.object.id).sort()).toEqual([accepted!.id, open!.id].sort());
      await step(app.http, applicant, open!, 'accept').expect(409);
    }
  });
});
