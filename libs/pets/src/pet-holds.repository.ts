import { GenerateSql, Sql, sql } from '@app/database';
import { Injectable } from '@nestjs/common';
import { PET_CHANGE } from './pet-changes';
import { PetForOrder, PetHold, PetHolds } from './pet-holds';
import type { PetStatus } from './pet-status';

/**
 * The statements the store makes on pets: an order holds its pet through `pets.open_order_id`, and
 * sets the status of the pet it holds. Each is one guarded UPDATE, so a hold taken or a status changed
 * meanwhile by another transaction is seen (the UPDATE changes nothing) rather than overwritten; the
 * catalogue's own PATCH and DELETE refuse a held pet in the same way (`WHERE open_order_id IS NULL`).
 * Each sets `updated_at` by the change clock (`pet-changes.ts`) as its transaction's last statement on pets.
 */
@Injectable()
export class PetHoldsRepository implements PetHolds {
  constructor(private readonly sql: Sql) {}

  @GenerateSql({ params: [[1]] })
  async petsForOrders(petIds: number[]): Promise<Map<number, PetForOrder>> {
    const rows = await this.sql.rows<{
      id: string;
      status: PetStatus;
      lister_account_id: string | null;
      open_order_id: string | null;
    }>(sql`SELECT id, status, lister_account_id, open_order_id FROM pets WHERE id = ANY(${petIds}::bigint[])`);
    return new Map(
      rows.map((row) => [
        Number(row.id),
        {
          status: row.status,
          listerAccountId: row.lister_account_id === null ? null : Number(row.lister_account_id),
          openOrderId: row.open_order_id === null ? null : Number(row.open_order_id),
        },
      ]),
    );
  }

  /** One statement, one change time for all the holds. */
  @GenerateSql({ params: [[{ petId: 1, orderId: 1, listerAccountId: 1 }]] })
  async hold(holds: PetHold[]): Promise<Set<number>> {
    const petIds = holds.map((hold) => hold.petId);
    const orderIds = holds.map((hold) => hold.orderId);
    const listerIds = holds.map((hold) => hold.listerAccountId);
    const rows = await this.sql.rows<{ id: string }>(
      sql`WITH ${PET_CHANGE}
       UPDATE pets SET status = 'pending', open_order_id = hold.order_id, updated_at = pet_change.changed_at
         FROM pet_change, unnest(${petIds}::bigint[], ${orderIds}::bigint[], ${listerIds}::bigint[])
              AS hold (pet_id, order_id, lister_account_id)
        WHERE pets.id = hold.pet_id AND pets.status = 'available' AND pets.open_order_id IS NULL
          AND pets.lister_account_id = hold.lister_account_id
       RETURNING pets.id`,
    );
    return new Set(rows.map((row) => Number(row.id)));
  }

  /** No pet is held by an order whose pet was removed after its hold was released: removals refuse a held pet. */
  @GenerateSql({ params: [1, 1, 'sold', false] })
  async setHeldStatus(orderId: number, petId: number, status: PetStatus, release: boolean): Promise<boolean> {
    const result = await this.sql.query(
      sql`WITH ${PET_CHANGE}
       UPDATE pets SET status = ${status}, open_order_id = CASE WHEN ${release}::boolean THEN NULL ELSE open_order_id END,
              updated_at = pet_change.changed_at
         FROM pet_change
        WHERE id = ${petId} AND open_order_id = ${orderId}`,
    );
    return result.rowCount === 1;
  }

  @GenerateSql({ params: [1, 'available'] })
  async setUnheldStatus(petId: number, status: PetStatus): Promise<boolean> {
    const result = await this.sql.query(
      sql`WITH ${PET_CHANGE}
       UPDATE pets SET status = ${status}, updated_at = pet_change.changed_at FROM pet_change
        WHERE id = ${petId} AND open_order_id IS NULL`,
    );
    return result.rowCount === 1;
  }
}
