import { GenerateSql, sql, Sql } from '@app/database';
import { Injectable } from '@nestjs/common';
import type { PetStatus } from '@app/pets';

export type Inventory = Record<PetStatus, number>;

/**
 * The catalogue's count of pets per status, kept by triggers on `pets` in slotted rows of
 * `pet_status_counts` (migration 1795600000000-orders): reading it sums those few rows, whatever the
 * catalogue's size.
 */
@Injectable()
export class InventoryRepository {
  constructor(private readonly sql: Sql) {}

  @GenerateSql()
  async read(): Promise<Inventory> {
    const rows = await this.sql.rowsMayLag<{ available: string; pending: string; sold: string }>(
      sql`SELECT sum(available) AS available, sum(pending) AS pending, sum(sold) AS sold FROM pet_status_counts`,
    );
    const row = rows[0]!;
    return { available: Number(row.available), pending: Number(row.pending), sold: Number(row.sold) };
  }
}
