import { MigrationInterface, QueryRunner } from 'typeorm';
import { addKeptColumn, buildIndexConcurrently } from './kept-column';

/**
 * `ll_to_earth(latitude, longitude)` written out, the same arithmetic, so the same doubles: `row` is `NEW.` in
 * the trigger, nothing in the backfill and the index over the expression.
 */
const place = (row: string) =>
  `cube(cube(cube(6378168::float8 * cos(radians(${row}latitude)) * cos(radians(${row}longitude))),
  6378168::float8 * cos(radians(${row}latitude)) * sin(radians(${row}longitude))), 6378168::float8 * sin(radians(${row}latitude)))`;

/**
 * An organisation's place stored (docs/adr/0063-derived-columns-stored-for-searches.md): a search near a point
 * compares `place` where it wrote out the point's expression four times, which PostgreSQL planned and
 * evaluated at each. A trigger writes it with latitude and longitude (NULL without them). Organisations are one
 * per account, so one statement gives the existing ones theirs; the GiST index is built CONCURRENTLY before
 * the index over the expression (1797200100000-organization-places) goes. Can run again.
 */
export class OrganizationStoredPlace1797420000000 implements MigrationInterface {
  name = 'OrganizationStoredPlace1797420000000';
  transaction = false;

  async up(queryRunner: QueryRunner): Promise<void> {
    await addKeptColumn(queryRunner, {
      table: 'organizations',
      column: 'place',
      type: 'cube',
      value: place('NEW.'),
      writtenWith: ['latitude', 'longitude'],
    });
    await queryRunner.query(
      `UPDATE organizations SET place = ${place('')} WHERE place IS NULL AND latitude IS NOT NULL`,
    );
    await buildIndexConcurrently(queryRunner, 'organizations_stored_place_idx', 'organizations USING gist (place)');
    await queryRunner.query('DROP INDEX CONCURRENTLY IF EXISTS organizations_place_idx');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    // TypeORM reverts in a transaction whatever the migration says, so not CONCURRENTLY: a short lock.
    await queryRunner.query(`CREATE INDEX organizations_place_idx ON organizations USING gist ((${place('')}))`);
    await queryRunner.query('DROP TRIGGER organizations_place ON organizations');
    await queryRunner.query('DROP FUNCTION organizations_place()');
    await queryRunner.query('ALTER TABLE organizations DROP COLUMN place');
  }
}
