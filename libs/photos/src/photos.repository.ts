import { ServiceUnavailableError } from '@app/core';
import { GenerateSql, Sql, sql, SqlFragment } from '@app/database';
import { PetPhotoChanges, PhotoUrls, type RenditionKeys } from '@app/pets';
import { Injectable } from '@nestjs/common';
import type { PhotoDto, PhotoStatus } from './dto/photo.dto';

/**
 * The two-key advisory lock (its first key) that serialises the changes of one pet's photos (the second
 * key is the pet's id): an upload's count and position, a move, a removal. Two-key locks never meet the
 * one-key ones (7_310_442_0NN) that other contexts take.
 */
const PHOTOS_OF_PET_LOCK = 7_310_442;

interface PhotoRow {
  id: string;
  pet_id: string;
  status: PhotoStatus;
  position: number;
  width: number | null;
  height: number | null;
  renditions: RenditionKeys | null;
  error: string | null;
  created_at: Date;
  updated_at: Date;
}

/** The Photo as clients see it, its URLs formed from its renditions' keys. */
function toPhoto(row: PhotoRow, urls: PhotoUrls): PhotoDto {
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
  if (row.renditions !== null) photo.urls = urls.of(row.renditions);
  if (row.error !== null) photo.error = row.error;
  return photo;
}

/**
 * How long a file being written may wait for the row that needs it before the sweep removes it: far longer
 * than a write takes, since the writer that finds its file's record gone must write it again.
 */
const PENDING_FILE_GRACE_SECONDS = 600;

const PHOTO_COLUMNS = sql`id, pet_id, status, position, width, height, renditions, error, created_at, updated_at`;

/** What a ready photo's processing found. */
export interface Renditions {
  width: number;
  height: number;
  /** Each rendition's storage key, by size: rows keep keys, and URLs are formed as a photo is read. */
  renditions: RenditionKeys;
}

/** The pet a photo belongs to, as far as the upload's checks need it. */
export interface PhotoPet {
  listerAccountId?: number;
  photoCount: number;
}

/** What a change to a pet's photos returns, and whether it changed the pet's ready photos. */
interface PhotosChange<T> {
  result: T;
  petChanged: boolean;
}

/**
 * Photos in PostgreSQL. A change of the ready photos is a change of the pet, which libs/pets makes
 * (`PetPhotoChanges`: the pet's copy of its ready photos, its `pet.updated` event) in the same transaction.
 */
@Injectable()
export class PhotosRepository {
  constructor(
    private readonly sql: Sql,
    private readonly pets: PetPhotoChanges,
    private readonly urls: PhotoUrls,
  ) {}

  @GenerateSql({ params: [1] })
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
   * Records files about to be written for a row not committed yet: the sweep removes them after a grace
   * period unless `insert` or `markReady` claims them first.
   */
  @GenerateSql({ params: ['pho_1', ['originals/pho_1']] })
  async markPending(photoId: string, keys: readonly string[]): Promise<void> {
    await this.sql.query(sql`
      INSERT INTO photo_file_removals (key, photo_id, due_at)
      SELECT unnest(${keys}::text[]), ${photoId}, now() + make_interval(secs => ${PENDING_FILE_GRACE_SECONDS})
      ON CONFLICT (key) DO UPDATE SET due_at = EXCLUDED.due_at`);
  }

  /**
   * Records a processing photo's renditions about to be written, as `markPending` does, unless the photo
   * is no longer processing (removed, or settled by another run): false then, and nothing is to be written.
   */
  @GenerateSql({ params: ['pho_1', ['renditions/pho_1/small-0.jpg']] })
  async markRenditionsPending(photoId: string, keys: readonly string[]): Promise<boolean> {
    const rows = await this.sql.rows(sql`
      INSERT INTO photo_file_removals (key, photo_id, due_at)
      SELECT unnest(${keys}::text[]), ${photoId}, now() + make_interval(secs => ${PENDING_FILE_GRACE_SECONDS})
       WHERE EXISTS (SELECT 1 FROM photos WHERE id = ${photoId} AND status = 'processing')
      ON CONFLICT (key) DO UPDATE SET due_at = EXCLUDED.due_at
      RETURNING key`);
    return rows.length > 0;
  }

  /**
   * Makes the removal of pending files due now, for the next sweep: files written for a photo removed
   * meanwhile. A file its photo's row names stays all the same (`removeDueFiles`).
   */
  @GenerateSql({ params: [['renditions/pho_1/small-0.jpg']] })
  async removeSoon(keys: readonly string[]): Promise<void> {
    await this.sql.query(sql`UPDATE photo_file_removals SET due_at = now() WHERE key = ANY (${keys}::text[])`);
  }

