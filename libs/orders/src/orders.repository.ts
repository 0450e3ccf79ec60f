import { exportedAs } from '@app/core';
import { columnList, GenerateSql, sql, Sql, SqlFragment, type TableRow } from '@app/database';
import { Injectable } from '@nestjs/common';
import type { OrderRole, OrderStatus, OrderTransition } from './order-transitions';

/**
 * Advisory locks (the two-key form, so apart from the 7_310_442_0NN keys of the other contexts) that
 * serialise one adopter's placings: the open-orders cap is counted under it, so concurrent placings
 * by one account cannot all pass the count.
 */
const ORDER_PLACING_LOCK_CLASS = 7_310_442;

/** An order as stored: both parties, whatever the caller's role. */
export interface StoredOrder {
  id: number;
  petId: number;
  adopterAccountId: number;
  listerAccountId: number;
  status: OrderStatus;
  note: string | null;
  cancellationReason: string | null;
  expiresAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

const ORDER_COLUMNS = [
  'id',
  'pet_id',
  'adopter_account_id',
  'lister_account_id',
  'status',
  'note',
  'cancellation_reason',
  'expires_at',
  'created_at',
  'updated_at',
] as const;

type OrderRow = Pick<TableRow<'orders', { status: OrderStatus }>, (typeof ORDER_COLUMNS)[number]>;

const COLUMNS = columnList('orders', ORDER_COLUMNS);

function toOrder(row: OrderRow): StoredOrder {
  return {
    id: Number(row.id),
    petId: Number(row.pet_id),
    adopterAccountId: Number(row.adopter_account_id),
    listerAccountId: Number(row.lister_account_id),
    status: row.status,
    note: row.note,
    cancellationReason: row.cancellation_reason,
    expiresAt: row.expires_at,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** A new order, placed. */
export interface NewOrder {
  petId: number;
  adopterAccountId: number;
  listerAccountId: number;
  note?: string;
  /** Outside the open-orders cap (`placed_by_application`). */
  uncapped?: boolean;
}

export interface OrderListing {
  role?: OrderRole;
  status?: OrderStatus;
  petId?: number;
  /** Only orders older than this one. */
  beforeId?: number;
  limit: number;
}

/** Orders in PostgreSQL. */
@Injectable()
export class OrdersRepository {
  constructor(private readonly sql: Sql) {}

  /**
   * Takes the placing locks of these adopters, held until the transaction ends: their other placings
   * wait. Taken in key order, so two batches sharing adopters queue instead of deadlocking.
   */
  @GenerateSql({ params: [[1, 2]] })
  async lockPlacings(adopterAccountIds: number[]): Promise<void> {
    await this.sql.query(
      sql`SELECT count(pg_advisory_xact_lock(${ORDER_PLACING_LOCK_CLASS}::int, key))
            FROM (SELECT DISTINCT hashint8(id) AS key FROM unnest(${adopterAccountIds}::bigint[]) AS id ORDER BY key) keys`,
    );
  }

  /**
   * Inserts the orders, placed and holding for `holdSeconds`, those that keep their adopters within
   * `maxPlaced` orders placed; returns them in the same places, undefined for an order over the cap. An
   * `uncapped` order always goes in, and neither it nor the adopter's other uncapped orders count.
   *
   * Each order goes in only while its adopter stays within the cap: the adopter's orders already placed
   * plus the batch's earlier ones (by position) must not exceed `maxPlaced`. Run after the adopters'
   * placing locks, so its snapshot counts every placing that committed before. RETURNING promises no
   * order, so each row's id is drawn first and the rows are matched to positions by it.
   */
  @GenerateSql({
    params: [[{ petId: 1, adopterAccountId: 2, listerAccountId: 3, note: 'Hello', uncapped: false }], 900, 5],
  })
  async insertPlaced(
    orders: NewOrder[],
    holdSeconds: number,
    maxPlaced: number,
  ): Promise<Array<StoredOrder | undefined>> {
    const adopters = orders.map((order) => order.adopterAccountId);
    const rows = await this.sql.rows<OrderRow & { position: string }>(
      sql`WITH batch AS (
            SELECT pet_id, adopter_account_id, lister_account_id, note, uncapped, position
              FROM unnest(${orders.map((order) => order.petId)}::bigint[], ${adopters}::bigint[],
                          ${orders.map((order) => order.listerAccountId)}::bigint[],
                          ${orders.map((order) => order.note ?? null)}::text[],
                          ${orders.map((order) => order.uncapped === true)}::boolean[]) WITH ORDINALITY
                   AS o (pet_id, adopter_account_id, lister_account_id, note, uncapped, position)
          ), placed AS (
            SELECT adopter_account_id, count(*) AS placed FROM orders
             WHERE adopter_account_id = ANY(${adopters}::bigint[]) AND status = 'placed' AND NOT placed_by_application
             GROUP BY adopter_account_id
          ), going AS (
            SELECT nextval('orders_id_seq') AS id, b.* FROM (
              SELECT batch.*, coalesce(placed.placed, 0)
                       + count(*) FILTER (WHERE NOT batch.uncapped)
                           OVER (PARTITION BY batch.adopter_account_id ORDER BY batch.position) AS nth
                FROM batch LEFT JOIN placed USING (adopter_account_id)
            ) b
             WHERE uncapped OR nth <= ${maxPlaced}
          ), inserted AS (
            INSERT INTO orders (id, pet_id, adopter_account_id, lister_account_id, note, placed_by_application, expires_at)
            SELECT id, pet_id, adopter_account_id, lister_account_id, note, uncapped,
                   now() + make_interval(secs => ${holdSeconds})
              FROM going
            RETURNING ${COLUMNS}
          )
          SELECT inserted.*, going.position FROM inserted JOIN going USING (id)`,
    );
    const placed: Array<StoredOrder | undefined> = orders.map(() => undefined);
    for (const row of rows) placed[Number(row.position) - 1] = toOrder(row);
    return placed;
  }

  /** Removes orders inserted in the running transaction whose pet could not be held after all. */
  @GenerateSql({ params: [[1, 2]] })
  async deleteUnheld(orderIds: number[]): Promise<void> {
    await this.sql.query(sql`DELETE FROM orders WHERE id = ANY(${orderIds}::bigint[])`);
  }

  @GenerateSql({ params: [1] })
  async findById(orderId: number): Promise<StoredOrder | undefined> {
    const rows = await this.sql.rows<OrderRow>(sql`SELECT ${COLUMNS} FROM orders WHERE id = ${orderId}`);
    return rows[0] && toOrder(rows[0]);
  }

  /**
   * The order after the transition; undefined when it is not in a state or for a party the transition
   * allows. Leaving `placed` ends the hold's expiry.
   */
  @GenerateSql({ params: [1, 2, { from: ['placed'], to: 'cancelled', who: ['adopter', 'lister'] }, 'changed my mind'] })
  async transition(
    orderId: number,
    callerAccountId: number,
    transition: OrderTransition,
    reason?: string,
  ): Promise<StoredOrder | undefined> {
    const to = transition.to;
    const asParty = (column: SqlFragment, role: OrderRole) =>
      sql`(${column} = ${callerAccountId} AND ${role} = ANY(${transition.who}::text[]))`;
    const rows = await this.sql.rows<OrderRow>(
      sql`UPDATE orders
             SET status = ${to}, updated_at = now(), expires_at = NULL,
                 cancellation_reason = CASE WHEN ${to} = 'cancelled' THEN ${reason ?? null} ELSE cancellation_reason END,
                 return_reason = CASE WHEN ${to} = 'returned' THEN ${reason ?? null} ELSE return_reason END
           WHERE id = ${orderId} AND status = ANY(${transition.from}::text[])
             AND (${asParty(sql`adopter_account_id`, 'adopter')} OR ${asParty(sql`lister_account_id`, 'lister')})
          RETURNING ${COLUMNS}`,
    );
    return rows[0] && toOrder(rows[0]);
  }

  /** Cancels a placed order whose hold ran out; undefined when it is no longer placed or not yet due. */
  @GenerateSql({ params: [1] })
  async expire(orderId: number): Promise<StoredOrder | undefined> {
    const rows = await this.sql.rows<OrderRow>(
      sql`UPDATE orders SET status = 'cancelled', cancellation_reason = 'expired', updated_at = now(), expires_at = NULL
           WHERE id = ${orderId} AND status = 'placed' AND expires_at <= now()
          RETURNING ${COLUMNS}`,
    );
    return rows[0] && toOrder(rows[0]);
  }

  /**
   * Cancels up to `limit` open orders of a deleted account, of either role, with the reason
   * `account_deleted`; returns them, for their events and their pets.
   */
  @GenerateSql({ params: [1, 200] })
  async cancelOpenOf(accountId: number, limit: number): Promise<StoredOrder[]> {
    const rows = await this.sql.rows<OrderRow>(
      sql`UPDATE orders
             SET status = 'cancelled', cancellation_reason = 'account_deleted', updated_at = now(), expires_at = NULL
           WHERE id IN (SELECT id FROM orders
                         WHERE (adopter_account_id = ${accountId} OR lister_account_id = ${accountId})
                           AND status IN ('placed', 'approved')
                         ORDER BY id LIMIT ${limit} FOR UPDATE)
             AND status IN ('placed', 'approved')
          RETURNING ${COLUMNS}`,
    );
    return rows.map(toOrder);
  }

  /**
   * Erases a deleted account's own words from up to `limit` orders the other party keeps: its note as the
   * adopter, its return reason as the lister. Returns how many orders it changed.
   */
  @GenerateSql({ params: [1, 200] })
  async eraseWordsOf(accountId: number, limit: number): Promise<number> {
    const { rowCount } = await this.sql.query(
      sql`UPDATE orders
             SET note = CASE WHEN adopter_account_id = ${accountId} THEN NULL ELSE note END,
                 return_reason = CASE WHEN lister_account_id = ${accountId} THEN NULL ELSE return_reason END
           WHERE id IN (SELECT id FROM orders
                         WHERE (adopter_account_id = ${accountId} AND note IS NOT NULL)
                            OR (lister_account_id = ${accountId} AND return_reason IS NOT NULL)
                         LIMIT ${limit})`,
    );
    return rowCount!;
  }

  /** The account's orders of both roles a page at a time, by id. */
  @GenerateSql({ params: [1, 500] })
  exported(accountId: number, pageSize: number): AsyncIterable<StoredOrder> {
    const rows = this.sql.pages<OrderRow>(
      pageSize,
      (after) =>
        sql`SELECT ${COLUMNS} FROM orders
             WHERE (adopter_account_id = ${accountId} OR lister_account_id = ${accountId}) AND id > ${after?.id ?? 0}
             ORDER BY id LIMIT ${pageSize}`,
    );
    return exportedAs(rows, toOrder);
  }

  /** Ids of placed orders whose hold ran out, oldest first. */
  @GenerateSql({ params: [1000] })
  async findExpired(limit: number): Promise<number[]> {
    const rows = await this.sql.rows<{ id: string }>(
      sql`SELECT id FROM orders WHERE status = 'placed' AND expires_at <= now() ORDER BY expires_at LIMIT ${limit}`,
    );
    return rows.map((row) => Number(row.id));
  }

  /**
   * One page of the account's orders, with one more than `limit` when another page follows: newest
   * first, each side over its own index; a role keeps one side. An account is never both parties of one
   * order, so the sides do not overlap.
   */
  @GenerateSql(
    { name: 'either side, first page', params: [1, { limit: 20 }] },
    {
      name: 'as lister, placed, of a pet, next page',
      params: [1, { role: 'lister', status: 'placed', petId: 3, beforeId: 100, limit: 20 }],
    },
  )
  async list(accountId: number, listing: OrderListing): Promise<StoredOrder[]> {
    const limit = listing.limit + 1;
    const side = (party: SqlFragment, otherRole: OrderRole) => sql`
      (SELECT ${COLUMNS} FROM orders
        WHERE ${listing.role ?? null}::text IS DISTINCT FROM ${otherRole} AND ${party} = ${accountId}
          AND id < ${listing.beforeId ?? Number.MAX_SAFE_INTEGER}
          AND (${listing.status ?? null}::text IS NULL OR status = ${listing.status ?? null})
          AND (${listing.petId ?? null}::bigint IS NULL OR pet_id = ${listing.petId ?? null})
        ORDER BY id DESC LIMIT ${limit})`;
    const rows = await this.sql.rows<OrderRow>(
      sql`SELECT ${COLUMNS} FROM (${side(sql`adopter_account_id`, 'lister')} UNION ALL ${side(sql`lister_account_id`, 'adopter')}) both_sides
          ORDER BY id DESC LIMIT ${limit}`,
    );
    return rows.map(toOrder);
  }
}
