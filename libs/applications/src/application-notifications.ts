import { EventsRecorder, type EventType, type NewEvent } from '@app/events';
import { Injectable } from '@nestjs/common';
import type { ApplicationRole } from './application-transitions';
import { toApplicationDto, toMessageDto } from './application-view';
import type { StoredApplicationMessage } from './application-messages.repository';
import type { StoredApplication } from './applications.repository';

const PARTIES: readonly ApplicationRole[] = ['applicant', 'lister'];

const accountOf = (application: StoredApplication, role: ApplicationRole) =>
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