  /**
   * Adds a photo in `processing` at the end of the pet's photos, its upload at `upload` (marked pending),
   * unless the pet has `limit` already: undefined then, and the upload goes with the sweep. Rejects with
   * SQLSTATE 23503 when the pet is gone.
   */
  @GenerateSql({ params: ['pho_1', 1, 'originals/pho_1', 10] })
  insert(photoId: string, petId: number, upload: string, limit: number): Promise<PhotoDto | undefined> {
    return this.sql.transaction(async () => {
      await this.lockPhotosOf(petId);
      const rows = await this.sql.rows<PhotoRow>(sql`
        INSERT INTO photos (id, pet_id, position, files)
        SELECT ${photoId}, ${petId}, count(*), ARRAY[${upload}::text]
          FROM photos WHERE pet_id = ${petId} HAVING count(*) < ${limit}
        RETURNING ${PHOTO_COLUMNS}`);
      if (rows[0]) await this.claimPending([upload]);
      return rows[0] && toPhoto(rows[0], this.urls);
    });
  }

  @GenerateSql({ params: [1, 'pho_1'] })
  async find(petId: number, photoId: string): Promise<PhotoDto | undefined> {
    const rows = await this.sql.rows<PhotoRow>(
      sql`SELECT ${PHOTO_COLUMNS} FROM photos WHERE id = ${photoId} AND pet_id = ${petId}`,
    );
    return rows[0] && toPhoto(rows[0], this.urls);
  }

  @GenerateSql({ params: ['pho_1'] })
  async findById(photoId: string): Promise<PhotoDto | undefined> {
    const rows = await this.sql.rows<PhotoRow>(sql`SELECT ${PHOTO_COLUMNS} FROM photos WHERE id = ${photoId}`);
    return rows[0] && toPhoto(rows[0], this.urls);
  }

  @GenerateSql({ name: 'every photo', params: [1, false] }, { name: 'ready ones', params: [1, true] })
  async list(petId: number, readyOnly: boolean): Promise<PhotoDto[]> {
    const rows = await this.sql.rows<PhotoRow>(sql`
      SELECT ${PHOTO_COLUMNS} FROM photos
       WHERE pet_id = ${petId} ${readyOnly ? sql`AND status = 'ready'` : sql.empty}
       ORDER BY position`);
    return rows.map((row) => toPhoto(row, this.urls));
  }

  /**
   * Sets a processing photo ready with its renditions, written at `files` (marked pending), and lists its
   * upload for removal; the pet changes with it. False when it was not processing (any more): the
   * renditions then go with the sweep.
   */
  @GenerateSql({
    params: [1, 'pho_1', { width: 1, height: 1, renditions: {} }, ['renditions/pho_1/small-0.jpg']],
  })
  markReady(petId: number, photoId: string, renditions: Renditions, files: readonly string[]): Promise<boolean> {
    return this.changePet(petId, async () => {
      const settled = await this.settle(
        photoId,
        sql`status = 'ready', width = ${renditions.width}, height = ${renditions.height},
            renditions = ${JSON.stringify(renditions.renditions)}::jsonb, files = ${files}::text[]`,
      );
      if (settled) await this.claimPending(files);
      return { result: settled, petChanged: settled };
    });
  }

  /** Sets a processing photo failed and lists its upload for removal; the pet's photos do not change. */
  @GenerateSql({ params: ['pho_1', 'the image does not decode'] })
  async markFailed(photoId: string, error: string): Promise<void> {
    await this.settle(photoId, sql`status = 'failed', error = ${error}, files = '{}'`);
  }

