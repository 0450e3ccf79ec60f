import { MigrationInterface, QueryRunner } from 'typeorm';
import { addKeptColumn, backfillByIds, buildIndexConcurrently } from './kept-column';

/**
 * The words `q` searches, as `pets.search_document` holds them: name, breed and description, folded by the
 * `pet_search` configuration, without positions (every word of `q` must match, anywhere; nothing ranks).
 * `row` is the pet's row: `NEW` in the trigger, the table in the backfill.
 */
const searchDocument = (row: string) =>
  `strip(to_tsvector('pet_search'::regconfig, ${row}name || ' ' || coalesce(${row}breed, '') || ' ' || coalesce(${row}description, '')))`;

/** Proves `search_document` has no NULL, so that SET NOT NULL need not scan the table under its exclusive lock. */
const DOCUMENT_SET = 'pets_search_document_set';

/**
 * The search document as a column (docs/adr/0060-stored-search-document.md): a page of a common word checks
 * each pet it walks against the stored words instead of parsing its text again. A trigger writes the column
 * whenever name, breed or description is written, so every path that writes a pet keeps it true. Written
 * for a catalogue of a million pets that api processes keep serving, outside one transaction, in steps of
 * which none holds the table's exclusive lock for longer than a catalogue update:
 *
 * 1. One short transaction adds the column (nullable: no rewrite) and the trigger: from then on every pet
 *    added or whose text changes gets its document.
 * 2. Existing pets get theirs, a range of ids per statement, each committing alone.
 * 3. A CHECK that the column is set is added NOT VALID (no scan) and validated (under a lock that lets
 *    reads and writes go on); the column becomes NOT NULL without a scan, and the CHECK goes. The CHECK
 *    comes only now: before the backfill, a change of an existing pet's status would have failed it.
 * 4. Its GIN index is built CONCURRENTLY, statistics of the column gathered, and the index over the
 *    expression (migration PetSearch) dropped CONCURRENTLY.
 *
 * Each step can run again, so a migration interrupted midway completes when started again.
 */
export class PetSearchDocument1797300000000 implements MigrationInterface {
  name = 'PetSearchDocument1797300000000';
  transaction = false;

  async up(queryRunner: QueryRunner): Promise<void> {
    await addKeptColumn(queryRunner, {
      table: 'pets',
      column: 'search_document',
      type: 'tsvector',
      value: searchDocument('NEW.'),
      writtenWith: ['name', 'breed', 'description'],
    });
    await backfillByIds(queryRunner, 'pets', `search_document = ${searchDocument('')}`, 'search_document IS NULL');
    const [{ nullable }] = await queryRunner.query(
      `SELECT is_nullable = 'YES' AS nullable FROM information_schema.columns
        WHERE table_name = 'pets' AND column_name = 'search_document'`,
    );
    if (nullable) {
      await queryRunner.query(
        `ALTER TABLE pets DROP CONSTRAINT IF EXISTS ${DOCUMENT_SET},
           ADD CONSTRAINT ${DOCUMENT_SET} CHECK (search_document IS NOT NULL) NOT VALID`,
      );
      await queryRunner.query(`ALTER TABLE pets VALIDATE CONSTRAINT ${DOCUMENT_SET}`);
      await queryRunner.query('ALTER TABLE pets ALTER COLUMN search_document SET NOT NULL');
      await queryRunner.query(`ALTER TABLE pets DROP CONSTRAINT ${DOCUMENT_SET}`);
    }

    // Without a pending list (fastupdate), which every search through the index would read whole: each
    // pet written pays for its own words instead.
    await buildIndexConcurrently(
      queryRunner,
      'pets_search_document_idx',
      'pets USING gin (search_document) WITH (fastupdate = off)',
    );
    // The planner weighs a word by the column's statistics: without them it would take every word for a
    // rare one until autovacuum's next ANALYZE.
    await queryRunner.query('ANALYZE pets (search_document)');
    await queryRunner.query('DROP INDEX CONCURRENTLY IF EXISTS pets_search_idx');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    // TypeORM reverts in a transaction whatever the migration says, so not CONCURRENTLY: a short lock.
    await queryRunner.query(
      `CREATE INDEX IF NOT EXISTS pets_search_idx ON pets
         USING gin (to_tsvector('pet_search'::regconfig, name || ' ' || coalesce(breed, '') || ' ' || coalesce(description, '')))`,
    );
    await queryRunner.query('DROP TRIGGER pets_search_document ON pets');
    await queryRunner.query('DROP FUNCTION pets_search_document()');
    await queryRunner.query('ALTER TABLE pets DROP COLUMN search_document');
  }
}
