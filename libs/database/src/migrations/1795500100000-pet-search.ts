import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The words `q` searches: name, breed and description, folded by the `pet_search` configuration. The
 * search statement repeats this expression to the letter (libs/pets/src/pet-search.repository.ts), or
 * the index would not serve it.
 */
const SEARCH_DOCUMENT = `to_tsvector('pet_search'::regconfig, name || ' ' || coalesce(breed, '') || ' ' || coalesce(description, ''))`;

/** Each index of the search, by name: one per filter and sort, each keyed so that a page reads in order. */
const INDEXES: Record<string, string> = {
  pets_category_id_id_idx: 'btree (category_id, id)',
  pets_sex_id_idx: 'btree (sex, id)',
  pets_age_group_id_idx: 'btree (age_group, id)',
  pets_size_id_idx: 'btree (size, id)',
  pets_lister_account_id_id_idx: 'btree (lister_account_id, id)',
  pets_created_at_id_idx: 'btree (created_at, id)',
  pets_updated_at_id_idx: 'btree (updated_at, id)',
  pets_tags_idx: 'gin (tags)',
  pets_search_idx: `gin (${SEARCH_DOCUMENT})`,
  pets_location_idx: 'gist (ll_to_earth(latitude, longitude))',
};

/**
 * What finding animals needs: the contrib extensions for distance (`cube`, `earthdistance`)
 * and accent-free words (`unaccent`), the `pet_search` text search configuration, and an index per filter
 * and sort. The indexes are built CONCURRENTLY, which cannot run in a transaction: the migration runs
 * without one, and a catalogue of a million pets keeps taking reads and writes while they build. An index
 * a failed build left invalid is dropped and built again, so the migration can simply be run again.
 */
export class PetSearch1795500100000 implements MigrationInterface {
  name = 'PetSearch1795500100000';
  transaction = false;

  async up(queryRunner: QueryRunner): Promise<void> {
    for (const extension of ['cube', 'earthdistance', 'unaccent']) {
      await queryRunner.query(`CREATE EXTENSION IF NOT EXISTS ${extension}`);
    }
    const [{ configured }] = await queryRunner.query(
      `SELECT count(*) > 0 AS configured FROM pg_ts_config WHERE cfgname = 'pet_search'`,
    );
    if (!configured) {
      // Words as they are (no stemming: names and breeds are not English prose), lower-cased and unaccented.
      await queryRunner.startTransaction();
      await queryRunner.query('CREATE TEXT SEARCH CONFIGURATION pet_search (COPY = simple)');
      await queryRunner.query(
        'ALTER TEXT SEARCH CONFIGURATION pet_search ALTER MAPPING FOR hword, hword_part, word WITH unaccent, simple',
      );
      await queryRunner.commitTransaction();
    }
    for (const [name, definition] of Object.entries(INDEXES)) {
      const [{ invalid }] = await queryRunner.query(
        `SELECT count(*) > 0 AS invalid FROM pg_index WHERE indexrelid = to_regclass($1) AND NOT indisvalid`,
        [name],
      );
      if (invalid) await queryRunner.query(`DROP INDEX CONCURRENTLY ${name}`);
      await queryRunner.query(`CREATE INDEX CONCURRENTLY IF NOT EXISTS ${name} ON pets USING ${definition}`);
    }
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    // TypeORM reverts in a transaction whatever the migration says, so not CONCURRENTLY: a short lock.
    for (const name of Object.keys(INDEXES)) await queryRunner.query(`DROP INDEX IF EXISTS ${name}`);
    await queryRunner.query('DROP TEXT SEARCH CONFIGURATION IF EXISTS pet_search');
    // The extensions stay: other databases' objects or an operator's may use them.
  }
}
