import { GenerateSql, Sql, sql } from '@app/database';
import type { PetDto } from '@app/pets';
import { Injectable } from '@nestjs/common';

/**
 * Class and object of the advisory lock a matcher's batch holds: one batch at a time across all workers, so
 * that each pet's changes are matched in their order against the match state the previous batch left.
 */
const MATCHER_LOCK = sql`731044207, 0`;

/** A pair the filters decided in JavaScript let through, for PostgreSQL to decide `q` and `near`. */
export interface DatabasePair {
  /** Index of the pet in the batch's pets. */
  pet: number;
  q?: string;
  near?: { latitude: number; longitude: number; radiusKm: number };
}

/** A saved search × pet that matches, as `saved_search_matches` holds it. */
export interface Match {
  petId: number;
  savedSearchId: string;
}

/** `saved_search_matches`: which saved searches each pet currently matches, so that only a new match alerts. */
@Injectable()
export class SavedSearchMatchesRepository {
  constructor(private readonly sql: Sql) {}

  /** Takes the matcher's lock for the caller's transaction, unless another worker's batch holds it. */
  @GenerateSql()
  async lockMatcher(): Promise<boolean> {
    const [row] = await this.sql.rows<{ locked: boolean }>(
      sql`SELECT pg_try_advisory_xact_lock(${MATCHER_LOCK}) AS locked`,
    );
    return row!.locked;
  }

  @GenerateSql({ params: [[1, 2]] })
  async current(petIds: number[]): Promise<Match[]> {
    const rows = await this.sql.rows<{ pet_id: string; saved_search_id: string }>(
      sql`SELECT pet_id, saved_search_id FROM saved_search_matches WHERE pet_id = ANY (${petIds}::bigint[])`,
    );
    return rows.map((row) => ({ petId: Number(row.pet_id), savedSearchId: row.saved_search_id }));
  }

  /** Records the matches that ended and those that began; a search removed meanwhile fails its foreign key. */
  @GenerateSql({ params: [[{ petId: 1, savedSearchId: 'srch_1' }], [{ petId: 2, savedSearchId: 'srch_1' }]] })
  async apply(ended: Match[], begun: Match[]): Promise<void> {
    if (ended.length > 0) {
      await this.sql.query(
        sql`DELETE FROM saved_search_matches m
             USING unnest(${ended.map((match) => match.petId)}::bigint[], ${ended.map((match) => match.savedSearchId)}::text[])
                AS ended (pet_id, saved_search_id)
            WHERE m.pet_id = ended.pet_id AND m.saved_search_id = ended.saved_search_id`,
      );
    }
    if (begun.length > 0) {
      await this.sql.query(
        sql`INSERT INTO saved_search_matches (pet_id, saved_search_id)
            SELECT * FROM unnest(${begun.map((match) => match.petId)}::bigint[], ${begun.map((match) => match.savedSearchId)}::text[])`,
      );
    }
  }

  /**
   * Which of the pairs pass their `q` and `near`, decided by the expressions `listPets` runs: the pet's words
   * as `pets_search_idx` holds them (libs/pets pet-search.repository's SEARCH_DOCUMENT) and the earth
   * distance `near` compares. One statement for the batch; each pet's words are made once, into an array the
   * pairs index (a join of the pairs with the pets would be planned blind, as a nested loop).
   */
  @GenerateSql({
    params: [[{ id: 1, name: 'Rex', categoryId: 1, status: 'available', sex: 'male' }], [{ pet: 0, q: 'rex' }]],
  })
  async passing(pets: readonly PetDto[], pairs: readonly DatabasePair[]): Promise<Set<number>> {
    if (pairs.length === 0) return new Set();
    const located = pairs.map((pair) => pets[pair.pet]!.location);
    const rows = await this.sql.rows<{ pair: number }>(
      sql`WITH pets AS (
            SELECT array_agg(to_tsvector('pet_search'::regconfig, name || ' ' || coalesce(breed, '') || ' ' || coalesce(description, ''))
                             ORDER BY pet) AS words
              FROM unnest(${pets.map((pet) => pet.name)}::text[], ${pets.map((pet) => pet.breed ?? null)}::text[],
                          ${pets.map((pet) => pet.description ?? null)}::text[])
                   WITH ORDINALITY AS p (name, breed, description, pet))
          SELECT c.pair::int AS pair
            FROM pets, unnest(${pairs.map((pair) => pair.pet + 1)}::int[], ${pairs.map((pair) => pair.q ?? null)}::text[],
                              ${located.map((location) => location?.latitude ?? null)}::float8[],
                              ${located.map((location) => location?.longitude ?? null)}::float8[],
                              ${pairs.map((pair) => pair.near?.latitude ?? null)}::float8[],
                              ${pairs.map((pair) => pair.near?.longitude ?? null)}::float8[],
                              ${pairs.map((pair) => (pair.near ? pair.near.radiusKm * 1000 : null))}::float8[])
                       WITH ORDINALITY AS c (pet, q, latitude, longitude, near_latitude, near_longitude, radius_metres, pair)
           WHERE (c.q IS NULL OR pets.words[c.pet] @@ plainto_tsquery('pet_search'::regconfig, c.q))
             AND (c.near_latitude IS NULL
                  OR earth_distance(ll_to_earth(c.near_latitude, c.near_longitude), ll_to_earth(c.latitude, c.longitude))
                     <= c.radius_metres)`,
    );
    return new Set(rows.map((row) => row.pair - 1));
  }
}
