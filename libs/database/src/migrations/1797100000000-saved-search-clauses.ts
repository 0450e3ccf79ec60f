import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What the matcher decides a saved search by in SQL, beside the terms it finds it by: `required`, the terms a
 * pet must all carry (one per filter such as `categoryId=1`, `tag=calm`, `goodWith=dogs`), and `choices`, the
 * filters a pet passes by carrying one of several terms (`status` of two statuses), null when none. Searches
 * saved before get theirs from their filters, as `searchClauses` (libs/saved-searches) makes them. Columns
 * added without a default rewrite nothing; the update and the NOT NULL check read saved searches only.
 */
export class SavedSearchClauses1797100000000 implements MigrationInterface {
  name = 'SavedSearchClauses1797100000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE saved_searches ADD COLUMN required text[], ADD COLUMN choices jsonb`);
    await queryRunner.query(`
      UPDATE saved_searches SET
        required = ARRAY(
          SELECT key || '=' || CASE key WHEN 'color' THEN lower(value #>> '{}') ELSE value #>> '{}' END
            FROM jsonb_each(filters)
           WHERE key IN ('tag', 'organizationId', 'color', 'coat', 'categoryId', 'ageGroup', 'size', 'sex',
                         'houseTrained', 'spayedNeutered', 'specialNeeds')
          UNION ALL
          SELECT 'goodWith=' || companion FROM jsonb_array_elements_text(filters -> 'goodWith') AS companion
          UNION ALL
          SELECT 'status=' || (filters -> 'status' ->> 0) WHERE jsonb_array_length(filters -> 'status') = 1),
        choices = CASE WHEN jsonb_array_length(filters -> 'status') > 1 THEN jsonb_build_array(
          (SELECT jsonb_agg('status=' || status) FROM jsonb_array_elements_text(filters -> 'status') AS status)) END`);
    await queryRunner.query(`ALTER TABLE saved_searches ALTER COLUMN required SET NOT NULL`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE saved_searches DROP COLUMN required, DROP COLUMN choices`);
  }
}
