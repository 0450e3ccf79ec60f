import { type EmailNotification, EmailOutbox } from '@app/email';
import { EventsRecorder, type EventType, type NewEvent } from '@app/events';
import { Injectable } from '@nestjs/common';
import { ApplicationFormsRepository } from './application-forms.repository';
import type { ApplicationRole } from './application-transitions';
import { toApplicationDto, toMessageDto } from './application-view';
import type { StoredApplicationMessage } from './application-messages.repository';
import { ApplicationsRepository, type StoredApplication } from './applications.repository';
import { toMeetingDto } from './meetings/meeting-view';
import type { StoredMeeting } from './meetings/meetings.repository';

const PARTIES: readonly ApplicationRole[] = ['applicant', 'lister'];

/** A new application as its submission left it, with what its notifications name. */
export interface SubmittedApplication {
  application: StoredApplication;
  petName: string;
  message?: StoredApplicationMessage;
  /** The lister form's address for its staff, when set. */
  notifyEmail?: string;
}

type Parties = Pick<StoredApplication, 'applicantAccountId' | 'listerAccountId'>;

/** The applicant's address when it consented to email (none once retention erased the contact). */
const applicantAddress = (application: StoredApplication): string | undefined =>
  application.emailConsent ? application.contact?.email : undefined;

const applicationList = (application: StoredApplication) => ({ kind: 'application' as const, id: application.id });

const listerList = (application: StoredApplication) => ({
  kind: 'lister' as const,
  accountId: application.listerAccountId,
});

/**
 * An email's list and whose personal data it is, which the account's erasure finds it by: the applicant's contact
 * address is the applicant's, the form's `notifyEmail` the lister's.
 */
const toApplicant = (application: StoredApplication) => ({
  list: applicationList(application),
  accountId: application.applicantAccountId,
});
const toLister = (application: StoredApplication) => ({
  list: listerList(application),
  accountId: application.listerAccountId,
});

const about = (application: StoredApplication, petName?: string) => ({
  applicationId: application.id,
  petId: application.petId,
  ...(petName !== undefined && { petName }),
});

const accountOf = (application: Parties, role: ApplicationRole) =>
  role === 'applicant' ? application.applicantAccountId : application.listerAccountId;

/**
 * Everyone the service tells of an application's changes, and how: each point is called inside the
 * transaction of its change, so that what it records commits with the change or not at all. The events
 * (to the feed and webhooks), each with the object as its recipient reads it; and the emails: to the
 * applicant's contact when it consented (changes of state, the lister's messages, meetings), and to the
 * lister form's `notifyEmail` when set (new applications, the applicant's messages).
 */
@Injectable()
export class ApplicationNotifications {
  constructor(
    private readonly events: EventsRecorder,
    private readonly emails: EmailOutbox,
    private readonly forms: ApplicationFormsRepository,
    private readonly applications: ApplicationsRepository,
  ) {}

  /**
   * New applications: `application.submitted` to each lister, and each first message. With consent, a contact
   * asks again for email: an earlier refusal of that address is lifted.
   */
  async submitted(submissions: readonly SubmittedApplication[]): Promise<void> {
    await this.events.recordAll(
      submissions.flatMap(({ application, message }) => [
        this.applicationEvent('application.submitted', application, 'lister'),
        ...(message ? [this.messageEvent(application, message)] : []),
      ]),
    );
    await this.emails.askAgain(
      submissions.flatMap(({ application }) => {
        const address = applicantAddress(application);
        return address === undefined ? [] : [{ address, list: applicationList(application) }];
      }),
    );
    await this.emails.enqueue(
      submissions.flatMap(({ application, petName, message, notifyEmail }) => [
        ...this.statusEmails([application], petName),
        ...(notifyEmail === undefined
          ? []
          : [
              {
                to: notifyEmail,
                ...toLister(application),
                template: 'lister_new_application' as const,
                data: { ...about(application, petName), ...(message?.body && { message: message.body }) },
              },
            ]),
      ]),
    );
  }

  /** A change of state, by either party or the service: `application.updated` to both. */
  async updated(applications: readonly StoredApplication[]): Promise<void> {
    await this.events.recordAll(
      applications.flatMap((application) =>
        PARTIES.map((role) => this.applicationEvent('application.updated', application, role)),
      ),
    );
    await this.emails.enqueue(this.statusEmails(applications));
  }

  /** A message of the conversation: `application.message` to the party that did not send it. */
  async message(application: StoredApplication, message: StoredApplicationMessage): Promise<void> {
    await this.events.recordAll([this.messageEvent(application, message)]);
    if (message.body === null) return; // erased: never so when it was just sent
    const data = { ...about(application), messageId: message.id, body: message.body };
    if (message.sender === 'lister') {
      const to = applicantAddress(application);
      if (to === undefined) return;
      await this.emails.enqueue([{ to, ...toApplicant(application), template: 'application_message', data }]);
      return;
    }
    const to = await this.notifyEmail(application);
    if (to === undefined) return;
    // The applicant's contact is the lister's once the application is past `submitted`.
    const contact = application.status === 'submitted' ? undefined : (application.contact ?? undefined);
    await this.emails.enqueue([
      { to, ...toLister(application), template: 'lister_message', data: { ...data, ...(contact && { contact }) } },
    ]);
  }

  /** A meeting proposed, or a step of it (the service's cancellations included): `meeting.updated` to both. */
  async meetingsUpdated(meetings: readonly StoredMeeting[]): Promise<void> {
    await this.events.recordAll(meetings.flatMap((meeting) => this.meetingEvents('meeting.updated', meeting)));
    await this.emails.enqueue(await this.meetingEmails(meetings, false));
  }

  /** An accepted meeting's reminder, 24 hours before it starts: `meeting.reminder` to both. */
  async meetingReminders(meetings: readonly StoredMeeting[]): Promise<void> {
    await this.events.recordAll(meetings.flatMap((meeting) => this.meetingEvents('meeting.reminder', meeting)));
    await this.emails.enqueue(await this.meetingEmails(meetings, true));
  }

  private statusEmails(applications: readonly StoredApplication[], petName?: string): EmailNotification[] {
    return applications.flatMap((application) => {
      const to = applicantAddress(application);
      if (to === undefined) return [];
      const data = {
        ...about(application, petName),
        status: application.status,
        ...(application.closedReason !== null && { closedReason: application.closedReason }),
      };
      return [{ to, ...toApplicant(application), template: 'application_status' as const, data }];
    });
  }

  private async meetingEmails(meetings: readonly StoredMeeting[], reminder: boolean): Promise<EmailNotification[]> {
    const applications = new Map<string, StoredApplication | undefined>();
    for (const { applicationId } of meetings) {
      if (!applications.has(applicationId)) {
        applications.set(applicationId, await this.applications.findById(applicationId));
      }
    }
    return meetings.flatMap((meeting) => {
      const application = applications.get(meeting.applicationId);
      const to = application && applicantAddress(application);
      if (!application || to === undefined) return [];
      const data = {
        ...about(application),
        meetingId: meeting.id,
        status: meeting.status,
        startsAt: meeting.startsAt.toISOString(),
        endsAt: meeting.endsAt.toISOString(),
        ...(meeting.location !== null && { location: meeting.location }),
        reminder,
      };
      return [{ to, ...toApplicant(application), template: 'meeting' as const, data }];
    });
  }

  private async notifyEmail(application: StoredApplication): Promise<string | undefined> {
    return (await this.forms.find(application.listerAccountId))?.notifyEmail ?? undefined;
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
