import { Sql, sql, SqlFragment } from '@app/database';
import { EventsRecorder } from '@app/events';
import { PET_CHANGE, PET_COLUMNS, type PetRow, petEvents, type PhotoUrlsDto, toStoredPet } from '@app/pets';
import { Injectable } from '@nestjs/common';
import type { PhotoDto, PhotoStatus } from './dto/photo.dto';

/**
 * The two-key advisory lock (its first key) that serialises the changes of one pet's photos (the second
 * key is the pet's id): an upload's count and position, a move, a removal. Two-key locks never meet the
 * one-key ones (7_310_442_0NN) that other contexts take.
 */
const PHOTOS_OF_PET_LOCK = 7_310_442;

/** Trusted SQL text of libs/pets (constants, no values), spliced into statements here. */
const PET_CHANGE_CTE = SqlFragment.of([PET_CHANGE], []);
const PET_COLUMN_LIST = SqlFragment.of([PET_COLUMNS], []);

interface PhotoRow {
  id: string;
  pet_id: string;
  status: PhotoStatus;
  position: number;
  width: number | null;
  height: number | null;
  urls: PhotoUrlsDto | null;
  error: string | null;
  created_at: Date;
  updated_at: Date;
}

function toPhoto(row: PhotoRow): PhotoDto {
  const photo: PhotoDto = {
    id: row.id,
    petId: Number(row.pet_id),
    status: row.status,
    position: row.position,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
  if (row.width !== null) photo.width = row.width;
  if (row.height !== null) photo.height = row.height;
  if (row.urls !== null) photo.urls = row.urls;
  if (row.error !== null) photo.error = row.error;
  return photo;
}

const PHOTO_COLUMNS = sql`id, pet_id, status, position, width, height, urls, error, created_at, updated_at`;

/** What a ready photo's processing found. */
export interface Renditions {
  width: number;
  height: number;
  urls: PhotoUrlsDto;
}

/** The pet a photo belongs to, as far as the upload's checks need it. */
export interface PhotoPet {
  listerAccountId?: number;
  photoCount: number;
}

/**
 * Photos in PostgreSQL, and the pet's copy of its ready ones (`pets.photos`, what every read of a pet
 * returns without a join). A change of the ready photos is a change of the pet, made as libs/pets makes
 * one: the change clock drawn first, then the pet's row locked, then `updated_at` from the clock, and its
 * `pet.updated` event in the same transaction.
 */
@Injectable()
export class PhotosRepository {
  constructor(
    private readonly sql: Sql,
    private readonly events: EventsRecorder,
  ) {}

  async findPet(petId: number): Promise<PhotoPet | undefined> {
    const rows = await this.sql.rows<{ lister_account_id: string | null; photo_count: number }>(sql`
      SELECT lister_account_id, (SELECT count(*)::int FROM photos WHERE pet_id = pets.id) AS photo_count
        FROM pets WHERE id = ${petId}`);
    const row = rows[0];
    if (!row) return undefined;
    return {
      listerAccountId: row.lister_account_id === null ? undefined : Number(row.lister_account_id),
      photoCount: row.photo_count,
    };
  }

  /**
   * Adds a photo in `processing` at the end of the pet's photos, unless the pet has `limit` already:
   * undefined then. Rejects with SQLSTATE 23503 when the pet is gone.
   */
  insert(photoId: string, petId: number, limit: number): Promise<PhotoDto | undefined> {
    return this.sql.transaction(async () => {
      await this.lockPhotosOf(petId);
      const rows = await this.sql.rows<PhotoRow>(sql`
        INSERT INTO photos (id, pet_id, position)
        SELECT ${photoId}, ${petId}, count(*) FROM photos WHERE pet_id = ${petId} HAVING count(*) < ${limit}
        RETURNING ${PHOTO_COLUMNS}`);
      return rows[0] && toPhoto(rows[0]);
    });
  }

  async find(petId: number, photoId: string): Promise<PhotoDto | undefined> {
    const rows = await this.sql.rows<PhotoRow>(
      sql`SELECT ${PHOTO_COLUMNS} FROM photos WHERE id = ${photoId} AND pet_id = ${petId}`,
    );
    return rows[0] && toPhoto(rows[0]);
  }

  async findById(photoId: string): Promise<PhotoDto | undefined> {
    const rows = await this.sql.rows<PhotoRow>(sql`SELECT ${PHOTO_COLUMNS} FROM photos WHERE id = ${photoId}`);
    return rows[0] && toPhoto(rows[0]);
  }

  async list(petId: number, readyOnly: boolean): Promise<PhotoDto[]> {
    const rows = await this.sql.rows<PhotoRow>(sql`
      SELECT ${PHOTO_COLUMNS} FROM photos
       WHERE pet_id = ${petId} ${readyOnly ? sql`AND status = 'ready'` : sql.empty}
       ORDER BY position`);
    return rows.map(toPhoto);
  }

  /** Sets a processing photo ready; the pet changes with it. False when it was not processing (any more). */
  markReady(petId: number, photoId: string, renditions: Renditions): Promise<boolean> {
    return this.changePet(petId, async () => {
      const rows = await this.sql.rows(sql`
        UPDATE photos
           SET status = 'ready', width = ${renditions.width}, height = ${renditions.height},
               urls = ${JSON.stringify(renditions.urls)}::jsonb, updated_at = now()
         WHERE id = ${photoId} AND status = 'processing'
        RETURNING id`);
      return rows.length > 0;
    });
  }

  /** Sets a processing photo failed; a failed photo is not among the pet's, which does not change. */
  async markFailed(photoId: string, error: string): Promise<void> {
    await this.sql.query(sql`
      UPDATE photos SET status = 'failed', error = ${error}, updated_at = now()
       WHERE id = ${photoId} AND status = 'processing'`);
  }

  /**
   * Moves a photo to `position` (the last place at most), shifting the ones between; the pet changes when
   * the photo is ready. The photo after the move, undefined when it is gone.
   */
  move(petId: number, photoId: string, position: number): Promise<PhotoDto | undefined> {
    let moved: PhotoDto | undefined;
    return this.changePet(petId, async () => {
      const rows = await this.sql.rows<PhotoRow>(sql`
        WITH target AS (
          SELECT p.position AS from_position,
                 least(${position}::int, (SELECT count(*) - 1 FROM photos WHERE pet_id = ${petId}))::int AS to_position
            FROM photos p WHERE p.id = ${photoId} AND p.pet_id = ${petId}
        )
        UPDATE photos p
           SET position = CASE WHEN p.id = ${photoId} THEN t.to_position
                               WHEN t.to_position < t.from_position THEN p.position + 1
                               ELSE p.position - 1 END,
               updated_at = CASE WHEN p.id = ${photoId} THEN now() ELSE p.updated_at END
          FROM target t
         WHERE p.pet_id = ${petId}
           AND p.position BETWEEN least(t.from_position, t.to_position) AND greatest(t.from_position, t.to_position)
        RETURNING ${PHOTO_COLUMNS}`);
      const row = rows.find((candidate) => candidate.id === photoId);
      moved = row && toPhoto(row);
      return moved?.status === 'ready' && rows.length > 1;
    }).then(() => moved);
  }

  /** Removes a photo, closing the gap it leaves; the pet changes when it was ready. False when it was gone. */
  remove(petId: number, photoId: string): Promise<boolean> {
    let removed = false;
    return this.changePet(petId, async () => {
      const rows = await this.sql.rows<{ position: number; status: PhotoStatus }>(sql`
        DELETE FROM photos WHERE id = ${photoId} AND pet_id = ${petId} RETURNING position, status`);
      const row = rows[0];
      if (!row) return false;
      removed = true;
      await this.sql.query(sql`
        UPDATE photos SET position = position - 1 WHERE pet_id = ${petId} AND position > ${row.position}`);
      return row.status === 'ready';
    }).then(() => removed);
  }

  /** Photos still processing whose last change is older than `olderThanMs`: their job may be lost. */
  async findProcessing(olderThanMs: number, limit: number): Promise<Array<{ id: string; petId: number }>> {
    const rows = await this.sql.rows<{ id: string; pet_id: string }>(sql`
      SELECT id, pet_id FROM photos
       WHERE status = 'processing' AND updated_at < now() - make_interval(secs => ${olderThanMs / 1000})
       ORDER BY updated_at LIMIT ${limit}`);
    return rows.map((row) => ({ id: row.id, petId: Number(row.pet_id) }));
  }

  /** The status of each photo of `ids` that exists. */
  async statuses(ids: readonly string[]): Promise<Map<string, PhotoStatus>> {
    const rows = await this.sql.rows<{ id: string; status: PhotoStatus }>(
      sql`SELECT id, status FROM photos WHERE id = ANY (${ids}::text[])`,
    );
    return new Map(rows.map((row) => [row.id, row.status]));
  }

  /**
   * Runs `change` on the photos of the pet, in one transaction with the pet's change when `change` says
   * the pet's ready photos changed: `pets.photos` rewritten, `updated_at` from the clock, `pet.updated`.
   * Locks in the one order every photo change takes: the pet's photos, the clock, the pet's row.
   */
  private changePet(petId: number, change: () => Promise<boolean>): Promise<boolean> {
    return this.sql.transaction(async () => {
      await this.lockPhotosOf(petId);
      const locked = await this.sql.rows(sql`
        WITH ${PET_CHANGE_CTE}
        SELECT pets.id FROM pets, pet_change WHERE pets.id = ${petId} FOR NO KEY UPDATE OF pets`);
      if (locked.length === 0) return false;
      if (!(await change())) return false;
      const rows = await this.sql.rows<PetRow>(sql`
        WITH ${PET_CHANGE_CTE}
        UPDATE pets
           SET photos = (
                 SELECT coalesce(jsonb_agg(jsonb_build_object('id', id, 'width', width, 'height', height, 'urls', urls)
                                           ORDER BY position), '[]')
                   FROM photos WHERE pet_id = ${petId} AND status = 'ready'),
               updated_at = pet_change.changed_at
          FROM pet_change
         WHERE pets.id = ${petId}
        RETURNING ${PET_COLUMN_LIST}`);
      await this.events.recordAll(rows.flatMap((row) => petEvents('pet.updated', toStoredPet(row))));
      return true;
    });
  }

  private async lockPhotosOf(petId: number): Promise<void> {
    await this.sql.query(
      sql`SELECT pg_advisory_xact_lock(${PHOTOS_OF_PET_LOCK}, (${petId}::bigint % 2147483647)::int)`,
    );
  }
}
