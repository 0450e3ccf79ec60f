import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The saved-search matcher judges a change by evaluating each candidate search against the pet before and
 * after it (docs/adr/0056-saved-search-matcher.md), so it keeps one row per pet, the pet as the last change it
 * judged left it, where it kept one per pet and search the pet matched. It holds the matcher's lock (of the
 * matcher that kept matches) while it runs, so that no batch commits between the states read and the matches
 * dropped.
 *
 * Only a pet that matched some search needs a state: one that matched none is judged right as new. Its state
 * is its latest matched event still in the outbox; a pet that matched and has not changed for longer than
 * events are kept has none, and its next change alerts the searches it matches once more. Reverting leaves
 * no matches: every pet is judged as new again.
 */
export class SavedSearchPetStates1797440000000 implements MigrationInterface {
  name = 'SavedSearchPetStates1797440000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`SELECT pg_advisory_xact_lock(731044207, 0)`);
    await queryRunner.query(`CREATE TABLE saved_search_pet_states (pet_id bigint PRIMARY KEY, pet jsonb NOT NULL)`);
    await queryRunner.query(`
      INSERT INTO saved_search_pet_states (pet_id, pet)
      SELECT latest.pet_id, e.object
        FROM (SELECT (object ->> 'id')::bigint AS pet_id, max(seq) AS seq
                FROM events
               WHERE matched_at IS NOT NULL AND type IN ('pet.created', 'pet.updated', 'pet.deleted')
                 AND object ? 'id'
                 AND (object ->> 'id')::bigint IN (SELECT pet_id FROM saved_search_matches)
               GROUP BY 1) AS latest
        JOIN events e ON e.seq = latest.seq
       WHERE e.type <> 'pet.deleted'`);
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
