import { exportedAs } from '@app/core';
import { GenerateSql, sql, Sql, type SqlFragment } from '@app/database';
import { Injectable } from '@nestjs/common';
import type { EventDto } from './dto/event.dto';
import { subscribesInSql, type EventType } from './event-types';
import type { PetChangeEvent, PetChangeFeed } from './pet-change-feed';

/** An event to record: who receives it, what happened, and the resource right after the change. */
export interface NewEvent {
  recipientAccountId: number;
  type: EventType;
  object: object;
  /**
   * When the change happened, ISO 8601: the changed object's own time (its `updatedAt`), drawn once in the
   * transaction, so that the event and its object agree to the millisecond. The insert's time when absent.
   */
  createdAt?: string;
}

/** An event of many about a few objects: its object is `shared[shared]` with the members of `own` added. */
export interface SharingEvent {
  recipientAccountId: number;
  shared: number;
  own: object;
}

export interface EventRow {
  id: string;
  seq: string;
  type: EventType;
  object: Record<string, unknown>;
  created_at: Date;
}

const COLUMNS = sql`id, seq, type, object, created_at`;

/**
 * A `saved_search.matched` event stored as a `saved_search_alerts` row (a recipient without a subscribed
 * endpoint: docs/adr/0066-saved-search-alerts.md) has no id of its own: its id is `evt_alert` and its `seq`
 * in 19 digits, in the format of every event id, read back by `alertSeq`. Ids drawn at random are
 * base64url: one of this form is a chance of one in 10^23.
 */
const ALERT_ID = /^evt_alert(\d{19})$/;
const alertId = (seq: SqlFragment) => sql`'evt_alert' || lpad(${seq}::text, 19, '0')`;
/** Nineteen digits go past a bigint: such an id is no alert's (PostgreSQL would refuse it as `seq`). */
const MAX_SEQ = 2n ** 63n - 1n;

/** The `seq` of the alert whose id is `id`; undefined when `id` is not an alert's. */
function alertSeq(id: string): string | undefined {
  const seq = ALERT_ID.exec(id)?.[1];
  return seq !== undefined && BigInt(seq) <= MAX_SEQ ? seq : undefined;
}

/** The columns of COLUMNS for the alert `a`, its pet read from its change's event `change`. */
const ALERT_COLUMNS = sql`${alertId(sql`a.seq`)} AS id, a.seq, 'saved_search.matched'::text AS type,
  jsonb_build_object('pet', change.object, 'savedSearchId', a.saved_search_id) AS object, a.created_at`;

/** An event as clients and endpoints receive it, from its row. */
export function toEvent(row: Omit<EventRow, 'seq'>): EventDto {
  return { id: row.id, type: row.type, createdAt: row.created_at.toISOString(), data: { object: row.object } };
}

export interface EventPage {
  events: EventDto[];
  /** Position of the last event returned, when older ones follow. */
  lastSeq?: number;
}

/** An event the dispatcher has claimed: its recipient and type decide which endpoints it goes to. */
export interface UndispatchedEvent {
  accountId: number;
  event: EventDto;
}

/** The `events` table: the outbox the dispatcher reads and each account's feed. */
@Injectable()
export class EventsRepository implements PetChangeFeed {
  constructor(private readonly sql: Sql) {}

  /** One INSERT for all of them, on the caller's transaction. */
  @GenerateSql({ params: [['evt_1'], [{ recipientAccountId: 1, type: 'pet.created', object: {} }]] })
  async insert(ids: string[], events: readonly NewEvent[]): Promise<void> {
    const accountIds = events.map((event) => event.recipientAccountId);
    const types = events.map((event) => event.type);
    const objects = events.map((event) => JSON.stringify(event.object));
    const times = events.map((event) => event.createdAt ?? null);
    await this.sql.query(
      sql`INSERT INTO events (id, account_id, type, object, created_at)
          SELECT id, account_id, type, object::jsonb, coalesce(created_at, now())
            FROM unnest(${ids}::text[], ${accountIds}::bigint[], ${types}::text[], ${objects}::text[],
                        ${times}::timestamptz[]) AS t (id, account_id, type, object, created_at)`,
    );
  }

  /**
   * An INSERT of the events that `rows` selects (`id, account_id, type, object, created_at`), to run as a
   * data-modifying CTE of the statement whose change they record.
   */
  insertFrom(rows: SqlFragment): SqlFragment {
    return sql`INSERT INTO events (id, account_id, type, object, created_at)
               SELECT id, account_id, type, object, created_at FROM (${rows}) AS e`;
  }

