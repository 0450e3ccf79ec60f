import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The saved-search matcher judges a change by evaluating each candidate search against the pet before and
 * after it (docs/adr/0056-saved-search-matcher.md), so it keeps one row per pet, the pet as the last change it
 * matched left it, where it kept one per pet and search the pet matched. Each pet's state is its latest
 * matched event still in the outbox; a pet whose events have all aged out has none, and its next change is
 * judged as a pet's first.
 */
export class SavedSearchPetStates1797440000000 implements MigrationInterface {
  name = 'SavedSearchPetStates1797440000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE saved_search_pet_states (pet_id bigint PRIMARY KEY, pet jsonb NOT NULL)`);
    await queryRunner.query(`
      INSERT INTO saved_search_pet_states (pet_id, pet)
      SELECT pet_id, object
        FROM (SELECT DISTINCT ON ((object ->> 'id')::bigint) (object ->> 'id')::bigint AS pet_id, type, object
                FROM events
               WHERE matched_at IS NOT NULL AND type IN ('pet.created', 'pet.updated', 'pet.deleted')
                 AND object ? 'id'
               ORDER BY (object ->> 'id')::bigint, seq DESC) AS latest
       WHERE type <> 'pet.deleted'`);
    await queryRunner.query(`DROP TABLE saved_search_matches`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE saved_search_matches (
        pet_id bigint NOT NULL,
        saved_search_id text NOT NULL REFERENCES saved_searches (id) ON DELETE CASCADE,
        PRIMARY KEY (pet_id, saved_search_id)
      )`);
    await queryRunner.query(
      `CREATE INDEX saved_search_matches_saved_search_id_idx ON saved_search_matches (saved_search_id)`,
    );
    await queryRunner.query(`DROP TABLE saved_search_pet_states`);
  }
}
