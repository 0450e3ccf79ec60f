import { GenerateSql, Sql, sql } from '@app/database';
import { Injectable } from '@nestjs/common';
import { PET_CHANGE } from './pet-changes';
import { PET_COLUMNS, type PetRow, type StoredPet, toStoredPet } from './pet-row';

/**
 * The pet's copy of its ready photos (`pets.photos`, what every read of a pet returns without a join),
 * changed as every change of a pet is made (pet-changes.ts), for libs/photos through `PetPhotoChanges`.
 */
@Injectable()
export class PetPhotosRepository {
  constructor(private readonly sql: Sql) {}

  /** Draws the change's time, then locks the pet's row: nothing when the pet is gone. */
  @GenerateSql({ params: [1] })
  async lock(petId: number): Promise<void> {
    await this.sql.query(sql`
      WITH ${PET_CHANGE}
      SELECT pets.id FROM pets, pet_change WHERE pets.id = ${petId} FOR NO KEY UPDATE OF pets`);
  }

  /** Copies the pet's ready photos, by position, into `pets.photos`: the pet changed, undefined when gone. */
  @GenerateSql({ params: [1] })
  async copyReadyPhotos(petId: number): Promise<StoredPet | undefined> {
    const rows = await this.sql.rows<PetRow>(sql`
      WITH ${PET_CHANGE}
      UPDATE pets
         SET photos = (
               SELECT coalesce(jsonb_agg(jsonb_build_object('id', id, 'width', width, 'height', height,
                                                            'renditions', renditions)
                                         ORDER BY position), '[]')
                 FROM photos WHERE pet_id = ${petId} AND status = 'ready'),
             updated_at = pet_change.changed_at
        FROM pet_change
       WHERE pets.id = ${petId}
      RETURNING ${PET_COLUMNS}`);
    return rows[0] && toStoredPet(rows[0]);
  }
}
