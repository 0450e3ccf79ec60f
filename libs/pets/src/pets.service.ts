import { Sql, sqlState } from '@app/core';
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
      const rows = await this.sql.rows<PetRow>(
        'INSERT INTO pets (name, category_id, status) VALUES ($1, $2, $3) RETURNING id, name, category_id, status',
        [pet.name, pet.categoryId, pet.status ?? 'available'],
      );
      return toPet(rows[0]!);
    } catch (error) {
      if (sqlState(error) === FOREIGN_KEY_VIOLATION) {
        throw new UnknownCategoryError(pet.categoryId);
      }
      throw error;
    }
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
