import { sql } from '@app/database';
import type { Pool } from 'pg';
import type { PetAsStored } from './pet-photo-urls';
import { PET_COLUMNS, type PetRow, toPet } from './pet-row';

/**
 * The catalogue's first `limit` pets by id, read with a bare pg pool as `GET /v1/pets` reads a page (one row
 * more than it answers) and mapped as it maps them: the stores' share of a list request and nothing else,
 * which the bench's ceiling measures.
 */
export async function readFirstPetsPage(pool: Pick<Pool, 'query'>, limit: number): Promise<PetAsStored[]> {
  const page = sql`SELECT ${PET_COLUMNS} FROM pets WHERE id > ${0} ORDER BY id LIMIT ${limit + 1}`;
  const { rows } = await pool.query<PetRow>(page.text, [...page.values]);
  return rows.slice(0, limit).map(toPet);
}
