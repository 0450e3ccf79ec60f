import type { MeetingDto } from '@app/applications';
import type TestAgent from 'supertest/lib/agent';
import type { TestAccount } from './factories';

const MINUTE_MS = 60_000;

/** The instant `minutes` from now, as ISO 8601. */
export function minutesFromNow(minutes: number): string {
  return new Date(Date.now() + minutes * MINUTE_MS).toISOString();
}

/** `minutes` after `instant`, as ISO 8601. */
export function plusMinutes(instant: string, minutes: number): string {
  return new Date(new Date(instant).getTime() + minutes * MINUTE_MS).toISOString();
}

/** A meeting of an hour, starting `minutes` from now (two days unless said). */
export function meetingIn(minutes = 2 * 24 * 60, body: Record<string, unknown> = {}) {
  const startsAt = minutesFromNow(minutes);
  return { startsAt, endsAt: plusMinutes(startsAt, 60), ...body };
}

/** Proposes a meeting; answers whatever the service says. */
export function propose(http: TestAgent, by: TestAccount, applicationId: string, body: object = meetingIn()) {
  return http.post(`/v1/applications/${applicationId}/meetings`).set(by.auth).send(body);
}

/** Asks for a step of a meeting; answers whatever the service says. */
export function step(http: TestAgent, by: TestAccount, meeting: MeetingDto, operation: string) {
  return http.post(`/v1/applications/${meeting.applicationId}/meetings/${meeting.id}/${operation}`).set(by.auth);
}

export interface FeedEvent {
  id: string;
  type: string;
  createdAt: string;
  data: { object: Record<string, unknown> };
}

/** The account's events of meetings, oldest first. */
export async function meetingEvents(http: TestAgent, by: TestAccount): Promise<FeedEvent[]> {
  const events = (await http.get('/v1/events?limit=100').set(by.auth).expect(200)).body as FeedEvent[];
  return events.filter((event) => event.type.startsWith('meeting.')).reverse();
}
