import { EXPORT_PAGE_ROWS, exportedAs, PersonalDataPart, PersonalDataSection } from '@app/core';
import { Injectable } from '@nestjs/common';
import { AccountsRepository } from '../accounts.repository';
import { ApiKeysRepository } from '../api-keys/api-keys.repository';
import { AccountDto } from '../dto/account.dto';
import { ApiKeyDto } from '../dto/api-key.dto';

/**
 * The account and its keys. Its erasure deletes the keys (already revoked when the account was deleted);
 * the account's row stays, without its email, for what other parties hold to name.
 */
@Injectable()
export class AccountsPersonalData extends PersonalDataPart {
  readonly name = 'accounts';
  readonly tables = ['accounts', 'api_keys'];
  readonly sections: readonly PersonalDataSection[];

  constructor(
    accounts: AccountsRepository,
    private readonly keys: ApiKeysRepository,
  ) {
    super();
    this.sections = [
      {
        name: 'account',
        single: true,
        async *records(accountId) {
          const account = await accounts.findById(accountId);
          if (account) yield AccountDto.from(account);
        },
      },
      {
        name: 'apiKeys',
        records: (accountId) => exportedAs(keys.exported(accountId, EXPORT_PAGE_ROWS), ApiKeyDto.from),
      },
    ];
  }

  async erase(accountId: number, batchLimit: number): Promise<boolean> {
    return (await this.keys.deleteSome(accountId, batchLimit)) === batchLimit;
  }
}
