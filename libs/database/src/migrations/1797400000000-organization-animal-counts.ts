import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Adds a set of pet rows to the counts: `changes` yields `(organization_id, status, sign)`, +1 for a row
 * that now counts and -1 for one that no longer does. One upsert per statement, whatever its size; rows
 * whose changes cancel out (an UPDATE that moves neither status nor organisation) write nothing. Counter
 * rows are locked in organisation order, so two statements that change several organisations' pets at once
 * wait for each other instead of deadlocking.
 */
const addChanges = (changes: string) => `
  INSERT INTO organization_animal_counts AS counts (organization_id, available, pending, sold)
  SELECT organization_id, available, pending, sold
    FROM (SELECT organization_id,
                 coalesce(sum(sign) FILTER (WHERE status = 'available'), 0) AS available,
                 coalesce(sum(sign) FILTER (WHERE status = 'pending'), 0) AS pending,
                 coalesce(sum(sign) FILTER (WHERE status = 'sold'), 0) AS sold
            FROM (${changes}) AS changes (organization_id, status, sign)
           WHERE organization_id IS NOT NULL
           GROUP BY organization_id) AS change
   WHERE available <> 0 OR pending <> 0 OR sold <> 0
   ORDER BY organization_id
  ON CONFLICT (organization_id) DO UPDATE
     SET available = counts.available + excluded.available,
         pending = counts.pending + excluded.pending,
         sold = counts.sold + excluded.sold`;

/**
 * Each organisation's animals by status (docs/adr/0062-organisation-animal-counts-kept-by-triggers.md), kept
 * by statement triggers on `pets` as the inventory is (ADR 0023), so that a page of organisations reads one
 * row each instead of counting their pets. The counts are those `animalCounts` counted before: every row of
 * `pets` whose `organization_id` names the organisation, by status. An organisation without a row has none.
 *
 * One transaction: CREATE TRIGGER holds off writes to pets until it commits, so the backfill and the
 * triggers see the same catalogue; the writes wait for one index-only read of `pets_organization_id_id_idx`.
 */
export class OrganizationAnimalCounts1797400000000 implements MigrationInterface {
  name = 'OrganizationAnimalCounts1797400000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    // Room on each page for the updated row's next version, so that counter updates stay HOT.
    await queryRunner.query(`
      CREATE TABLE organization_animal_counts (
        organization_id text PRIMARY KEY REFERENCES organizations (id) ON DELETE CASCADE,
        available bigint NOT NULL DEFAULT 0,
        pending bigint NOT NULL DEFAULT 0,
        sold bigint NOT NULL DEFAULT 0
      ) WITH (fillfactor = 50)`);
    await queryRunner.query(`
      CREATE FUNCTION count_organization_animals() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'INSERT' THEN
          ${addChanges('SELECT organization_id, status, 1 FROM new_rows')};
        ELSIF TG_OP = 'DELETE' THEN
          ${addChanges('SELECT organization_id, status, -1 FROM old_rows')};
        ELSE
          ${addChanges(`SELECT organization_id, status, 1 FROM new_rows
                        UNION ALL SELECT organization_id, status, -1 FROM old_rows`)};
        END IF;
        RETURN NULL;
      END $$`);
    await queryRunner.query(`
      CREATE FUNCTION reset_organization_animal_counts() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        DELETE FROM organization_animal_counts;
        RETURN NULL;
      END $$`);
    // Named to fire after the inventory's triggers (pets_count_*, triggers of one event fire by name): a
    // statement locks its inventory slot, then its organisations' rows.
    await queryRunner.query(`
      CREATE TRIGGER pets_organization_counts_inserted AFTER INSERT ON pets REFERENCING NEW TABLE AS new_rows
        FOR EACH STATEMENT EXECUTE FUNCTION count_organization_animals()`);
    await queryRunner.query(`
      CREATE TRIGGER pets_organization_counts_updated AFTER UPDATE ON pets
        REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
        FOR EACH STATEMENT EXECUTE FUNCTION count_organization_animals()`);
    await queryRunner.query(`
      CREATE TRIGGER pets_organization_counts_deleted AFTER DELETE ON pets REFERENCING OLD TABLE AS old_rows
        FOR EACH STATEMENT EXECUTE FUNCTION count_organization_animals()`);
    await queryRunner.query(`
      CREATE TRIGGER pets_organization_counts_truncated AFTER TRUNCATE ON pets
        FOR EACH STATEMENT EXECUTE FUNCTION reset_organization_animal_counts()`);
    await queryRunner.query(addChanges('SELECT organization_id, status, 1 FROM pets'));
    await queryRunner.query('ANALYZE organization_animal_counts');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TRIGGER pets_organization_counts_truncated ON pets');
    await queryRunner.query('DROP TRIGGER pets_organization_counts_deleted ON pets');
    await queryRunner.query('DROP TRIGGER pets_organization_counts_updated ON pets');
    await queryRunner.query('DROP TRIGGER pets_organization_counts_inserted ON pets');
    await queryRunner.query('DROP FUNCTION reset_organization_animal_counts()');
    await queryRunner.query('DROP FUNCTION count_organization_animals()');
    await queryRunner.query('DROP TABLE organization_animal_counts');
  }
}