  /**
   * One INSERT for all of them, each shared object sent once; on the caller's transaction. An event whose
   * recipient has no enabled endpoint subscribed to its type is recorded dispatched, as the dispatcher would
   * mark it: an event type recorded by the hundred per change, for accounts few of which have endpoints, is
   * not claimed and updated again for nothing.
   */
  @GenerateSql({
    params: [
      ['evt_1', 'evt_2'],
      'saved_search.matched',
      [{ pet: { id: 1 } }],
      [
        { recipientAccountId: 1, shared: 0, own: { savedSearchId: 'srch_1' } },
        { recipientAccountId: 2, shared: 0, own: { savedSearchId: 'srch_2' } },
      ],
    ],
  })
  async insertSharing(
    ids: string[],
    type: EventType,
    shared: readonly object[],
    events: readonly SharingEvent[],
  ): Promise<void> {
    const recipients = events.map((event) => event.recipientAccountId);
    // The recipients with a subscribed endpoint, looked up once for the batch (a hashed subplan).
    const subscribed = this.subscribedRecipients(type, sql`SELECT unnest(${recipients}::bigint[])`);
    await this.sql.query(
      sql`INSERT INTO events (id, account_id, type, object, dispatched_at)
          SELECT e.id, e.account_id, ${type}, s.object || e.own::jsonb,
                 CASE WHEN e.account_id IN (${subscribed}) THEN NULL ELSE now() END
            FROM unnest(${ids}::text[], ${recipients}::bigint[],
                        ${events.map((event) => event.shared + 1)}::int[], ${events.map((event) => JSON.stringify(event.own))}::text[])
                 WITH ORDINALITY AS e (id, account_id, shared, own, n)
            JOIN unnest(${shared.map((object) => JSON.stringify(object))}::jsonb[]) WITH ORDINALITY AS s (object, n)
              ON s.n = e.shared
           ORDER BY e.n`,
    );
  }

  /**
   * Of the accounts `accountIds` selects, those with an enabled endpoint subscribed to `type`: a SELECT of
   * `account_id` to use in a statement that records such events.
   */
  subscribedRecipients(type: EventType, accountIds: SqlFragment): SqlFragment {
    return sql`SELECT w.account_id FROM webhook_endpoints w
                WHERE w.account_id IN (${accountIds}) AND w.enabled AND ${subscribesInSql(sql`w.event_types`, type)}`;
  }

  /**
   * An INSERT of the `saved_search.matched` alerts that `rows` selects (`account_id`, `change_id`: the pet
   * event whose object is the alert's pet, `saved_search_id`), one `saved_search_alerts` row each, to run
   * as a data-modifying CTE of the statement that finds them. Only for recipients without a subscribed
   * endpoint (`subscribedRecipients`): the dispatcher delivers `events` rows.
   */
  insertAlertsFrom(rows: SqlFragment): SqlFragment {
    return sql`INSERT INTO saved_search_alerts (account_id, change_id, saved_search_id)
               SELECT account_id, change_id, saved_search_id FROM (${rows}) AS a`;
  }

  /** An event the dispatcher is to skip: one that goes to an endpoint named by its recorder, not to subscribers. */
  @GenerateSql({ params: ['evt_1', { recipientAccountId: 1, type: 'webhook_endpoint.test', object: {} }] })
  async insertDispatched(id: string, event: NewEvent): Promise<EventDto> {
    const rows = await this.sql.rows<EventRow>(
      sql`INSERT INTO events (id, account_id, type, object, dispatched_at)
          VALUES (${id}, ${event.recipientAccountId}, ${event.type}, ${JSON.stringify(event.object)}, now())
          RETURNING ${COLUMNS}`,
    );
    return toEvent(rows[0]!);
  }

  @GenerateSql(
    { name: 'an event', params: [1, 'evt_1'] },
    { name: 'an alert', params: [1, 'evt_alert0000000000000000042'] },
  )
  async findOne(accountId: number, id: string): Promise<EventDto | undefined> {
    const seq = alertSeq(id);
    // An alert redelivered has become an events row of the same id (materialiseAlert).
    const alert = seq
      ? sql`UNION ALL
            SELECT ${ALERT_COLUMNS} FROM saved_search_alerts a JOIN events change ON change.id = a.change_id
             WHERE a.account_id = ${accountId} AND a.seq = ${seq}`
      : sql``;
    const rows = await this.sql.rows<EventRow>(
      sql`SELECT ${COLUMNS} FROM events WHERE id = ${id} AND account_id = ${accountId} ${alert}`,
    );
    return rows[0] && toEvent(rows[0]);
  }

