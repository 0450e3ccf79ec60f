import { GenerateSql, sql, Sql } from '@app/database';
import { Injectable } from '@nestjs/common';
import { PET_COLUMNS, PetRow, StoredPet, toStoredPet } from './pet-row';

/** `pets`: a lister's pets, for its export and its erasure (the pets part of personal data). */
@Injectable()
export class PetsPersonalDataRepository {
  constructor(private readonly sql: Sql) {}

  /** The lister's pets a page at a time, by id. */
  @GenerateSql({ params: [1, 500] })
  listed(listerAccountId: number, pageSize: number): AsyncIterable<PetRow> {
    return this.sql.pages<PetRow>(
      pageSize,
      (after) =>
        sql`SELECT ${PET_COLUMNS} FROM pets WHERE lister_account_id = ${listerAccountId} AND id > ${after?.id ?? 0}
             ORDER BY id LIMIT ${pageSize}`,
    );
  }

  /**
   * Removes up to `limit` of the lister's pets as `deletePet` removes one: only those no open order holds
   * (their photos' rows go with them, and their files onto the removal list). Returns them, for their events.
   */
  @GenerateSql({ params: [1, 200] })
  async deleteListed(listerAccountId: number, limit: number): Promise<StoredPet[]> {
    const rows = await this.sql.rows<PetRow>(
      sql`DELETE FROM pets
           WHERE id IN (SELECT id FROM pets WHERE lister_account_id = ${listerAccountId} AND open_order_id IS NULL
                         ORDER BY id LIMIT ${limit} FOR UPDATE)
             AND open_order_id IS NULL
          RETURNING ${PET_COLUMNS}`,
    );
    return rows.map(toStoredPet);
  }

  /** Whether the lister has any pet left, held by an order or not. */
  @GenerateSql({ params: [1] })
  async anyListed(listerAccountId: number): Promise<boolean> {
    const [row] = await this.sql.rows<{ any: boolean }>(
      sql`SELECT EXISTS (SELECT FROM pets WHERE lister_account_id = ${listerAccountId}) AS any`,
    );
    return row!.any;
  }
}
