import { EventsRecorder, type EventType, type NewEvent } from '@app/events';
import { Injectable } from '@nestjs/common';
import type { ApplicationRole } from './application-transitions';
import { toApplicationDto, toMessageDto } from './application-view';
import type { StoredApplicationMessage } from './application-messages.repository';
import type { StoredApplication } from './applications.repository';
import { toMeetingDto } from './meetings/meeting-view';
import type { StoredMeeting } from './meetings/meetings.repository';

const PARTIES: readonly ApplicationRole[] = ['applicant', 'lister'];

type Parties = Pick<StoredApplication, 'applicantAccountId' | 'listerAccountId'>;

const accountOf = (application: Parties, role: ApplicationRole) =>
  role === 'applicant' ? application.applicantAccountId : application.listerAccountId;

/**
 * Everyone the service tells of an application's changes, and how: each point is called inside the
 * transaction of its change, so that what it records commits with the change or not at all. Today the
 * events (to the feed and webhooks), each with the object as its recipient reads it.
 */
@Injectable()
export class ApplicationNotifications {
  constructor(private readonly events: EventsRecorder) {}

  /** A new application: `application.submitted` to the lister, and its first message if it has one. */
  async submitted(application: StoredApplication, message?: StoredApplicationMessage): Promise<void> {
    await this.events.recordAll([
      this.applicationEvent('application.submitted', application, 'lister'),
      ...(message ? [this.messageEvent(application, message)] : []),
    ]);
  }

  /** A change of state, by either party or the service: `application.updated` to both. */
  async updated(applications: readonly StoredApplication[]): Promise<void> {
    await this.events.recordAll(
      applications.flatMap((application) =>
        PARTIES.map((role) => this.applicationEvent('application.updated', application, role)),
      ),
    );
  }

  /** A message of the conversation: `application.message` to the party that did not send it. */
  async message(application: StoredApplication, message: StoredApplicationMessage): Promise<void> {
    await this.events.recordAll([this.messageEvent(application, message)]);
  }

  /** A meeting proposed, or a step of it (the service's cancellations included): `meeting.updated` to both. */
  async meetingsUpdated(meetings: readonly StoredMeeting[]): Promise<void> {
    await this.events.recordAll(meetings.flatMap((meeting) => this.meetingEvents('meeting.updated', meeting)));
  }

  /** An accepted meeting's reminder, 24 hours before it starts: `meeting.reminder` to both. */
  async meetingReminders(meetings: readonly StoredMeeting[]): Promise<void> {
    await this.events.recordAll(meetings.flatMap((meeting) => this.meetingEvents('meeting.reminder', meeting)));
  }

  private meetingEvents(type: EventType, meeting: StoredMeeting): NewEvent[] {
    const object = toMeetingDto(meeting);
    // A reminder happens when it is sent; a change, when the meeting changed.
    const createdAt = type === 'meeting.updated' ? object.updatedAt : undefined;
    return PARTIES.map((role) => ({ recipientAccountId: accountOf(meeting, role), type, object, createdAt }));
  }

  private applicationEvent(type: EventType, application: StoredApplication, role: ApplicationRole): NewEvent {
    const object = toApplicationDto(application, role);
    return { recipientAccountId: accountOf(application, role), type, object, createdAt: object.updatedAt };
  }

  private messageEvent(application: StoredApplication, message: StoredApplicationMessage): NewEvent {
    const object = toMessageDto(message);
    const recipient = message.sender === 'applicant' ? 'lister' : 'applicant';
    return {
      recipientAccountId: accountOf(application, recipient),
      type: 'application.message',
      object,
      createdAt: object.createdAt,
    };
  }
}
