import { EXPORT_PAGE_ROWS, PersonalDataPart, PersonalDataSection } from '@app/core';
import { Injectable } from '@nestjs/common';
import { IdempotencyKeysRepository } from './idempotency-keys.repository';

/** The `Idempotency-Key`s an account sent in the last 24 hours; its erasure deletes them with their answers. */
@Injectable()
export class IdempotencyPersonalData extends PersonalDataPart {
  readonly name = 'idempotency';
  readonly tables = ['idempotency_keys'];
  readonly sections: readonly PersonalDataSection[];

  constructor(private readonly keys: IdempotencyKeysRepository) {
    super();
    this.sections = [{ name: 'idempotencyKeys', records: (accountId) => keys.exported(accountId, EXPORT_PAGE_ROWS) }];
  }

  async erase(accountId: number, batchLimit: number): Promise<boolean> {
    return (await this.keys.deleteSome(accountId, batchLimit)) === batchLimit;
  }
}
