import { EXPORT_PAGE_ROWS, PersonalDataPart, PersonalDataSection } from '@app/core';
import { EventsModule } from '@app/events';
import { Injectable, Module } from '@nestjs/common';
import { MessagesRepository } from './messages.repository';

/** The messages an account sent; its erasure deletes them. */
@Injectable()
class MessagingPersonalData extends PersonalDataPart {
  readonly name = 'messaging';
  readonly tables = ['messages'];
  readonly sections: readonly PersonalDataSection[];

  constructor(private readonly messages: MessagesRepository) {
    super();
    this.sections = [{ name: 'messages', records: (accountId) => messages.exported(accountId, EXPORT_PAGE_ROWS) }];
  }

  async erase(accountId: number, batchLimit: number): Promise<boolean> {
    return (await this.messages.deleteSome(accountId, batchLimit)) === batchLimit;
  }
}

/**
 * The messages' table and its part of personal data: imported by the messaging module, and by the api, which
 * exports and erases an account's messages though it serves none.
 */
@Module({
  imports: [EventsModule],
  providers: [MessagesRepository, MessagingPersonalData],
  exports: [MessagesRepository],
})
export class MessagingPersonalDataModule {}
