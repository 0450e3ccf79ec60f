import { Batcher, InsertBatcher, Sql } from '@app/database';
import { Injectable } from '@nestjs/common';
import type { NewPetDto, PetDto } from './dto/pet.dto';
import type { PetStatus } from './pet-status';

/**
 * Advisory lock held by each pet INSERT from before it draws ids until it commits: in every process,
 * the ids then become visible in the order they were drawn, so a reader that has paged past one never
 * finds a smaller one committed later. (Keys are 7_310_442_0NN; database and messaging hold the others.)
 */
export const PET_IDS_LOCK = 7_310_442_002;

interface PetRow {
  id: string;
  name: string;
  category_id: string;
  status: PetStatus;
}

function toPet(row: PetRow): PetDto {
  return { id: Number(row.id), name: row.name, categoryId: Number(row.category_id), status: row.status };
}

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
 * for any status, the (status, id) index for one. The planner cannot see which status a page asks for,
 * and would walk the primary key filtering by status; the row comparison makes the range an index
 * condition of (status, id), so it takes that index.
 */
const READ_PAGES = `
  SELECT q.position, p.id, p.name, p.category_id, p.status
    FROM unnest($1::text[], $2::bigint[], $3::int[]) WITH ORDINALITY AS q (status, after_id, row_count, position)
   CROSS JOIN LATERAL (
     (SELECT id, name, category_id, status FROM pets
       WHERE q.status IS NULL AND id > q.after_id
       ORDER BY id LIMIT q.row_count)
     UNION ALL
     (SELECT id, name, category_id, status FROM pets
       WHERE q.status IS NOT NULL AND status = q.status AND (status, id) > (q.status, q.after_id)
       ORDER BY status, id LIMIT q.row_count)
   ) p
   ORDER BY q.position, p.id`;

/**
 * The batch's ids are drawn under PET_IDS_LOCK: joining its CTE makes the lock come before any nextval.
 * RETURNING promises no order, so each row's id is drawn first and the rows are matched to the batch by it;
 * a pet naming no existing category is left out of the INSERT.
 */
const INSERT_PETS = `
  WITH ids_in_commit_order AS (
    SELECT pg_advisory_xact_lock($4)
  ), batch AS (
    SELECT nextval('pets_id_seq') AS id, name, category_id, status, position
      FROM ids_in_commit_order,
           unnest($1::text[], $2::bigint[], $3::text[]) WITH ORDINALITY AS t (name, category_id, status, position)
  ), inserted AS (
    INSERT INTO pets (id, name, category_id, status)
    SELECT b.id, b.name, b.category_id, b.status FROM batch b JOIN categories c ON c.id = b.category_id
    RETURNING id, name, category_id, status
  )
  SELECT i.id, i.name, i.category_id, i.status, b.position FROM inserted i JOIN batch b USING (id)`;

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
  private readonly inserts = new InsertBatcher<NewPetDto, PetDto | undefined>((batch) => this.insertBatch(batch));
  /** Pages asked for close together are read with one statement: one round trip and one plan for them all. */
  private readonly pageReads = new Batcher<PageRead, PetPage>((pages) => this.readPages(pages), 0);

  constructor(private readonly sql: Sql) {}

  readPage(page: PageRead): Promise<PetPage> {
    return this.sql.batched(this.pageReads, page);
  }

  /**
   * The new pet; undefined when its category does not exist, so a client's mistake costs the others'
   * batch nothing. Rejects with SQLSTATE 23503 when the category was removed during the INSERT.
   */
  insert(pet: NewPetDto): Promise<PetDto | undefined> {
    return this.sql.batched(this.inserts, pet);
  }

  async findById(petId: number): Promise<PetDto | undefined> {
    const rows = await this.sql.rows<PetRow>('SELECT id, name, category_id, status FROM pets WHERE id = $1', [petId]);
    return rows[0] && toPet(rows[0]);
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

  /** The new pets in the batch's order, undefined for a pet naming no existing category. */
  private async insertBatch(batch: NewPetDto[]): Promise<Array<PetDto | undefined>> {
    const rows = await this.sql.rows<PetRow & { position: string }>(INSERT_PETS, [
      batch.map((pet) => pet.name),
      batch.map((pet) => pet.categoryId),
      batch.map((pet) => pet.status ?? 'available'),
      PET_IDS_LOCK,
    ]);
    const created: Array<PetDto | undefined> = batch.map(() => undefined);
    for (const row of rows) created[Number(row.position) - 1] = toPet(row);
    return created;
  }
}
