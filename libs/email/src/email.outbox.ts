import { randomBytes } from 'node:crypto';
import { canonicalEmail } from '@app/core';
import { Sql } from '@app/database';
import { Injectable } from '@nestjs/common';
import { type EmailList, listKey } from './email-lists';
import { EmailRepository } from './email.repository';
import type { EmailTemplateData, EmailTemplateName } from './templates/email-templates';

/** `eml_` and 24 base64url characters (144 bits from the CSPRNG): a notification's id and its Message-ID's. */
function newNotificationId(): string {
  return `eml_${randomBytes(18).toString('base64url')}`;
}

/** One email to write to the outbox: to whom, the list it belongs to, and what it says. */
export interface EmailNotification<Name extends EmailTemplateName = EmailTemplateName> {
  to: string;
  list: EmailList;
  template: Name;
  data: EmailTemplateData<Name>;
  /**
   * The account that gave the address (its own email, its form's `notifyEmail`, an application's contact):
   * the email is then part of that account's personal data, exported and erased with it.
   */
  accountId?: number;
}

/**
 * The one way a context sends email. A notification is written on the caller's transaction, as events
 * are (`EventsRecorder`), so it is sent if and only if its change commits; the worker delivers it within
 * seconds, unless its address is suppressed or left its list by then. Whether the recipient agreed to be
 * emailed (an application's consent, a search's email alerts) is the caller's to decide.
 */
@Injectable()
export class EmailOutbox {
  constructor(
    private readonly sql: Sql,
    private readonly emails: EmailRepository,
  ) {}

  /**
   * The notifications' ids, in their order. Throws outside `sql.transaction`: an email alone could tell of
   * a change that never committed.
   */
  async enqueue(notifications: readonly EmailNotification[]): Promise<string[]> {
    if (!this.sql.inTransaction) throw new Error('emails are enqueued inside the transaction of their change');
    if (notifications.length === 0) return [];
    const ids = notifications.map(() => newNotificationId());
    await this.emails.insert(
      notifications.map((notification, index) => ({
        id: ids[index]!,
        address: notification.to,
        addressKey: canonicalEmail(notification.to),
        list: listKey(notification.list),
        template: notification.template,
        data: notification.data,
        accountId: notification.accountId ?? null,
      })),
    );
    return ids;
  }

  /**
   * Each recipient asked for its list again (consent given, email alerts turned on): a permanent refusal of
   * its address is forgotten, and so is its leaving of that list.
   */
  async askAgain(requests: readonly { address: string; list: EmailList }[]): Promise<void> {
    if (requests.length === 0) return;
    await this.emails.askAgain(
      requests.map(({ address, list }) => ({ addressKey: canonicalEmail(address), list: listKey(list) })),
    );
  }
}
