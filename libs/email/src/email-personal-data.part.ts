import { EXPORT_PAGE_ROWS, exportedAs, PersonalDataPart, PersonalDataSection } from '@app/core';
import { Injectable } from '@nestjs/common';
import { EmailRepository } from './email.repository';

/**
 * The email sent, or still to send, to addresses the account gave (its own email, its form's `notifyEmail`,
 * its applications' contact): its export shows each, its erasure deletes them, so that one still pending
 * is never sent. The refusals of an address (a suppression, a list it left) stay: they hold only the
 * address, and keep the person from being emailed again.
 */
@Injectable()
export class EmailPersonalData extends PersonalDataPart {
  readonly name = 'email';
  readonly tables = ['email_notifications'];
  readonly sections: readonly PersonalDataSection[];

  constructor(private readonly emails: EmailRepository) {
    super();
    this.sections = [
      {
        name: 'emails',
        records: (accountId) =>
          exportedAs(emails.ofAccount(accountId, EXPORT_PAGE_ROWS), (email) => ({
            id: email.id,
            to: email.address,
            list: email.list,
            template: email.template,
            data: email.data,
            status: email.status,
            createdAt: email.createdAt.toISOString(),
            ...(email.finishedAt && { finishedAt: email.finishedAt.toISOString() }),
          })),
      },
    ];
  }

  async erase(accountId: number, batchLimit: number): Promise<boolean> {
    return (await this.emails.deleteOfAccount(accountId, batchLimit)) === batchLimit;
  }
}
