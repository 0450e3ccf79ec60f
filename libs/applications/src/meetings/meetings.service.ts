import { Clock, ForbiddenError, ValidationFailedError } from '@app/core';
import { Sql } from '@app/database';
import { Injectable } from '@nestjs/common';
import { newId } from '../application-ids';
import { ApplicationNotifications } from '../application-notifications';
import { OPEN_APPLICATION_STATUSES } from '../application-transitions';
import { roleOf } from '../application-view';
import {
  ApplicationNotFoundError,
  InvalidApplicationStateError,
  MeetingNotFoundError,
  TooManyMeetingsError,
} from '../applications.errors';
import { ApplicationsRepository, StoredApplication } from '../applications.repository';
import type { MeetingDto, ProposeMeetingDto } from './meeting.dto';
import {
  decideMeetingTransition,
  MAX_LIVE_MEETINGS,
  MEETING_TRANSITIONS,
  MeetingOperation,
  PROPOSING_STATUSES,
} from './meeting-transitions';
import { toMeetingDto } from './meeting-view';
import { MeetingsRepository } from './meetings.repository';

const MINUTE_MS = 60_000;
/** A meeting lasts 15 minutes to 4 hours, and starts at most 90 days ahead: bounds included. */
const MEETING_BOUNDS = { minMinutes: 15, maxMinutes: 240, maxDaysAhead: 90 } as const;

export interface MeetingPage {
  meetings: MeetingDto[];
  /** How many meetings this page and the ones before it hold, when more follow. */
  nextOffset?: number;
}

/** Why a meeting's times are refused, by field; none when they are fine. */
function boundsProblem(startsAt: Date, endsAt: Date, now: Date): { field: string; message: string } | undefined {
  const minutes = (endsAt.getTime() - startsAt.getTime()) / MINUTE_MS;
  if (startsAt.getTime() <= now.getTime()) return { field: 'startsAt', message: 'startsAt must be in the future' };
  if (startsAt.getTime() > now.getTime() + MEETING_BOUNDS.maxDaysAhead * 24 * 60 * MINUTE_MS)
    return { field: 'startsAt', message: `startsAt must be at most ${MEETING_BOUNDS.maxDaysAhead} days ahead` };
  if (minutes < MEETING_BOUNDS.minMinutes || minutes > MEETING_BOUNDS.maxMinutes)
    return { field: 'endsAt', message: 'endsAt must be 15 minutes to 4 hours after startsAt' };
  return undefined;
}

/**
 * The meetings' rules. Each change of a meeting and its `meeting.updated` events are one transaction; a
 * proposal first locks its application, so that the cap counts proposals one after the other and an
 * application ending cancels every meeting proposed before it.
 */
@Injectable()
export class MeetingsService {
  constructor(
    private readonly sql: Sql,
    private readonly meetings: MeetingsRepository,
    private readonly applications: ApplicationsRepository,
    private readonly notifications: ApplicationNotifications,
    private readonly clock: Clock,
  ) {}

  /** The lister proposes a meeting while the application is under review or approved. */
  propose(accountId: number, applicationId: string, body: ProposeMeetingDto): Promise<MeetingDto> {
    const startsAt = new Date(body.startsAt);
    const endsAt = new Date(body.endsAt);
    return this.sql.transaction(async () => {
      const application = await this.meetings.lockApplication(applicationId);
      const role = application && roleOf(application, accountId);
      if (!application || !role) throw new ApplicationNotFoundError(applicationId);
      if (role !== 'lister') throw new ForbiddenError('Only the lister may propose a meeting.');
      const problem = boundsProblem(startsAt, endsAt, this.clock.now());
      if (problem) throw new ValidationFailedError(problem.message, [problem]);
      if (!PROPOSING_STATUSES.includes(application.status)) {
        throw new InvalidApplicationStateError(`An application that is ${application.status} takes no meeting.`);
      }
      if ((await this.meetings.countLive(applicationId)) >= MAX_LIVE_MEETINGS) {
        throw new TooManyMeetingsError(MAX_LIVE_MEETINGS);
      }
      const meeting = await this.meetings.insert({
        id: newId('mtg'),
        applicationId,
        startsAt,
        endsAt,
        location: body.location ?? null,
      });
      await this.notifications.meetingsUpdated([meeting]);
      return toMeetingDto(meeting);
    });
  }

  /**
   * A party's step of a meeting (`MEETING_TRANSITIONS`). When the guarded UPDATE changes nothing, the
   * meeting as it is now says why: a stranger's (404), the other party's (403), the state already reached
   * (200, unchanged) or another state (409).
   */
  transition(
    operation: MeetingOperation,
    accountId: number,
    applicationId: string,
    meetingId: string,
  ): Promise<MeetingDto> {
    const transition = MEETING_TRANSITIONS[operation];
    return this.sql.transaction(async () => {
      const changed = await this.meetings.transition(applicationId, meetingId, accountId, transition);
      if (changed) {
        await this.notifications.meetingsUpdated([changed]);
        return toMeetingDto(changed);
      }
      const meeting = await this.meetings.find(applicationId, meetingId);
      const role = meeting && roleOf(meeting, accountId);
      if (!meeting || !role) throw new MeetingNotFoundError(meetingId);
      if (decideMeetingTransition(transition, meeting.status, role) === 'unchanged') return toMeetingDto(meeting);
      // Not reached: the UPDATE waited for any change of the row and judged its new state as this does.
      throw new InvalidApplicationStateError(`The meeting cannot be asked to ${operation} now.`);
    });
  }

  async list(accountId: number, applicationId: string, page: { offset: number; limit: number }): Promise<MeetingPage> {
    const application = await this.applications.findById(applicationId);
    if (!application || !roleOf(application, accountId)) throw new ApplicationNotFoundError(applicationId);
    const rows = await this.meetings.list(applicationId, page);
    const meetings = rows.slice(0, page.limit).map(toMeetingDto);
    return { meetings, nextOffset: rows.length > page.limit ? page.offset + page.limit : undefined };
  }

  /**
   * Cancels the proposed and accepted meetings of those applications that have become final, in the
   * transaction of that change, and tells both parties.
   */
  async cancelWithEnded(applications: readonly StoredApplication[]): Promise<void> {
    const ended = applications.filter((application) => !OPEN_APPLICATION_STATUSES.includes(application.status));
    const cancelled = await this.meetings.cancelLiveOf(ended.map((application) => application.id));
    await this.notifications.meetingsUpdated(cancelled);
  }
}
