import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Saved searches, the pets each currently matches, and the matcher's claim on the outbox.
 *
 * `events.matched_at` marks the pet events the matcher has handled. It is added with a constant default, so
 * that PostgreSQL stores that default in the catalogue instead of rewriting the table, and every event
 * recorded before saved searches existed reads as handled; the default is then dropped, so events recorded
 * from now on start unhandled. The index of unhandled pet events is built CONCURRENTLY (no lock that stops
 * writes on a large outbox), so the migration runs outside a transaction; a build that failed leaves an
 * invalid index, which is dropped and built again.
 */
export class SavedSearches1796800000000 implements MigrationInterface {
  name = 'SavedSearches1796800000000';
  transaction = false;

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE IF NOT EXISTS saved_searches (
        id text PRIMARY KEY,
        account_id bigint NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
        name text,
        query text NOT NULL,
        filters jsonb NOT NULL,
        terms text[] NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query(
      `CREATE INDEX IF NOT EXISTS saved_searches_account_id_idx ON saved_searches (account_id, created_at, id)`,
    );
    // The matcher's only way in: the searches one of whose terms a changed pet carries.
    await queryRunner.query(`CREATE INDEX IF NOT EXISTS saved_searches_terms_idx ON saved_searches USING gin (terms)`);
    // Read and written by pet; a search's removal cascades through the second index.
    await queryRunner.query(`
      CREATE TABLE IF NOT EXISTS saved_search_matches (
        pet_id bigint NOT NULL,
        saved_search_id text NOT NULL REFERENCES saved_searches (id) ON DELETE CASCADE,
        PRIMARY KEY (pet_id, saved_search_id)
      )`);
    await queryRunner.query(
      `CREATE INDEX IF NOT EXISTS saved_search_matches_saved_search_id_idx ON saved_search_matches (saved_search_id)`,
    );

    await queryRunner.query(`ALTER TABLE events ADD COLUMN IF NOT EXISTS matched_at timestamptz DEFAULT now()`);
    await queryRunner.query(`ALTER TABLE events ALTER COLUMN matched_at DROP DEFAULT`);
    const [{ invalid }] = await queryRunner.query(
      `SELECT count(*) > 0 AS invalid FROM pg_index WHERE indexrelid = to_regclass('events_unmatched_idx') AND NOT indisvalid`,
    );
    if (invalid) await queryRunner.query(`DROP INDEX CONCURRENTLY events_unmatched_idx`);
    await queryRunner.query(
      `CREATE INDEX CONCURRENTLY IF NOT EXISTS events_unmatched_idx ON events (seq)
        WHERE matched_at IS NULL AND type IN ('pet.created', 'pet.updated', 'pet.deleted')`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX IF EXISTS events_unmatched_idx`);
    await queryRunner.query(`ALTER TABLE events DROP COLUMN IF EXISTS matched_at`);
    await queryRunner.query(`DROP TABLE IF EXISTS saved_search_matches, saved_searches`);
  }
}
