import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The colours as the `color` filter compares them, lower-cased, in an expression PostgreSQL inlines: a pet has
 * at most three (`pets_colors_check`), so three subscripts hold them all. `pet_colors_folded` (migration
 * 1796500000000-organizations) unnested them in a subquery, which no planner inlines: a page walked along the
 * primary key ran it once per pet it passed, about 3 µs each, 300 pets for a common colour.
 * Not STRICT: a strict SQL function is inlined only if its body is strict, which an ARRAY[…] is not.
 */
const LOWERED = `CREATE OR REPLACE FUNCTION pet_colors_lowered(colors text[]) RETURNS text[]
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT ARRAY[lower(colors[1]), lower(colors[2]), lower(colors[3])] $$`;

/**
 * The `color` filter's index over `pet_colors_lowered`, built CONCURRENTLY (one a failed build left invalid
 * is dropped and built again) before the old index and its function go. Runs outside one transaction, as
 * 1796500000000-organizations, and can run again.
 */
export class ColourFilterInlined1797200000000 implements MigrationInterface {
  name = 'ColourFilterInlined1797200000000';
  transaction = false;

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(LOWERED);
    const [{ invalid }] = await queryRunner.query(
      `SELECT count(*) > 0 AS invalid FROM pg_index WHERE indexrelid = to_regclass('pets_colors_lowered_idx') AND NOT indisvalid`,
    );
    if (invalid) await queryRunner.query('DROP INDEX CONCURRENTLY pets_colors_lowered_idx');
    await queryRunner.query(
      'CREATE INDEX CONCURRENTLY IF NOT EXISTS pets_colors_lowered_idx ON pets USING gin (pet_colors_lowered(colors))',
    );
    await queryRunner.query('DROP INDEX CONCURRENTLY IF EXISTS pets_colors_idx');
    await queryRunner.query('DROP FUNCTION IF EXISTS pet_colors_folded(text[])');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    // TypeORM reverts in a transaction whatever the migration says, so not CONCURRENTLY: a short lock.
    await queryRunner.query(`
      CREATE FUNCTION pet_colors_folded(colors text[]) RETURNS text[]
        LANGUAGE sql IMMUTABLE PARALLEL SAFE RETURNS NULL ON NULL INPUT
        AS $$ SELECT array_agg(lower(color)) FROM unnest(colors) AS color $$`);
    await queryRunner.query('CREATE INDEX pets_colors_idx ON pets USING gin (pet_colors_folded(colors))');
    await queryRunner.query('DROP INDEX pets_colors_lowered_idx');
    await queryRunner.query('DROP FUNCTION pet_colors_lowered(text[])');
  }
}
