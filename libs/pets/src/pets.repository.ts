import { Batcher } from '@app/core';
import { WriteBatcher, Sql } from '@app/database';
import { EventsRecorder, NewEvent } from '@app/events';
import { Injectable } from '@nestjs/common';
import type { CreatePetDto, PetDto } from './dto/pet.dto';
import { PET_CHANGE, petChangeAfter } from './pet-changes';
import { petEvents } from './pet-events';
import { PET_COLUMNS, PET_VERSION, PetRow, StoredPet, toPet, toStoredPet } from './pet-row';
import type { PetStatus } from './pet-status';

/**
 * Advisory lock held by each pet INSERT from before it draws ids until it commits: in every process,
 * the ids then become visible in the order they were drawn, so a reader that has paged past one never
 * finds a smaller one committed later. (Keys are 7_310_442_0NN; database and messaging hold the others.)
 */
export const PET_IDS_LOCK = 7_310_442_002;

/** A pet to add: its record, and the account whose key adds it. */
export interface NewPet extends CreatePetDto {
  listerAccountId: number;
}

/** The row the INSERT reads from its JSON batch, with the defaults of omitted fields. */
function toInsertedRow(pet: NewPet) {
  return {
    name: pet.name,
    category_id: pet.categoryId,
    status: pet.status ?? 'available',
    description: pet.description,
    breed: pet.breed,
    sex: pet.sex ?? 'unknown',
    age_group: pet.ageGroup,
    size: pet.size,
    tags: pet.tags,
    photo_urls: pet.photoUrls,
    latitude: pet.location?.latitude,
    longitude: pet.location?.longitude,
    lister_account_id: pet.listerAccountId,
  };
}

/** The writable fields a change sets: an absent one stays, a null one is cleared. */
export type PetPatch = {
  [Field in keyof CreatePetDto]?: CreatePetDto[Field] | null;
};

/** A change of one pet by an account, if the pet is at one of `versions` (any, when absent). */
export interface PetChange {
  petId: number;
  listerAccountId: number;
  patch: PetPatch;
  versions?: string[];
}

/** The patch as the UPDATE merges it over the row (jsonb_populate_record): keys present are set. */
function toPatchRow(patch: PetPatch): Record<string, unknown> {
  const columns: Record<string, unknown> = {};
  const set = (column: string, value: unknown) => {
    if (value !== undefined) columns[column] = value;
  };
  set('name', patch.name);
  set('category_id', patch.categoryId);
  set('status', patch.status);
  set('description', patch.description);
  set('breed', patch.breed);
  // Clearing the sex sets it back to its default.
  set('sex', patch.sex === null ? 'unknown' : patch.sex);
  set('age_group', patch.ageGroup);
  set('size', patch.size);
  set('tags', patch.tags);
  set('photo_urls', patch.photoUrls);
  if (patch.location !== undefined) {
    set('latitude', patch.location?.latitude ?? null);
    set('longitude', patch.location?.longitude ?? null);
  }
  return columns;
}

/** The row's writable columns, set from the patch merged over the row. */
const WRITABLE = `name, category_id, status, description, breed, sex, age_group, size, tags, photo_urls, latitude, longitude`;

/** A change as the UPDATE reads it from its JSON batch (`versions` as text: they exceed a double's precision). */
function toChangeRow(change: PetChange) {
  return {
    pet_id: change.petId,
    patch: toPatchRow(change.patch),
    lister: change.listerAccountId,
    versions: change.versions ?? null,
  };
}

/**
 * One guarded statement for a batch of changes, each of a different pet: the lister, the versions of
 * If-Match, the open order (when the change sets the status) and the new category's existence are checked
 * in its WHERE, which PostgreSQL re-evaluates on the latest row when a concurrent change got there first, so
 * that of two changes made against one version exactly one applies. A change that fails its guard is left
 * out of RETURNING, and costs the others nothing. All the batch's pets take one time (pet-changes.ts),
 * and are locked only once the clock is drawn: so no lock order is needed, as no other change can hold a
 * pet meanwhile, on any process.
 */
