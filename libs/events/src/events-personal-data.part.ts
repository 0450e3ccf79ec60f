import { EXPORT_PAGE_ROWS, exportedAs, PersonalDataPart, PersonalDataSection } from '@app/core';
import { Injectable } from '@nestjs/common';
import { WebhookEndpointDto } from './dto/webhook-endpoint.dto';
import { EventsRepository } from './events.repository';
import { WebhookEndpointsRepository } from './webhooks/webhook-endpoints.repository';

/** The export's events: those of the last 30 days, as the feed shows them. */
const EXPORTED_EVENT_DAYS = 30;

/**
 * An account's events (its alerts among them) and webhook endpoints (never their secrets). Erased last, after
 * the parts whose erasure records events for the account.
 */
@Injectable()
export class EventsPersonalData extends PersonalDataPart {
  readonly name = 'events';
  readonly tables = ['events', 'saved_search_alerts', 'webhook_endpoints'];
  override readonly erasedAfter = ['orders', 'pets', 'organizations'];
  readonly sections: readonly PersonalDataSection[];

  constructor(
    private readonly events: EventsRepository,
    private readonly endpoints: WebhookEndpointsRepository,
  ) {
    super();
    this.sections = [
      {
        name: 'events',
        records: (accountId) => events.exported(accountId, EXPORTED_EVENT_DAYS, EXPORT_PAGE_ROWS),
      },
      {
        name: 'webhookEndpoints',
        records: (accountId) => exportedAs(endpoints.exported(accountId, EXPORT_PAGE_ROWS), WebhookEndpointDto.from),
      },
    ];
  }

  async erase(accountId: number, batchLimit: number): Promise<boolean> {
    if ((await this.endpoints.deleteSome(accountId, batchLimit)) === batchLimit) return true;
    return (await this.events.deleteSomeOf(accountId, batchLimit)) >= batchLimit;
  }
}
