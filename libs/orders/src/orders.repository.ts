import { Sql } from '@app/database';
import { Injectable } from '@nestjs/common';
import type { OrderRole, OrderStatus, OrderTransition } from './order-transitions';

/**
 * Advisory locks (the two-key form, so apart from the 7_310_442_0NN keys of the other contexts) that
 * serialise one adopter's placings: the open-orders cap is counted under it, so concurrent placings
 * by one account cannot all pass the count.
 */
export const ORDER_PLACING_LOCK_CLASS = 7_310_442;

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

interface OrderRow {
  id: string;
  pet_id: string;
  adopter_account_id: string;
  lister_account_id: string;
  status: OrderStatus;
  note: string | null;
  cancellation_reason: string | null;
  expires_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

const COLUMNS = `id, pet_id, adopter_account_id, lister_account_id, status, note, cancellation_reason, expires_at,
  created_at, updated_at`;

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
}

/**
 * Orders placed together, each only while its adopter stays within the cap: the adopter's orders
 * already placed plus the batch's earlier ones (by position) must be fewer than `$6`. Run after the
 * adopters' placing locks, so its snapshot counts every placing that committed before. RETURNING
 * promises no order, so each row's id is drawn first and the rows are matched to positions by it.
 */
const INSERT_PLACED = `
  WITH batch AS (
    SELECT pet_id, adopter_account_id, lister_account_id, note, position
      FROM unnest($1::bigint[], $2::bigint[], $3::bigint[], $4::text[]) WITH ORDINALITY
           AS o (pet_id, adopter_account_id, lister_account_id, note, position)
  ), placed AS (
    SELECT adopter_account_id, count(*) AS placed FROM orders
     WHERE adopter_account_id = ANY($2::bigint[]) AND status = 'placed' GROUP BY adopter_account_id
  ), going AS (
    SELECT nextval('orders_id_seq') AS id, b.* FROM (
      SELECT batch.*, coalesce(placed.placed, 0)
               + row_number() OVER (PARTITION BY batch.adopter_account_id ORDER BY batch.position) AS nth
        FROM batch LEFT JOIN placed USING (adopter_account_id)
    ) b
     WHERE nth <= $6
  ), inserted AS (
    INSERT INTO orders (id, pet_id, adopter_account_id, lister_account_id, note, expires_at)
    SELECT id, pet_id, adopter_account_id, lister_account_id, note, now() + make_interval(secs => $5) FROM going
    RETURNING ${COLUMNS}
  )
  SELECT inserted.*, going.position FROM inserted JOIN going USING (id)`;

/**
 * Applies a transition asked by a party: only from one of its states, and only for a party the
 * transition allows. Leaving `placed` ends the hold's expiry.
 */
const TRANSITION = `
  UPDATE orders
     SET status = $3, updated_at = now(), expires_at = NULL,
         cancellation_reason = CASE WHEN $3 = 'cancelled' THEN $5 ELSE cancellation_reason END,
         return_reason = CASE WHEN $3 = 'returned' THEN $5 ELSE return_reason END
   WHERE id = $1 AND status = ANY($4::text[])
     AND ((adopter_account_id = $2 AND 'adopter' = ANY($6::text[]))
       OR (lister_account_id = $2 AND 'lister' = ANY($6::text[])))
  RETURNING ${COLUMNS}`;

const EXPIRE = `
  UPDATE orders SET status = 'cancelled', cancellation_reason = 'expired', updated_at = now(), expires_at = NULL
   WHERE id = $1 AND status = 'placed' AND expires_at <= now()
  RETURNING ${COLUMNS}`;

/**
 * One party's orders newest first, each side over its own index; a role keeps one side. An account is
 * never both parties of one order, so the sides do not overlap.
 */