const UPDATE_PETS = `
  WITH ${PET_CHANGE}, change AS (
    SELECT * FROM ROWS FROM (jsonb_to_recordset($1::jsonb) AS (pet_id bigint, patch jsonb, lister bigint, versions bigint[]))
      WITH ORDINALITY AS c (pet_id, patch, lister, versions, position)
  )
  UPDATE pets p
     SET (${WRITABLE}) = (SELECT ${WRITABLE} FROM jsonb_populate_record(p, change.patch)),
         updated_at = pet_change.changed_at
    FROM pet_change, change
   WHERE p.id = change.pet_id AND p.lister_account_id = change.lister
     AND (change.versions IS NULL OR ${PET_VERSION} = ANY (change.versions))
     AND (p.open_order_id IS NULL OR NOT change.patch ? 'status')
     AND (NOT change.patch ? 'category_id'
          OR EXISTS (SELECT FROM categories c WHERE c.id = (change.patch ->> 'category_id')::bigint))
  RETURNING change.position, ${PET_COLUMNS}`;

/**
 * The batch's changes in rounds, each of which has at most one change per pet, in the order they came:
 * a statement that matched one pet twice would apply one change of the two, arbitrarily, and leave the other
 * to look refused. Each round sees the rounds before it, as if the changes had come one after another.
 */
function rounds(batch: PetChange[]): Array<Array<{ change: PetChange; index: number }>> {
  const rounds: Array<Array<{ change: PetChange; index: number }>> = [];
  const changesOfPet = new Map<number, number>();
  batch.forEach((change, index) => {
    const round = changesOfPet.get(change.petId) ?? 0;
    changesOfPet.set(change.petId, round + 1);
    (rounds[round] ??= []).push({ change, index });
  });
  return rounds;
}

/** The removal's guard, as UPDATE_PETS's: any open order stops it. */
const DELETE_PET = `
  DELETE FROM pets
   WHERE id = $1 AND lister_account_id = $2 AND open_order_id IS NULL
     AND ($3::bigint[] IS NULL OR ${PET_VERSION} = ANY ($3::bigint[]))
  RETURNING ${PET_COLUMNS}`;

/** A page to read: up to `limit` pets after `afterId`, of one status or any. */
export interface PageRead {
  status?: PetStatus;
  afterId: number;
  limit: number;
}

/** Which page a read asks for: a status word and two numbers, so the joined key cannot be ambiguous. */
function pageKey(page: PageRead): string {
  return `${page.status ?? ''} ${page.afterId} ${page.limit}`;
}

/**
 * Every page of a batch in one statement, each a LATERAL subquery over its own index: the primary key
 * for any status, the (status, id) index for one. The planner cannot see which status a page asks for;
 * given `status = q.status` it would walk the primary key filtering by status (900,000 pets for a page 90 %
 * deep). The range written as two bounds of (status, id) instead is that index's own range, so it takes it.
 */
export const READ_PAGES = `
  SELECT q.position, p.*
    FROM unnest($1::text[], $2::bigint[], $3::int[]) WITH ORDINALITY AS q (status, after_id, row_count, position)
   CROSS JOIN LATERAL (
     (SELECT ${PET_COLUMNS} FROM pets
       WHERE q.status IS NULL AND id > q.after_id
       ORDER BY id LIMIT q.row_count)
     UNION ALL
     (SELECT ${PET_COLUMNS} FROM pets
       WHERE q.status IS NOT NULL AND (status, id) > (q.status, q.after_id) AND status <= q.status
       ORDER BY status, id LIMIT q.row_count)
   ) p
   ORDER BY q.position, p.id`;

/**
 * The batch's ids are drawn under PET_IDS_LOCK: joining its CTE makes the lock come before any nextval,
 * and before the change clock (pet-changes.ts), whose time becomes each pet's createdAt and updatedAt.
 * The batch travels as one JSON array, since its tags and photo URLs are arrays themselves. RETURNING
 * promises no order, so each row's id is drawn first and the rows are matched to the batch by it; a pet
 * naming no existing category is left out of the INSERT.
 */
