import { Batcher } from '@app/core';
import { GenerateSql, WriteBatcher, Sql, sql, SqlFragment } from '@app/database';
import { EventsRecorder, newEventIds } from '@app/events';
import { Injectable } from '@nestjs/common';
import type { CreatePetDto } from './dto/pet.dto';
import type { PetAsStored } from './pet-photo-urls';
import { HOLD_PET_CHANGES, PET_CHANGE } from './pet-changes';
import { petEventRows, petEvents } from './pet-events';
import { WRITABLE_COLUMNS, WRITABLE_FIELDS } from './pet-columns';
import { PET_COLUMNS, PET_VERSION, PetRow, StoredPet, toPet, toStoredPet } from './pet-row';
import type { PetStatus } from './pet-status';

/** A pet to add: its record, and the account whose key adds it. */
export interface NewPet extends CreatePetDto {
  listerAccountId: number;
}

/** The writable fields a change sets: an absent one stays, a null one is cleared. */
export type PetPatch = {
  [Field in keyof CreatePetDto]?: CreatePetDto[Field] | null;
};

/**
 * The patch as the UPDATE merges it over the row (jsonb_populate_record): keys present are set, a field
 * cleared that has a default set back to it (`sex` to `unknown`). A nested object arrives whole (merged over
 * the pet's, RFC 7396, before validation: PetsService.update), and sets each of its members' columns, a member
 * it lacks cleared; a null object clears every member.
 */
function toPatchRow(patch: PetPatch): Record<string, unknown> {
  const columns: Record<string, unknown> = {};
  for (const [field, declaration] of WRITABLE_FIELDS) {
    const value = patch[field];
    if (value === undefined) continue;
    if ('members' in declaration) {
      // The field's value: its declaration has members.
      const members = value as Record<string, unknown> | null;
      for (const [member, column] of Object.entries(declaration.members)) columns[column] = members?.[member] ?? null;
    } else {
      columns[declaration.column] = value ?? declaration.default ?? null;
    }
  }
  return columns;
}

/** The row the INSERT reads from its JSON batch, with the defaults of omitted fields. */
function toInsertedRow(pet: NewPet) {
  const row = toPatchRow(pet);
  for (const [, declaration] of WRITABLE_FIELDS) {
    if ('column' in declaration && declaration.default !== undefined) row[declaration.column] ??= declaration.default;
  }
  return { ...row, lister_account_id: pet.listerAccountId };
}

