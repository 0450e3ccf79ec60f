import { EXPORT_PAGE_ROWS, PersonalDataPart, PersonalDataSection } from '@app/core';
import { Injectable } from '@nestjs/common';
import { ApplicationFormsRepository } from './application-forms.repository';
import { toFormDto } from './application-forms.service';
import { ApplicationMessagesRepository } from './application-messages.repository';
import { roleOf, toApplicationDto, toMessageDto } from './application-view';
import { ApplicationsRepository } from './applications.repository';
import { ApplicationsService } from './applications.service';
import { toMeetingDto } from './meetings/meeting-view';
import { MeetingsRepository } from './meetings/meetings.repository';

/** Each of an iterable's items, collected: one application's messages or meetings, a page at a time. */
async function all<T>(items: AsyncIterable<T>): Promise<T[]> {
  const collected: T[] = [];
  for await (const item of items) collected.push(item);
  return collected;
}

/**
 * The account's application form and the applications it made or received, each with its messages and
 * meetings, as the account reads them (the applicant's contact only where a lister may see it). Its erasure
 * runs before the orders' (`erasedAfter` there): its open applications as applicant are withdrawn as their
 * withdrawal does, cancelling an approved one's order; then its contact, answers and own messages are
 * erased by the retention's own statement, its messages in the applications it received too (their
 * applicant's contact and answers stay), and its form is deleted. The applications it received and that
 * are still open are closed with its pets (`pet_removed`), or with their order (`order_cancelled`).
 */
@Injectable()
export class ApplicationsPersonalData extends PersonalDataPart {
  readonly name = 'applications';
  readonly tables = ['application_forms', 'applications', 'application_messages', 'meetings'];
  readonly sections: readonly PersonalDataSection[];

  constructor(
    private readonly applications: ApplicationsRepository,
    private readonly forms: ApplicationFormsRepository,
    private readonly service: ApplicationsService,
    messages: ApplicationMessagesRepository,
    meetings: MeetingsRepository,
  ) {
    super();
    this.sections = [
      {
        name: 'applicationForm',
        single: true,
        records: async function* (accountId) {
          const form = await forms.find(accountId);
          if (form) yield toFormDto(form);
        },
      },
      {
        name: 'applications',
        records: async function* (accountId) {
          for await (const application of applications.exported(accountId, EXPORT_PAGE_ROWS)) {
            yield {
              ...toApplicationDto(application, roleOf(application, accountId)!),
              messages: (await all(messages.exported(application.id, EXPORT_PAGE_ROWS))).map(toMessageDto),
              meetings: (await all(meetings.exported(application.id, EXPORT_PAGE_ROWS))).map(toMeetingDto),
            };
          }
        },
      },
    ];
  }

  async erase(accountId: number, batchLimit: number): Promise<boolean> {
    if ((await this.service.withdrawOpenOf(accountId, batchLimit)) === batchLimit) return true;
    for (const role of ['applicant', 'lister'] as const) {
      const ids = await this.applications.findWithDataOf(accountId, role, batchLimit);
      await this.applications.erasePersonalData(ids, role);
      if (ids.length === batchLimit) return true;
    }
    await this.forms.delete(accountId);
    return false;
  }
}