const INSERT_PETS = `
  WITH ids_in_commit_order AS (
    SELECT pg_advisory_xact_lock($2)
  ), ${petChangeAfter('ids_in_commit_order')}, batch AS (
    SELECT nextval('pets_id_seq') AS id, t.*, pet_change.changed_at
      FROM pet_change,
           ROWS FROM (jsonb_to_recordset($1::jsonb) AS (
             name text, category_id bigint, status text, description text, breed text, sex text, age_group text,
             size text, tags text[], photo_urls text[], latitude double precision, longitude double precision,
             lister_account_id bigint
           )) WITH ORDINALITY AS t (name, category_id, status, description, breed, sex, age_group, size, tags,
             photo_urls, latitude, longitude, lister_account_id, position)
  ), inserted AS (
    INSERT INTO pets (id, name, category_id, status, description, breed, sex, age_group, size, tags, photo_urls,
                      latitude, longitude, lister_account_id, created_at, updated_at)
    SELECT b.id, b.name, b.category_id, b.status, b.description, b.breed, b.sex, b.age_group, b.size, b.tags,
           b.photo_urls, b.latitude, b.longitude, b.lister_account_id, b.changed_at, b.changed_at
      FROM batch b JOIN categories c ON c.id = b.category_id
    RETURNING ${PET_COLUMNS}
  )
  SELECT i.*, b.position FROM inserted i JOIN batch b USING (id)`;

/** Shared by every request for the same page in a batch: read-only. */
export interface PetPage {
  readonly pets: readonly PetDto[];
  /** Id of the last pet returned, when more follow. */
  readonly lastId?: number;
}

/** `rows` holds one row beyond the page when another page follows. */
function toPage(rows: PetRow[], limit: number): PetPage {
  const pets = rows.slice(0, limit).map(toPet);
  return { pets, lastId: rows.length > limit ? pets[pets.length - 1]!.id : undefined };
}

/**
 * Pets and categories in PostgreSQL, in raw SQL (on these hot paths an ORM's entity mapping costs more
 * than the query). Pages are keyset-paginated, so deep pages cost what the first does.
 */
@Injectable()
export class PetsRepository {
  /** Pets added close together are inserted with one statement, one commit for them all. */
  private readonly inserts = new WriteBatcher<NewPet, StoredPet | undefined>((batch) => this.insertBatch(batch));
  /**
   * Changes asked for close together are applied with one statement (per round, `rounds`) and one commit for
   * them all: the change clock is then held for one commit per batch rather than per change.
   */
  private readonly changes = new WriteBatcher<PetChange, StoredPet | undefined>((batch) => this.updateBatch(batch));
  /** Pages asked for close together are read with one statement: one round trip and one plan for them all. */
  private readonly pageReads = new Batcher<PageRead, PetPage>((pages) => this.readPages(pages), 0);

  constructor(
    private readonly sql: Sql,
    private readonly events: EventsRecorder,
  ) {}

  readPage(page: PageRead): Promise<PetPage> {
    return this.sql.batched(this.pageReads, page);
  }

  /**
   * The new pet; undefined when its category does not exist, so a client's mistake costs the others'
   * batch nothing. Rejects with SQLSTATE 23503 when the category was removed during the INSERT.
   */
  insert(pet: NewPet): Promise<StoredPet | undefined> {
    return this.sql.batched(this.inserts, pet);
  }

  async findById(petId: number): Promise<StoredPet | undefined> {
    const rows = await this.sql.rows<PetRow>(`SELECT ${PET_COLUMNS} FROM pets WHERE id = $1`, [petId]);
    return rows[0] && toStoredPet(rows[0]);
  }

  /**
   * Applies `change` to the pet if the guard lets it: undefined when the pet is missing, is not the
   * lister's, has none of the versions (when given), has an open order while the change sets its status,
   * or the new category does not exist. Its `pet.updated` event commits with it. Rejects with SQLSTATE
   * 23503 when the new category was removed during the UPDATE.
   */
  update(change: PetChange): Promise<StoredPet | undefined> {
    return this.sql.batched(this.changes, change);
  }

