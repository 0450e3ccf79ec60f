import { canonicalEmail } from '@app/core';
import { Injectable } from '@nestjs/common';
import { type AddressStops, EmailRepository, type StoredNotification } from './email.repository';

/** What an operator reads of an address: the latest emails to it and what stops further ones. */
export interface AddressReport extends AddressStops {
  address: string;
  emails: Array<
    Pick<
      StoredNotification,
      'id' | 'list' | 'template' | 'status' | 'attempts' | 'lastError' | 'createdAt' | 'finishedAt'
    >
  >;
}

/** The operator's view of an address (the CLI's `email-history`). */
@Injectable()
export class EmailReports {
  constructor(private readonly emails: EmailRepository) {}

  async of(address: string, limit: number): Promise<AddressReport> {
    const key = canonicalEmail(address);
    const [emails, stops] = await Promise.all([this.emails.history(key, limit), this.emails.stops(key)]);
    return {
      address: key,
      ...stops,
      emails: emails.map(({ id, list, template, status, attempts, lastError, createdAt, finishedAt }) => ({
        id,
        list,
        template,
        status,
        attempts,
        lastError,
        createdAt,
        finishedAt,
      })),
    };
  }
}