  /**
   * Makes the alert `id` of the account an `events` row of the same id, seq and object, marked dispatched,
   * so that webhook attempts (which name an `events` row) can be made of it: a redelivery. Nothing when it
   * is one already, or not the account's.
   */
  @GenerateSql({ params: [1, 'evt_alert0000000000000000042'] })
  async materialiseAlert(accountId: number, id: string): Promise<void> {
    const seq = alertSeq(id);
    if (!seq) return;
    await this.sql.query(
      sql`WITH moved AS (
            DELETE FROM saved_search_alerts a USING events change
             WHERE a.account_id = ${accountId} AND a.seq = ${seq} AND change.id = a.change_id
            RETURNING ${ALERT_COLUMNS}, a.account_id)
          INSERT INTO events (id, seq, account_id, type, object, created_at, dispatched_at)
          SELECT id, seq, account_id, type, object, created_at, now() FROM moved`,
    );
  }

  /** The account's events, newest first, keyset-paginated by `seq`. */
  @GenerateSql(
    { name: 'first page', params: [1, { limit: 20 }] },
    { name: 'of a type', params: [1, { limit: 20, type: 'pet.created' }] },
    { name: 'alerts', params: [1, { limit: 20, type: 'saved_search.matched' }] },
    { name: 'next page', params: [1, { limit: 20, beforeSeq: 100 }] },
    { name: 'next page of a type', params: [1, { limit: 20, type: 'pet.created', beforeSeq: 100 }] },
  )
  async list(accountId: number, options: { limit: number; type?: EventType; beforeSeq?: number }): Promise<EventPage> {
    const conditions = [sql`account_id = ${accountId}`];
    const alertConditions = [sql`a.account_id = ${accountId}`];
    if (options.beforeSeq !== undefined) {
      conditions.push(sql`seq < ${options.beforeSeq}`);
      alertConditions.push(sql`a.seq < ${options.beforeSeq}`);
    }
    if (options.type) conditions.push(sql`type = ${options.type}`);
    // One row beyond the page tells whether another page follows.
    const limit = options.limit + 1;
    const events = sql`SELECT ${COLUMNS} FROM events WHERE ${sql.join(conditions, sql` AND `)} ORDER BY seq DESC LIMIT ${limit}`;
    // The alerts stored apart, merged by seq: each part read newest first down its own index.
    const statement =
      options.type === undefined || options.type === 'saved_search.matched'
        ? sql`SELECT ${COLUMNS} FROM (
                (${events})
                UNION ALL
                (SELECT ${ALERT_COLUMNS} FROM saved_search_alerts a JOIN events change ON change.id = a.change_id
                  WHERE ${sql.join(alertConditions, sql` AND `)} ORDER BY a.seq DESC LIMIT ${limit})
              ) AS e ORDER BY seq DESC LIMIT ${limit}`
        : events;
    // The first page may lag; the next pages of a walk are read on the primary (`PetSearchRepository.search`).
    const rows = await (options.beforeSeq === undefined
      ? this.sql.rowsMayLag<EventRow>(statement)
      : this.sql.rows<EventRow>(statement));
    const page = rows.slice(0, options.limit);
    return {
      events: page.map(toEvent),
      lastSeq: rows.length > options.limit ? Number(page[page.length - 1]!.seq) : undefined,
    };
  }

  /**
   * Claims up to `limit` events no dispatcher has handled and marks them dispatched, inside the caller's
   * transaction: rows another dispatcher holds are skipped, so dispatchers running together share the
   * work, and what a failed dispatch claimed is free again once its transaction rolls back.
   */
  @GenerateSql({ params: [1000] })
  async claimUndispatched(limit: number): Promise<UndispatchedEvent[]> {
    const rows = await this.sql.rows<EventRow & { account_id: string }>(
      sql`WITH claimed AS (
            SELECT id FROM events WHERE dispatched_at IS NULL ORDER BY seq LIMIT ${limit} FOR UPDATE SKIP LOCKED)
          UPDATE events e SET dispatched_at = now() FROM claimed WHERE e.id = claimed.id
          RETURNING e.account_id, e.id, e.seq, e.type, e.object, e.created_at`,
    );
    return rows.map((row) => ({ accountId: Number(row.account_id), event: toEvent(row) }));
  }

  /**
   * Claims, in the caller's transaction, up to `limit` pet events the saved-search matcher has not handled,
   * oldest first, and marks them handled. It waits for a row the dispatcher holds rather than skip it: a
   * skipped event would be matched after a later change of the same pet, and the matcher must see each
   * pet's changes in their order (which `seq` is, as each pet's changes commit one after the other). Only
   * the pets of `partition` (pet id modulo `partitions`), so that batches of other pets' changes run beside it.
   */
  async claimUnmatchedPetEvents(limit: number, partition: number, partitions: number): Promise<PetChangeEvent[]> {
    const rows = await this.sql.rows<{
      id: string;
      seq: string;
      account_id: string;
      type: PetChangeEvent['type'];
      object: Record<string, unknown>;
    }>(
      sql`WITH claimed AS (
            SELECT id FROM events
             WHERE matched_at IS NULL AND type IN ('pet.created', 'pet.updated', 'pet.deleted')
               AND (object ->> 'id')::bigint % ${partitions} = ${partition}
             ORDER BY seq LIMIT ${limit} FOR UPDATE)
          UPDATE events e SET matched_at = now() FROM claimed WHERE e.id = claimed.id
          RETURNING e.id, e.seq, e.account_id, e.type, e.object`,
    );
    return rows
      .map((row) => ({
        id: row.id,
        seq: Number(row.seq),
        listerAccountId: Number(row.account_id),
        type: row.type,
        pet: row.object,
      }))
      .sort((a, b) => a.seq - b.seq);
  }

