import { canonicalEmail, ValidationFailedError } from '@app/core';
import { Sql } from '@app/database';
import { Injectable } from '@nestjs/common';
import { AccountEvents } from '../account-events';
import { AccountNotFoundError } from '../accounts.errors';
import { Account, AccountsRepository } from '../accounts.repository';
import { ApiKeysRepository } from '../api-keys/api-keys.repository';
import { AccountErasureProducer } from './account-erasure.queue';

/** Whether `confirm` is the account's email, compared as sign-ups compare them. */
function confirms(account: Account, confirm: string): boolean {
  return account.emailCanonical === null
    ? confirm === account.email
    : canonicalEmail(confirm) === account.emailCanonical;
}

/** `DELETE /v1/account`: what happens before the `202`; the worker's `AccountErasure` does the rest. */
@Injectable()
export class AccountDeletion {
  constructor(
    private readonly sql: Sql,
    private readonly accounts: AccountsRepository,
    private readonly keys: ApiKeysRepository,
    private readonly events: AccountEvents,
    private readonly erasures: AccountErasureProducer,
  ) {}

  /**
   * Deletes the account, its email and every key in one transaction, then has every process drop the keys
   * from its cache before it answers (the very next request with any of them is refused), and queues the
   * erasure of the rest.
   */
  async delete(accountId: number, confirm: string): Promise<void> {
    const account = await this.accounts.findById(accountId);
    if (!account) throw new AccountNotFoundError(String(accountId));
    if (!confirms(account, confirm)) {
      throw new ValidationFailedError('confirm must be the account’s email, to delete the account', [
        { field: 'confirm', message: 'must be the account’s email' },
      ]);
    }
    await this.sql.transaction(async () => {
      await this.accounts.markDeleted(accountId);
      await this.keys.revokeAll(accountId);
    });
    await this.events.announce({ type: 'account-changed', accountId });
    // The answer does not wait for Redis: an erasure whose job is late or lost is the reconciler's.
    void this.erasures.enqueue([accountId]);
  }
}