  /**
   * Removes the pet if the same guard as `update`'s lets it (any open order stops it): the pet as it was,
   * or undefined when it did not.
   */
  async delete(removal: Omit<PetChange, 'patch'>): Promise<StoredPet | undefined> {
    const rows = await this.sql.rows<PetRow>(DELETE_PET, [
      removal.petId,
      removal.listerAccountId,
      removal.versions ?? null,
    ]);
    return rows[0] && toStoredPet(rows[0]);
  }

  async listCategories(): Promise<Array<{ id: number; name: string }>> {
    const rows = await this.sql.rows<{ id: string; name: string }>('SELECT id, name FROM categories ORDER BY id');
    return rows.map((row) => ({ id: Number(row.id), name: row.name }));
  }

  /**
   * Requests for the same page in one batch (above all, every client's first page) share its read:
   * in one statement they would all get the same rows anyway.
   */
  private async readPages(requested: PageRead[]): Promise<PetPage[]> {
    const pages: PageRead[] = [];
    const indexByKey = new Map<string, number>();
    // For each request, where its page is in `pages`.
    const pageIndexes = requested.map((page) => {
      const key = pageKey(page);
      let index = indexByKey.get(key);
      if (index === undefined) {
        index = pages.push(page) - 1;
        indexByKey.set(key, index);
      }
      return index;
    });
    const rows = await this.sql.rows<PetRow & { position: string }>(READ_PAGES, [
      pages.map((page) => page.status ?? null),
      pages.map((page) => page.afterId),
      // One row beyond the page tells whether another page follows.
      pages.map((page) => page.limit + 1),
    ]);
    const pageRows: PetRow[][] = pages.map(() => []);
    for (const row of rows) pageRows[Number(row.position) - 1]!.push(row);
    const read = pages.map((page, i) => toPage(pageRows[i]!, page.limit));
    return pageIndexes.map((index) => read[index]!);
  }

  /**
   * The new pets in the batch's order, undefined for a pet naming no existing category. Their
   * `pet.created` events, to each pet's lister, commit with them: one more INSERT per batch, not per pet.
   */
  private insertBatch(batch: NewPet[]): Promise<Array<StoredPet | undefined>> {
    return this.sql.transaction(async () => {
      const rows = await this.sql.rows<PetRow & { position: string }>(INSERT_PETS, [
        JSON.stringify(batch.map(toInsertedRow)),
        PET_IDS_LOCK,
      ]);
      const created: Array<StoredPet | undefined> = batch.map(() => undefined);
      for (const row of rows) created[Number(row.position) - 1] = toStoredPet(row);
      await this.events.recordAll(created.flatMap((stored) => (stored ? petEvents('pet.created', stored) : [])));
      return created;
    });
  }

  /**
   * The pets after the changes, in the batch's order, undefined for a change whose guard refused it. Their
   * `pet.updated` events, to each pet's lister, commit with them: one more INSERT per batch, not per change.
   */
  private updateBatch(batch: PetChange[]): Promise<Array<StoredPet | undefined>> {
    return this.sql.transaction(async () => {
      const updated: Array<StoredPet | undefined> = batch.map(() => undefined);
      const events: NewEvent[] = [];
      for (const round of rounds(batch)) {
        const rows = await this.sql.rows<PetRow & { position: string }>(UPDATE_PETS, [
          JSON.stringify(round.map(({ change }) => toChangeRow(change))),
        ]);
        const applied: Array<StoredPet | undefined> = round.map(() => undefined);
        for (const row of rows) applied[Number(row.position) - 1] = toStoredPet(row);
        applied.forEach((stored, i) => {
          if (!stored) return;
          updated[round[i]!.index] = stored;
          events.push(...petEvents('pet.updated', stored));
        });
      }
      await this.events.recordAll(events);
      return updated;
    });
  }
}
