import { Sql, WriteBatcher } from '@app/database';
import { Injectable } from '@nestjs/common';
import { newId } from './application-ids';
import { ApplicationMessagesRepository } from './application-messages.repository';
import { ApplicationNotifications } from './application-notifications';
import { ApplicationsRepository, NewApplication, Submission } from './applications.repository';
import { ApplicationsSettings } from './applications.settings';

/** A submission checked against its pet and its lister's form, to be written. */
export interface PendingSubmission {
  application: NewApplication;
  petName: string;
  /** The applicant's first message. */
  message?: string;
  /** The lister form's address for its staff, when set. */
  notifyEmail?: string;
}

/**
 * Writes the submissions that arrive close together in one transaction, with the same few statements for them
 * all (the contact emails' locks, the applications, their first messages, their events and emails), as pets
 * created together are: a submission costs about what a creation does. Each gets its own application back,
 * or why it was refused.
 */
@Injectable()
export class ApplicationSubmissions {
  private readonly writes = new WriteBatcher<PendingSubmission, Submission>((batch) => this.write(batch));

  constructor(
    private readonly sql: Sql,
    private readonly applications: ApplicationsRepository,
    private readonly messages: ApplicationMessagesRepository,
    private readonly notifications: ApplicationNotifications,
    private readonly settings: ApplicationsSettings,
  ) {}

  submit(pending: PendingSubmission): Promise<Submission> {
    return this.sql.batched(this.writes, pending);
  }

  private write(batch: PendingSubmission[]): Promise<Submission[]> {
    return this.sql.transaction(async () => {
      const submissions = await this.applications.insertAll(
        batch.map(({ application }) => application),
        this.settings.APPLICATIONS_MAX_OPEN_PER_APPLICANT,
      );
      const submitted = batch.flatMap((pending, index) => {
        const application = submissions[index]!;
        return typeof application === 'string' ? [] : [{ ...pending, application }];
      });
      const messages = await this.messages.insertAll(
        submitted.flatMap(({ application, message }) =>
          message === undefined
            ? []
            : [{ id: newId('amsg'), applicationId: application.id, sender: 'applicant', body: message }],
        ),
      );
      const firstMessage = new Map(messages.map((message) => [message.applicationId, message]));
      await this.notifications.submitted(
        submitted.map(({ application, petName, notifyEmail }) => ({
          application,
          petName,
          message: firstMessage.get(application.id),
          notifyEmail,
        })),
      );
      return submissions;
    });
  }
}
