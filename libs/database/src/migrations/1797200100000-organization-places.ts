import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * An organisation's place, `ll_to_earth(latitude, longitude)` written out: the same arithmetic in the same
 * order, so the same doubles, without a call of earthdistance's SQL function, which no planner inlines (its
 * result is cast to the `earth` domain) and which a search near a point ran once per organisation it looked
 * at. The organisations repository repeats this expression to the letter, or the index would not serve it.
 */
const PLACE = `cube(cube(cube(6378168::float8 * cos(radians(latitude)) * cos(radians(longitude))),
  6378168::float8 * cos(radians(latitude)) * sin(radians(longitude))), 6378168::float8 * sin(radians(latitude)))`;

/**
 * The organisations' location index over that expression, built CONCURRENTLY (one a failed build left invalid
 * is dropped and built again) before the one over `ll_to_earth` goes. Runs outside one transaction and can
 * run again.
 */
export class OrganizationPlaces1797200100000 implements MigrationInterface {
  name = 'OrganizationPlaces1797200100000';
  transaction = false;

  async up(queryRunner: QueryRunner): Promise<void> {
    const [{ invalid }] = await queryRunner.query(
      `SELECT count(*) > 0 AS invalid FROM pg_index WHERE indexrelid = to_regclass('organizations_place_idx') AND NOT indisvalid`,
    );
    if (invalid) await queryRunner.query('DROP INDEX CONCURRENTLY organizations_place_idx');
    await queryRunner.query(
      `CREATE INDEX CONCURRENTLY IF NOT EXISTS organizations_place_idx ON organizations USING gist ((${PLACE}))`,
    );
    await queryRunner.query('DROP INDEX CONCURRENTLY IF EXISTS organizations_location_idx');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    // TypeORM reverts in a transaction whatever the migration says, so not CONCURRENTLY: a short lock.
    await queryRunner.query(
      'CREATE INDEX organizations_location_idx ON organizations USING gist (ll_to_earth(latitude, longitude))',
    );
    await queryRunner.query('DROP INDEX organizations_place_idx');
  }
}