/** A change of one pet by an account, if the pet is at one of `versions` (any, when absent). */
export interface PetChange {
  petId: number;
  listerAccountId: number;
  patch: PetPatch;
  versions?: string[];
}

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
 * One guarded statement for a batch of changes, each of a different pet, and their `pet.updated` events
 * (`eventIds` by the change's position): the lister, the versions of
 * If-Match, the open order (when the change sets the status) and the new category's existence are checked
 * in its WHERE, which PostgreSQL re-evaluates on the latest row when a concurrent change got there first, so
 * that of two changes made against one version exactly one applies. A change that fails its guard is left
 * out of RETURNING, and costs the others nothing. All the batch's pets take one time, and may be locked in
 * any order (pet-changes.ts).
 */
const updatePets = (changes: PetChange[], events: EventsRecorder, eventIds: string[]) => sql`
  WITH ${PET_CHANGE}, change AS (
    SELECT * FROM ROWS FROM (jsonb_to_recordset(${JSON.stringify(changes.map(toChangeRow))}::jsonb)
                             AS (pet_id bigint, patch jsonb, lister bigint, versions bigint[]))
      WITH ORDINALITY AS c (pet_id, patch, lister, versions, position)
  ), updated AS (
    UPDATE pets p
       SET (${WRITABLE_COLUMNS}) = (SELECT ${WRITABLE_COLUMNS} FROM jsonb_populate_record(p, change.patch)),
           updated_at = pet_change.changed_at
      FROM pet_change, change
     WHERE p.id = change.pet_id AND p.lister_account_id = change.lister
       AND (change.versions IS NULL OR ${PET_VERSION} = ANY (change.versions))
       AND (p.open_order_id IS NULL OR NOT change.patch ? 'status')
       AND (NOT change.patch ? 'category_id'
            OR EXISTS (SELECT FROM categories c WHERE c.id = (change.patch ->> 'category_id')::bigint))
    RETURNING change.position, ${PET_COLUMNS}
  ), recorded AS (${events.recordedBy(petEventRows('pet.updated', sql`updated`, eventIds))})
  SELECT * FROM updated`;

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

/** The removal's guard, as the UPDATE's: any open order stops it. */
const deletePet = ({ petId, listerAccountId, versions }: Omit<PetChange, 'patch'>) => sql`
  DELETE FROM pets
   WHERE id = ${petId} AND lister_account_id = ${listerAccountId} AND open_order_id IS NULL
     AND (${versions ?? null}::bigint[] IS NULL OR ${PET_VERSION} = ANY (${versions ?? null}::bigint[]))
  RETURNING ${PET_COLUMNS}`;

/** A page to read: up to `limit` pets after `afterId`, of one status or any. */
export interface PageRead {
  status?: PetStatus;
  afterId: number;
  limit: number;
}

/** A lister's pet by the lister's own id for it. */
export interface ExternalIdLookup {
  listerAccountId: number;
  externalId: string;
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
export function readPagesStatement(pages: PageRead[]): SqlFragment {
  const statuses = pages.map((page) => page.status ?? null);
  const afterIds = pages.map((page) => page.afterId);
  // One row beyond the page tells whether another page follows.
  const rowCounts = pages.map((page) => page.limit + 1);
  return sql`
  SELECT q.position, p.*
    FROM unnest(${statuses}::text[], ${afterIds}::bigint[], ${rowCounts}::int[])
         WITH ORDINALITY AS q (status, after_id, row_count, position)
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
}

/**
 * The batch's pets and their `pet.created` events (`eventIds` by the pet's position in the batch), as one
 * statement, run as a transaction of its own unless a caller's transaction holds it (`Sql.batched`). Each id
 * is drawn once the change clock is held (pet-changes.ts), whose time becomes each pet's createdAt and
 * updatedAt. Each pet takes the organisation its lister has
 * published, if any, looked up by `lister_organization_id`, a VOLATILE function and so read with
 * a snapshot of its own, taken once the clock is held: publishing or removing an organisation holds the clock
 * too (`setOrganization`), and the statement's own snapshot, taken before it waited, would miss an
 * organisation committed meanwhile. The batch travels as one JSON array of pets rows
 * (jsonb_populate_recordset). RETURNING promises no order, so each row's id is drawn first and the rows are
 * matched to the batch by it; a pet naming no existing category is left out of the INSERT.
 */
const insertPets = (batch: NewPet[], events: EventsRecorder, eventIds: string[]) => sql`
  WITH ${PET_CHANGE}, batch AS (
    SELECT nextval('pets_id_seq') AS id, t.ordinality AS position, pet_change.changed_at, t.lister_account_id,
           ${WRITABLE_COLUMNS}
      FROM pet_change,
           ROWS FROM (jsonb_populate_recordset(NULL::pets, ${JSON.stringify(batch.map(toInsertedRow))}::jsonb))
             WITH ORDINALITY AS t
  ), inserted AS (
    INSERT INTO pets (id, ${WRITABLE_COLUMNS}, lister_account_id, organization_id, created_at, updated_at)
    SELECT id, ${WRITABLE_COLUMNS}, lister_account_id, lister_organization_id(lister_account_id), changed_at, changed_at
      FROM batch
     WHERE EXISTS (SELECT FROM categories c WHERE c.id = batch.category_id)
    RETURNING ${PET_COLUMNS}
  ), created AS (
    SELECT i.*, b.position FROM inserted i JOIN batch b USING (id)
  ), recorded AS (${events.recordedBy(petEventRows('pet.created', sql`created`, eventIds))})
  SELECT * FROM created`;

/**
 * Gives every pet of the account the organisation (none, when null) it has just published or removed;
 * each pet whose `organization_id` changes is a change (pet-changes.ts). It runs once HOLD_PET_CHANGES has
 * taken the clock (see `insertPets`), so no pet the account adds meanwhile misses it.
 */
const setOrganization = (listerAccountId: number, organizationId: string | null) => sql`
  WITH ${PET_CHANGE}
  UPDATE pets SET organization_id = ${organizationId}::text, updated_at = pet_change.changed_at
    FROM pet_change
   WHERE lister_account_id = ${listerAccountId} AND organization_id IS DISTINCT FROM ${organizationId}::text
  RETURNING ${PET_COLUMNS}`;

/** Shared by every request for the same page in a batch: read-only. */
export interface PetPage {
  readonly pets: readonly PetAsStored[];
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
   * them all (pet-changes.ts).
   */
  private readonly changes = new WriteBatcher<PetChange, StoredPet | undefined>((batch) => this.updateBatch(batch));
  /** Pets read by id close together are read with one statement. */
  private readonly idLookups = new Batcher<number, StoredPet | undefined>((ids) => this.lookUpIds(ids), 0);
  /** Syncs asked for close together look their pets up with one statement. */
  private readonly externalIdLookups = new Batcher<ExternalIdLookup, StoredPet | undefined>(
    (lookups) => this.lookUpExternalIds(lookups),
    0,
  );
  /** Pages asked for close together are read with one statement: one round trip and one plan for them all. */
  private readonly pageReads = new Batcher<PageRead, PetPage>((pages) => this.readPages(pages, false), 0);
  /** First pages that may lag, batched apart: read on a replica when one is caught up (`Sql.rowsMayLag`). */
  private readonly laggingPageReads = new Batcher<PageRead, PetPage>((pages) => this.readPages(pages, true), 0);

  constructor(
    private readonly sql: Sql,
    private readonly events: EventsRecorder,
  ) {}

  @GenerateSql({ name: 'any status', params: [{ afterId: 0, limit: 20 }] })
  readPage(page: PageRead): Promise<PetPage> {
    // A walk's next pages, and an account's reads after its change, on the primary (PetSearchRepository.search).
    const mayLag = page.afterId === 0 && this.sql.readsMayLag;
    return this.sql.batched(mayLag ? this.laggingPageReads : this.pageReads, page);
  }

  /**
   * The new pet; undefined when its category does not exist, so a client's mistake costs the others'
   * batch nothing. Rejects with SQLSTATE 23503 when the category was removed during the INSERT.
   */
  @GenerateSql({ params: [{ name: 'Rex', categoryId: 1, listerAccountId: 1 }] })
  insert(pet: NewPet): Promise<StoredPet | undefined> {
    return this.sql.batched(this.inserts, pet);
  }

  @GenerateSql({ params: [1] })
  findById(petId: number): Promise<StoredPet | undefined> {
    return this.sql.batched(this.idLookups, petId);
  }

  /** The lister's pet with this external id (served by `pets_lister_external_id_key`). */
  @GenerateSql({ params: [{ listerAccountId: 1, externalId: 'A-1' }] })
  findByExternalId(lookup: ExternalIdLookup): Promise<StoredPet | undefined> {
    return this.sql.batched(this.externalIdLookups, lookup);
  }

  /**
   * Gives each of the account's pets the organisation it has just published (or none, when null), with a
   * `pet.updated` event each: in the caller's transaction, which must be the one that publishes or
   * removes the organisation, so that the pets change if and only if it commits.
   */
  @GenerateSql({ params: [1, 'org_1'] })
  async setOrganization(listerAccountId: number, organizationId: string | null): Promise<void> {
    await this.sql.transaction(async () => {
      await this.sql.query(HOLD_PET_CHANGES);
      const rows = await this.sql.rows<PetRow>(setOrganization(listerAccountId, organizationId));
      await this.events.recordAll(rows.flatMap((row) => petEvents('pet.updated', toStoredPet(row))));
    });
  }

  /**
   * Applies `change` to the pet if the guard lets it: undefined when the pet is missing, is not the
   * lister's, has none of the versions (when given), has an open order while the change sets its status,
   * or the new category does not exist. Its `pet.updated` event commits with it. Rejects with SQLSTATE
   * 23503 when the new category was removed during the UPDATE.
   */
  @GenerateSql({ params: [{ petId: 1, listerAccountId: 1, patch: { name: 'Max' } }] })
  update(change: PetChange): Promise<StoredPet | undefined> {
    return this.sql.batched(this.changes, change);
  }

  /**
   * Removes the pet if the same guard as `update`'s lets it (any open order stops it): the pet as it was,
   * or undefined when it did not.
   */
  @GenerateSql({ params: [{ petId: 1, listerAccountId: 1 }] })
  async delete(removal: Omit<PetChange, 'patch'>): Promise<StoredPet | undefined> {
    const rows = await this.sql.rows<PetRow>(deletePet(removal));
    return rows[0] && toStoredPet(rows[0]);
  }

  @GenerateSql()
  async listCategories(): Promise<Array<{ id: number; name: string }>> {
    const rows = await this.sql.rows<{ id: string; name: string }>(sql`SELECT id, name FROM categories ORDER BY id`);
    return rows.map((row) => ({ id: Number(row.id), name: row.name }));
  }

  /** Each lookup's pet, in the batch's order: one index probe of `pets_lister_external_id_key` each. */
  private async lookUpIds(ids: number[]): Promise<Array<StoredPet | undefined>> {
    const rows = await this.sql.rows<PetRow>(sql`SELECT ${PET_COLUMNS} FROM pets WHERE id = ANY(${ids}::bigint[])`);
    const byId = new Map(rows.map((row) => toStoredPet(row)).map((stored) => [stored.pet.id, stored]));
    return ids.map((id) => byId.get(id));
  }

  private async lookUpExternalIds(lookups: ExternalIdLookup[]): Promise<Array<StoredPet | undefined>> {
    const listers = lookups.map((lookup) => lookup.listerAccountId);
    const externalIds = lookups.map((lookup) => lookup.externalId);
    const rows = await this.sql.rows<PetRow & { position: string }>(sql`
      SELECT q.position, ${PET_COLUMNS}
        FROM unnest(${listers}::bigint[], ${externalIds}::text[]) WITH ORDINALITY AS q (lister, external, position)
        JOIN pets ON lister_account_id = q.lister AND external_id = q.external`);
    const found: Array<StoredPet | undefined> = lookups.map(() => undefined);
    for (const row of rows) found[Number(row.position) - 1] = toStoredPet(row);
    return found;
  }

  /**
   * Requests for the same page in one batch (above all, every client's first page) share its read:
   * in one statement they would all get the same rows anyway.
   */
  private async readPages(requested: PageRead[], mayLag: boolean): Promise<PetPage[]> {
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
    type Row = PetRow & { position: string };
    const statement = readPagesStatement(pages);
    const rows = await (mayLag ? this.sql.rowsMayLag<Row>(statement) : this.sql.rows<Row>(statement));
    const pageRows: PetRow[][] = pages.map(() => []);
    for (const row of rows) pageRows[Number(row.position) - 1]!.push(row);
    const read = pages.map((page, i) => toPage(pageRows[i]!, page.limit));
    return pageIndexes.map((index) => read[index]!);
  }

  /**
   * The new pets in the batch's order, undefined for a pet naming no existing category. Their `pet.created`
   * events, to each pet's lister, are recorded by the same statement.
   */
  private async insertBatch(batch: NewPet[]): Promise<Array<StoredPet | undefined>> {
    const eventIds = newEventIds(batch.length);
    const rows = await this.sql.rows<PetRow & { position: string }>(insertPets(batch, this.events, eventIds));
    const created: Array<StoredPet | undefined> = batch.map(() => undefined);
    for (const row of rows) created[Number(row.position) - 1] = toStoredPet(row);
    return created;
  }

  /**
   * The pets after the changes, in the batch's order, undefined for a change whose guard refused it. Their
   * `pet.updated` events, to each pet's lister, are recorded by the statement of their round. A batch of one
   * round is one statement; the rounds of a larger one commit together, as the batch is written again whole
   * when it fails (WriteBatcher).
   */
  private updateBatch(batch: PetChange[]): Promise<Array<StoredPet | undefined>> {
    const batchRounds = rounds(batch);
    const applyRounds = async () => {
      const updated: Array<StoredPet | undefined> = batch.map(() => undefined);
      for (const round of batchRounds) {
        const eventIds = newEventIds(round.length);
        const changes = round.map(({ change }) => change);
        const rows = await this.sql.rows<PetRow & { position: string }>(updatePets(changes, this.events, eventIds));
        for (const row of rows) updated[round[Number(row.position) - 1]!.index] = toStoredPet(row);
      }
      return updated;
    };
    return batchRounds.length === 1 ? applyRounds() : this.sql.transaction(applyRounds);
  }
}
