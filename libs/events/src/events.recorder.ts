import { randomBytes } from 'node:crypto';
import { Sql, type SqlFragment } from '@app/database';
import { Injectable } from '@nestjs/common';
import type { EventType } from './event-types';
import { EventsRepository, NewEvent, SharingEvent } from './events.repository';

const ID_BYTES = 18;

/** `evt_` and 24 base64url characters (144 bits from the CSPRNG): ids never collide. */
export function newEventId(): string {
  return newEventIds(1)[0]!;
}

/** `count` of newEventId's ids from one draw of the CSPRNG: a draw per id cost more than the id's row. */
export function newEventIds(count: number): string[] {
  const bytes = randomBytes(ID_BYTES * count);
  return Array.from(
    { length: count },
    (_, index) => `evt_${bytes.subarray(ID_BYTES * index, ID_BYTES * (index + 1)).toString('base64url')}`,
  );
}

/**
 * The one way a context emits events. The rows are inserted on the caller's transaction, so an event
 * commits with its change or not at all; the worker's dispatcher delivers them afterwards.
 */
@Injectable()
export class EventsRecorder {
  constructor(
    private readonly sql: Sql,
    private readonly events: EventsRepository,
  ) {}

  /** Every event with one INSERT. Throws outside `sql.transaction`: an event alone could outlive its change. */
  async recordAll(events: readonly NewEvent[]): Promise<void> {
    this.assertInTransaction();
    if (events.length === 0) return;
    await this.events.insert(newEventIds(events.length), events);
  }

  /**
   * The events of a change that one statement makes, as a data-modifying CTE to join to that statement
   * (`WITH …, recorded AS (${events.recordedBy(rows)}) …`): they commit with the change, as `recordAll`'s do,
   * with no transaction and no round trip of their own. `rows` selects each event's `id` (`newEventId`),
   * `account_id`, `type`, `object` and `created_at`.
   */
  recordedBy(rows: SqlFragment): SqlFragment {
    return this.events.insertFrom(rows);
  }

  /**
   * The `saved_search.matched` alerts of a statement, as a data-modifying CTE like `recordedBy`'s: `rows`
   * selects each alert's `account_id`, `change_id` (the pet event whose object is its pet) and
   * `saved_search_id`, for recipients none of whose endpoints subscribes (`subscribedRecipients`); each is a
   * `saved_search_alerts` row, its pet read from its change's event when the feed reads it.
   */
  alertsRecordedBy(rows: SqlFragment): SqlFragment {
    return this.events.insertAlertsFrom(rows);
  }

  /** Of the accounts `accountIds` selects, those with an enabled endpoint subscribed to `type` (a SELECT). */
  subscribedRecipients(type: EventType, accountIds: SqlFragment): SqlFragment {
    return this.events.subscribedRecipients(type, accountIds);
  }

  /**
   * Many events of one type about a few objects (a pet's alerts to hundreds of saved searches), with one
   * INSERT that sends each object once. Throws outside `sql.transaction`, as recordAll.
   */
  async recordSharing(type: EventType, shared: readonly object[], events: readonly SharingEvent[]): Promise<void> {
    this.assertInTransaction();
    if (events.length === 0) return;
    await this.events.insertSharing(newEventIds(events.length), type, shared, events);
  }

  private assertInTransaction(): void {
    if (!this.sql.inTransaction) throw new Error('events are recorded inside the transaction of their change');
  }
}