  /**
   * Deletes up to `limit` events recorded before `days` ago whose delivery attempts are that old too (a
   * retry may come minutes or, after an outage, hours later) and settled; their attempts go with them. How
   * many. An event with a pending attempt stays whatever its age: the attempt's outcome, written later,
   * opens the next attempt, which this statement's snapshot would not see and its cascade would delete. A pet
   * event stays until `days` after the saved-search matcher handled it too: the alerts it recorded then
   * (`saved_search_alerts`, of that time) read their pet from it, and a worker that was down matches late.
   */
  @GenerateSql({ params: [30, 1000] })
  async deleteOlderThan(days: number, limit: number): Promise<number> {
    const before = sql`now() - ${days} * interval '1 day'`;
    const result = await this.sql.query(
      sql`DELETE FROM events WHERE id IN (
            SELECT e.id FROM events e
             WHERE e.created_at < ${before} AND coalesce(e.matched_at, e.created_at) < ${before}
               AND NOT EXISTS (SELECT FROM webhook_attempts a
                                WHERE a.event_id = e.id AND (a.created_at >= ${before} OR a.status = 'pending'))
             ORDER BY e.created_at LIMIT ${limit})`,
    );
    return result.rowCount ?? 0;
  }

  /**
   * Deletes up to `limit` alerts (`saved_search_alerts`) recorded before `days` ago, oldest first; how many.
   * They are never delivered, so no attempt holds them. Found by `created_at`'s index, deleted by row address:
   * the primary key leads with the account.
   */
  @GenerateSql({ params: [30, 1000] })
  async deleteAlertsOlderThan(days: number, limit: number): Promise<number> {
    const result = await this.sql.query(
      sql`DELETE FROM saved_search_alerts WHERE ctid = ANY (ARRAY(
            SELECT ctid FROM saved_search_alerts WHERE created_at < now() - ${days} * interval '1 day'
             ORDER BY created_at LIMIT ${limit}))`,
    );
    return result.rowCount ?? 0;
  }

  /**
   * The account's events of the last `days` days a page at a time, newest first, its alerts among them; in a
   * snapshot, "now" is the snapshot's.
   */
  @GenerateSql({ params: [1, 30, 500] })
  exported(accountId: number, days: number, pageSize: number): AsyncIterable<EventDto> {
    const since = sql`now() - ${days} * interval '1 day'`;
    const rows = this.sql.pages<EventRow>(pageSize, (after) => {
      const before = after?.seq ?? MAX_SEQ.toString();
      return sql`SELECT ${COLUMNS} FROM (
          (SELECT ${COLUMNS} FROM events
            WHERE account_id = ${accountId} AND seq < ${before}::bigint AND created_at >= ${since}
            ORDER BY seq DESC LIMIT ${pageSize})
          UNION ALL
          (SELECT ${ALERT_COLUMNS} FROM saved_search_alerts a JOIN events change ON change.id = a.change_id
            WHERE a.account_id = ${accountId} AND a.seq < ${before}::bigint AND a.created_at >= ${since}
            ORDER BY a.seq DESC LIMIT ${pageSize})
        ) AS e ORDER BY seq DESC LIMIT ${pageSize}`;
    });
    return exportedAs(rows, toEvent);
  }

  /**
   * Deletes up to `limit` events and alerts of a deleted account, with their delivery attempts; how many.
   * Its pet events stay until the retention's: each shows only a catalogue record, which the saved-search
   * matcher may not have judged yet and other accounts' alerts read their pet from.
   */
  @GenerateSql({ params: [1, 200] })
  async deleteSomeOf(accountId: number, limit: number): Promise<number> {
    const events = await this.sql.query(
      sql`DELETE FROM events WHERE id IN (
            SELECT id FROM events
             WHERE account_id = ${accountId} AND type NOT IN ('pet.created', 'pet.updated', 'pet.deleted')
             LIMIT ${limit})`,
    );
    const alerts = await this.sql.query(
      sql`DELETE FROM saved_search_alerts WHERE ctid = ANY (ARRAY(
            SELECT ctid FROM saved_search_alerts WHERE account_id = ${accountId} LIMIT ${limit}))`,
    );
    return events.rowCount! + alerts.rowCount!;
  }
}
