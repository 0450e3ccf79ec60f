import { EXPORT_PAGE_ROWS, exportedAs, PersonalDataPart, PersonalDataSection } from '@app/core';
import { Injectable } from '@nestjs/common';
import { roleOf, toOrderDto } from './order-view';
import { OrdersRepository } from './orders.repository';
import { OrdersService } from './orders.service';

/**
 * The orders an account placed or received. Its erasure cancels the open ones (`account_deleted`), freeing
 * their pets and closing their applications, then erases the account's own words from those the other party keeps: the order stays theirs.
 */
@Injectable()
export class OrdersPersonalData extends PersonalDataPart {
  readonly name = 'orders';
  readonly tables = ['orders'];
  /** An application the account withdraws cancels its own order (`application_withdrawn`) first. */
  override readonly erasedAfter = ['applications'];
  readonly sections: readonly PersonalDataSection[];

  constructor(
    private readonly orders: OrdersRepository,
    private readonly service: OrdersService,
  ) {
    super();
    this.sections = [
      {
        name: 'orders',
        records: (accountId) =>
          exportedAs(orders.exported(accountId, EXPORT_PAGE_ROWS), (order) =>
            toOrderDto(order, roleOf(order, accountId)!),
          ),
      },
    ];
  }

  async erase(accountId: number, batchLimit: number): Promise<boolean> {
    if ((await this.service.cancelOpenOf(accountId, batchLimit)) === batchLimit) return true;
    return (await this.orders.eraseWordsOf(accountId, batchLimit)) === batchLimit;
  }
}