const LIST = `
  SELECT ${COLUMNS} FROM (
    (SELECT ${COLUMNS} FROM orders
      WHERE $2::text IS DISTINCT FROM 'lister' AND adopter_account_id = $1 AND id < $3
        AND ($4::text IS NULL OR status = $4) AND ($5::bigint IS NULL OR pet_id = $5)
      ORDER BY id DESC LIMIT $6)
    UNION ALL
    (SELECT ${COLUMNS} FROM orders
      WHERE $2::text IS DISTINCT FROM 'adopter' AND lister_account_id = $1 AND id < $3
        AND ($4::text IS NULL OR status = $4) AND ($5::bigint IS NULL OR pet_id = $5)
      ORDER BY id DESC LIMIT $6)
  ) both_sides
  ORDER BY id DESC LIMIT $6`;

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
  async lockPlacings(adopterAccountIds: number[]): Promise<void> {
    await this.sql.query(
      `SELECT count(pg_advisory_xact_lock($1::int, key))
         FROM (SELECT DISTINCT hashint8(id) AS key FROM unnest($2::bigint[]) AS id ORDER BY key) keys`,
      [ORDER_PLACING_LOCK_CLASS, adopterAccountIds],
    );
  }

  /**
   * Inserts the orders, placed and holding for `holdSeconds`, those that keep their adopters within
   * `maxPlaced` orders placed; returns them in the same places, undefined for an order over the cap.
   */
  async insertPlaced(
    orders: NewOrder[],
    holdSeconds: number,
    maxPlaced: number,
  ): Promise<Array<StoredOrder | undefined>> {
    const rows = await this.sql.rows<OrderRow & { position: string }>(INSERT_PLACED, [
      orders.map((order) => order.petId),
      orders.map((order) => order.adopterAccountId),
      orders.map((order) => order.listerAccountId),
      orders.map((order) => order.note ?? null),
      holdSeconds,
      maxPlaced,
    ]);
    const placed: Array<StoredOrder | undefined> = orders.map(() => undefined);
    for (const row of rows) placed[Number(row.position) - 1] = toOrder(row);
    return placed;
  }

  /** Removes orders inserted in the running transaction whose pet could not be held after all. */
  async deleteUnheld(orderIds: number[]): Promise<void> {
    await this.sql.query('DELETE FROM orders WHERE id = ANY($1::bigint[])', [orderIds]);
  }

  async findById(orderId: number): Promise<StoredOrder | undefined> {
    const rows = await this.sql.rows<OrderRow>(`SELECT ${COLUMNS} FROM orders WHERE id = $1`, [orderId]);
    return rows[0] && toOrder(rows[0]);
  }

  /** The order after the transition; undefined when it is not in a state or for a party the transition allows. */
  async transition(
    orderId: number,
    callerAccountId: number,
    transition: OrderTransition,
    reason?: string,
  ): Promise<StoredOrder | undefined> {
    const rows = await this.sql.rows<OrderRow>(TRANSITION, [
      orderId,
      callerAccountId,
      transition.to,
      transition.from,
      reason ?? null,
      transition.who,
    ]);
    return rows[0] && toOrder(rows[0]);
  }

  /** Cancels a placed order whose hold ran out; undefined when it is no longer placed or not yet due. */
  async expire(orderId: number): Promise<StoredOrder | undefined> {
    const rows = await this.sql.rows<OrderRow>(EXPIRE, [orderId]);
    return rows[0] && toOrder(rows[0]);
  }

  /** Ids of placed orders whose hold ran out, oldest first. */
  async findExpired(limit: number): Promise<number[]> {
    const rows = await this.sql.rows<{ id: string }>(
      `SELECT id FROM orders WHERE status = 'placed' AND expires_at <= now() ORDER BY expires_at LIMIT $1`,
      [limit],
    );
    return rows.map((row) => Number(row.id));
  }

  /** One page of the account's orders, with one more than `limit` when another page follows. */
  async list(accountId: number, listing: OrderListing): Promise<StoredOrder[]> {
    const rows = await this.sql.rows<OrderRow>(LIST, [
      accountId,
      listing.role ?? null,
      listing.beforeId ?? Number.MAX_SAFE_INTEGER,
      listing.status ?? null,
      listing.petId ?? null,
      listing.limit + 1,
    ]);
    return rows.map(toOrder);
  }
}
