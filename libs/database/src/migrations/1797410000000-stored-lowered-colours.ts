import { MigrationInterface, QueryRunner } from 'typeorm';
import { addKeptColumn, backfillByIds, buildIndexConcurrently } from './kept-column';

/**
 * A pet's colours lower-cased, in their order: NULL when it has none. `colors` is the pet's row: `NEW.colors`
 * in the trigger, the column in the backfill.
 */
const loweredColours = (colors: string) =>
  `(SELECT array_agg(lower(color) ORDER BY position) FROM unnest(${colors}) WITH ORDINALITY AS c (color, position))`;

/**
 * The colours as the `color` filter compares them, stored (docs/adr/0063-derived-columns-stored-for-searches.md): a page
 * of a common colour checks each pet it walks against `colors_lowered` rather than lower-case its colours
 * again, a sixth of the cost. A trigger writes the column whenever `colors` is written, so every path that
 * writes a pet keeps it true. Written, as 1797300000000-pet-search-document, for a catalogue of a million
 * pets that api processes keep serving: the column and its trigger in one short transaction, the existing
 * pets a range of ids per statement, the GIN index built CONCURRENTLY before the index over the expression
 * (1797200000000-colour-filter-inlined) and its function go. Each step can run again, so a migration
 * interrupted midway completes when started again.
 */
export class StoredLoweredColours1797410000000 implements MigrationInterface {
  name = 'StoredLoweredColours1797410000000';
  transaction = false;

  async up(queryRunner: QueryRunner): Promise<void> {
    await addKeptColumn(queryRunner, {
      table: 'pets',
      column: 'colors_lowered',
      type: 'text[]',
      value: loweredColours('NEW.colors'),
      writtenWith: ['colors'],
    });
    await backfillByIds(
      queryRunner,
      'pets',
      `colors_lowered = ${loweredColours('colors')}`,
      'colors IS NOT NULL AND colors_lowered IS NULL',
    );
    // Without a pending list (fastupdate), which every search through the index would read whole.
    await buildIndexConcurrently(
      queryRunner,
      'pets_colors_idx',
      'pets USING gin (colors_lowered) WITH (fastupdate = off)',
    );
    // The planner weighs a colour by the column's statistics: without them every colour looks rare.
    await queryRunner.query('ANALYZE pets (colors_lowered)');
    await queryRunner.query('DROP INDEX CONCURRENTLY IF EXISTS pets_colors_lowered_idx');
    await queryRunner.query('DROP FUNCTION IF EXISTS pet_colors_lowered(text[])');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    // TypeORM reverts in a transaction whatever the migration says, so not CONCURRENTLY: a short lock.
    await queryRunner.query(`CREATE FUNCTION pet_colors_lowered(colors text[]) RETURNS text[]
      LANGUAGE sql IMMUTABLE PARALLEL SAFE
      AS $$ SELECT ARRAY[lower(colors[1]), lower(colors[2]), lower(colors[3])] $$`);
    await queryRunner.query('CREATE INDEX pets_colors_lowered_idx ON pets USING gin (pet_colors_lowered(colors))');
    await queryRunner.query('DROP TRIGGER pets_colors_lowered ON pets');
    await queryRunner.query('DROP FUNCTION pets_colors_lowered()');
    await queryRunner.query('ALTER TABLE pets DROP COLUMN colors_lowered');
  }
}