  /**
   * Moves a photo to `position` (the last place at most), shifting the ones between; the pet changes when
   * the photo is ready. The photo after the move, undefined when it is gone.
   */
  @GenerateSql({ params: [1, 'pho_1', 0] })
  move(petId: number, photoId: string, position: number): Promise<PhotoDto | undefined> {
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
      const moved = row && toPhoto(row, this.urls);
      return { result: moved, petChanged: moved?.status === 'ready' && rows.length > 1 };
    });
  }

  /**
   * Removes a photo, closing the gap it leaves (its files are listed for removal by the `photos` trigger);
   * the pet changes when it was ready. False when it was gone.
   */
  @GenerateSql({ params: [1, 'pho_1'] })
  remove(petId: number, photoId: string): Promise<boolean> {
    return this.changePet(petId, async () => {
      const rows = await this.sql.rows<{ position: number; status: PhotoStatus }>(sql`
        DELETE FROM photos WHERE id = ${photoId} AND pet_id = ${petId} RETURNING position, status`);
      const row = rows[0];
      if (!row) return { result: false, petChanged: false };
      await this.sql.query(sql`
        UPDATE photos SET position = position - 1 WHERE pet_id = ${petId} AND position > ${row.position}`);
      return { result: true, petChanged: row.status === 'ready' };
    });
  }

  /** Photos still processing whose last change is older than `olderThanMs`: their job may be lost. */
  @GenerateSql({ params: [20000, 500] })
  async findProcessing(olderThanMs: number, limit: number): Promise<Array<{ id: string; petId: number }>> {
    const rows = await this.sql.rows<{ id: string; pet_id: string }>(sql`
      SELECT id, pet_id FROM photos
       WHERE status = 'processing' AND updated_at < now() - make_interval(secs => ${olderThanMs / 1000})
       ORDER BY updated_at LIMIT ${limit}`);
    return rows.map((row) => ({ id: row.id, petId: Number(row.pet_id) }));
  }

  /**
   * Takes up to `limit` entries whose removal is due and passes the keys of their files to `remove`, in a
   * transaction that keeps the entries locked until it resolves: a writer listing one of them pending again
   * waits, then writes it anew. A file its photo's row names (a job run twice at once listed it again after
   * the first made the photo ready) loses its entry and stays. The number of entries taken; when `remove`
   * throws, they stay for the next sweep.
   */
  @GenerateSql({ params: [500, async () => undefined] })
  removeDueFiles(limit: number, remove: (keys: string[]) => Promise<void>): Promise<number> {
    return this.sql.transaction(async () => {
      const rows = await this.sql.rows<{ key: string; needed: boolean }>(sql`
        DELETE FROM photo_file_removals removal
         WHERE key IN (SELECT key FROM photo_file_removals WHERE due_at <= now()
                        ORDER BY due_at LIMIT ${limit} FOR UPDATE SKIP LOCKED)
        RETURNING key, EXISTS (SELECT 1 FROM photos WHERE id = removal.photo_id AND removal.key = ANY (files)) AS needed`);
      const unneeded = rows.filter((row) => !row.needed).map((row) => row.key);
      if (unneeded.length > 0) await remove(unneeded);
      return rows.length;
    });
  }

  /**
   * Settles a processing photo with `changes`, listing the files it needed until now (its upload) for
   * removal. False when it was not processing.
   */
  private async settle(photoId: string, changes: SqlFragment): Promise<boolean> {
    const rows = await this.sql.rows(sql`
      WITH before AS (
        SELECT id, files FROM photos WHERE id = ${photoId} AND status = 'processing' FOR UPDATE
      ), settled AS (
        UPDATE photos SET ${changes}, updated_at = now() FROM before WHERE photos.id = before.id
        RETURNING before.files
      ), listed AS (
        INSERT INTO photo_file_removals (key, photo_id) SELECT unnest(files), ${photoId} FROM settled
        ON CONFLICT (key) DO UPDATE SET due_at = now()
      )
      SELECT true AS settled FROM settled`);
    return rows.length > 0;
  }

  /**
   * Takes the pending records of files the row being committed needs. When the sweep took one meanwhile
   * (the grace period passed), the file may be gone: the caller's transaction is rolled back, for its work
   * to be done again.
   */
  private async claimPending(keys: readonly string[]): Promise<void> {
    const rows = await this.sql.rows(sql`
      DELETE FROM photo_file_removals WHERE key = ANY (${keys}::text[]) RETURNING key`);
    if (rows.length < new Set(keys).size) {
      throw new ServiceUnavailableError('A photo file was written too slowly and may be gone; retry shortly.');
    }
  }

  /**
   * Runs `change` on the photos of the pet and returns its result, in one transaction with the pet's change
   * when `change` says the pet's ready photos changed. Locks in the one order every photo change takes: the
   * pet's photos, the clock, the pet's row.
   */
  private changePet<T>(petId: number, change: () => Promise<PhotosChange<T>>): Promise<T> {
    return this.sql.transaction(async () => {
      await this.lockPhotosOf(petId);
      // A pet that is gone took its photos with it (the cascade): `change` then finds none and says so.
      await this.pets.lock(petId);
      const { result, petChanged } = await change();
      if (petChanged) await this.pets.photosChanged(petId);
      return result;
    });
  }

  private async lockPhotosOf(petId: number): Promise<void> {
    await this.sql.query(
      sql`SELECT pg_advisory_xact_lock(${PHOTOS_OF_PET_LOCK}, (${petId}::bigint % 2147483647)::int)`,
    );
  }
}
