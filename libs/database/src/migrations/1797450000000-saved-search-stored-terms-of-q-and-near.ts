import { MigrationInterface, QueryRunner } from 'typeorm';

const NEAR_LATITUDE = `split_part(filters ->> 'near', ',', 1)::float8`;
const NEAR_LONGITUDE = `split_part(filters ->> 'near', ',', 2)::float8`;

/**
 * A saved search's `q` and `near` as the matcher evaluates them, computed once when the search is saved
 * instead of for each of its candidate pets: the query `plainto_tsquery` makes of `q`, the earth point of
 * `near` and the radius in metres. Parsing `near` and building its earth point took most of a candidate's
 * evaluation (docs/adr/0056-saved-search-matcher.md). The point is `ll_to_earth` written out, the same
 * arithmetic and so the same doubles: a restore recomputes generated columns with an empty `search_path`,
 * where the SQL function's body, which names `earth()` and `cube` unqualified, fails. Generated columns, not
 * kept ones (ADR 0063): searches are never updated, and the table, at most 20 an account, is rewritten once.
 * `q_query` follows the `pet_search` configuration as it was when each search was saved: a change of the
 * configuration would rewrite the searches too (`UPDATE saved_searches SET filters = filters`).
 */
export class SavedSearchStoredTermsOfQAndNear1797450000000 implements MigrationInterface {
  name = 'SavedSearchStoredTermsOfQAndNear1797450000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      ALTER TABLE saved_searches
        ADD COLUMN q_query tsquery
          GENERATED ALWAYS AS (plainto_tsquery('pet_search'::regconfig, filters ->> 'q')) STORED,
        ADD COLUMN near_origin earth
          GENERATED ALWAYS AS (cube(cube(cube(
            6378168::float8 * cos(radians(${NEAR_LATITUDE})) * cos(radians(${NEAR_LONGITUDE}))),
            6378168::float8 * cos(radians(${NEAR_LATITUDE})) * sin(radians(${NEAR_LONGITUDE}))),
            6378168::float8 * sin(radians(${NEAR_LATITUDE})))::earth) STORED,
        ADD COLUMN near_radius_metres float8
          GENERATED ALWAYS AS ((filters ->> 'radiusKm')::float8 * 1000) STORED`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE saved_searches DROP COLUMN q_query, DROP COLUMN near_origin, DROP COLUMN near_radius_metres`,
    );
  }
}
