import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A saved search's `q` and `near` as the matcher evaluates them, computed once when the search is saved
 * instead of for each of its candidate pets: the query `plainto_tsquery` makes of `q`, the earth point of
 * `near` and the radius in metres, by the functions `listPets` runs. Parsing `near` and building its earth
 * point took most of a candidate's evaluation (docs/adr/0056-saved-search-matcher.md).
 */
export class SavedSearchStoredTermsOfQAndNear1797450000000 implements MigrationInterface {
  name = 'SavedSearchStoredTermsOfQAndNear1797450000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      ALTER TABLE saved_searches
        ADD COLUMN q_query tsquery
          GENERATED ALWAYS AS (plainto_tsquery('pet_search'::regconfig, filters ->> 'q')) STORED,
        ADD COLUMN near_origin earth
          GENERATED ALWAYS AS (ll_to_earth(split_part(filters ->> 'near', ',', 1)::float8,
                                           split_part(filters ->> 'near', ',', 2)::float8)) STORED,
        ADD COLUMN near_radius_metres float8
          GENERATED ALWAYS AS ((filters ->> 'radiusKm')::float8 * 1000) STORED`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE saved_searches DROP COLUMN q_query, DROP COLUMN near_origin, DROP COLUMN near_radius_metres`,
    );
  }
}
