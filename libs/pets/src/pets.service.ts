import { InsertBatcher, Sql, sqlState } from '@app/core';
import { Injectable } from '@nestjs/common';
import type { NewPetDto, PetDto } from './dto/pet.dto';
import { PetNotFoundError, UnknownCategoryError } from './pet.errors';
import type { PetStatus } from './pet-status';

const FOREIGN_KEY_VIOLATION = '23503';

interface PetRow {
  id: string;
  name: string;
  category_id: string;
  status: PetStatus;
}

function toPet(row: PetRow): PetDto {
  return { id: Number(row.id), name: row.name, categoryId: Number(row.category_id), status: row.status };
}

export interface PetPage {
  pets: PetDto[];
  /** Id of the last pet returned, when more follow. */
  lastId?: number;
}

/**
 * The catalogue. Reads are one SQL statement each (raw SQL on this hot path: the ORM's entity
 * mapping costs more than the query); listing is keyset-paginated so deep pages cost what the first does.
 */
@Injectable()
export class PetsService {
  /** Pets added close together are inserted with one statement, one commit for them all. */
  private readonly createBatches = new InsertBatcher<NewPetDto, PetDto | undefined>((batch) => this.insert(batch));

  constructor(private readonly sql: Sql) {}

  async list(options: { limit: number; status?: PetStatus; afterId?: number }): Promise<PetPage> {
    const { limit, status, afterId = 0 } = options;
    // One row beyond the page tells whether another page follows.
    const rows = status
      ? await this.sql.rows<PetRow>(
          'SELECT id, name, category_id, status FROM pets WHERE status = $1 AND id > $2 ORDER BY id LIMIT $3',
          [status, afterId, limit + 1],
        )
      : await this.sql.rows<PetRow>(
          'SELECT id, name, category_id, status FROM pets WHERE id > $1 ORDER BY id LIMIT $2',
          [afterId, limit + 1],
        );
    const pets = rows.slice(0, limit).map(toPet);
    return { pets, lastId: rows.length > limit ? pets[pets.length - 1]!.id : undefined };
  }

  async create(pet: NewPetDto): Promise<PetDto> {
    try {
      const created = await this.createBatches.add(pet);
      if (created) return created;
    } catch (error) {
      // A category removed while its pet was being inserted.
      if (sqlState(error) !== FOREIGN_KEY_VIOLATION) throw error;
    }
    throw new UnknownCategoryError(pet.categoryId);
  }

  /**
   * The new pets in the batch's order, undefined for a pet naming no existing category: those are
   * left out of the INSERT, so a client's mistake costs the others' batch nothing. RETURNING
   * promises no order, so each row's id is drawn first and the rows are matched to the batch by it.
   */
  private async insert(batch: NewPetDto[]): Promise<Array<PetDto | undefined>> {
    const rows = await this.sql.rows<PetRow & { position: string }>(
      `WITH batch AS (
         SELECT nextval('pets_id_seq') AS id, name, category_id, status, position
           FROM unnest($1::text[], $2::bigint[], $3::text[]) WITH ORDINALITY AS t (name, category_id, status, position)
       ), inserted AS (
         INSERT INTO pets (id, name, category_id, status)
         SELECT b.id, b.name, b.category_id, b.status FROM batch b JOIN categories c ON c.id = b.category_id
         RETURNING id, name, category_id, status
       )
       SELECT i.id, i.name, i.category_id, i.status, b.position FROM inserted i JOIN batch b USING (id)`,
      [batch.map((pet) => pet.name), batch.map((pet) => pet.categoryId), batch.map((pet) => pet.status ?? 'available')],
    );
    const created: Array<PetDto | undefined> = batch.map(() => undefined);
    for (const row of rows) created[Number(row.position) - 1] = toPet(row);
    return created;
  }

  async get(petId: number): Promise<PetDto> {
    const rows = await this.sql.rows<PetRow>('SELECT id, name, category_id, status FROM pets WHERE id = $1', [petId]);
    if (!rows[0]) throw new PetNotFoundError(petId);
    return toPet(rows[0]);
  }

  listCategories(): Promise<Array<{ id: number; name: string }>> {
    return this.sql
      .rows<{ id: string; name: string }>('SELECT id, name FROM categories ORDER BY id')
      .then((rows) => rows.map((row) => ({ id: Number(row.id), name: row.name })));
  }
}
