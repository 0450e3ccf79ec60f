import { MigrationInterface, QueryRunner } from 'typeorm';

/** Pets whose `updated_at` one backfill statement sets: each batch holds its rows' locks only briefly. */
const BACKFILL_BATCH = 10_000;

/** Each CHECK of the record's columns, added NOT VALID and validated once the columns exist. */
const CHECKS: Record<string, string> = {
  pets_description_check: 'char_length(description) BETWEEN 1 AND 2000',
  pets_breed_check: 'char_length(breed) BETWEEN 1 AND 100',
  pets_sex_check: `sex IN ('male', 'female', 'unknown')`,
  pets_age_group_check: `age_group IN ('baby', 'young', 'adult', 'senior')`,
  pets_size_check: `size IN ('small', 'medium', 'large', 'xlarge')`,
  pets_tags_check: 'cardinality(tags) <= 10',
  pets_photo_urls_check: 'cardinality(photo_urls) <= 10',
  pets_location_check:
    '(latitude IS NULL) = (longitude IS NULL) AND latitude BETWEEN -90 AND 90 AND longitude BETWEEN -180 AND 180',
};

/** Proves `updated_at` has no NULL, so that SET NOT NULL need not scan the table under its exclusive lock. */
const UPDATED_AT_SET = 'pets_updated_at_set';

/**
 * The animal record's columns, its lister, its open order and when it last changed, on a catalogue that may
 * hold a million pets in production while api processes keep serving it. It runs outside one transaction,
 * step by step, so that no step holds the table's exclusive lock for longer than a catalogue update:
 *
 * 1. One short transaction adds the columns (nullable or with a constant default: no rewrite), the CHECKs
 *    and the foreign key NOT VALID (no scan), and the change clock (libs/pets/src/pet-changes.ts).
 *    `updated_at` gets its default only after it exists, so existing pets keep NULL and new ones get now().
 * 2. The CHECKs and the foreign key are validated, each in its own statement: VALIDATE scans under a lock
 *    that lets reads and writes go on.
 * 3. Existing pets get `updated_at = created_at`, a range of ids per statement, each committing alone.
 * 4. `updated_at` becomes NOT NULL, proved by a validated CHECK instead of a scan, and the CHECK goes.
 *
 * Each step can run again, so a migration interrupted after step 1 completes when started again.
 */
export class PetRecord1795500000000 implements MigrationInterface {
  name = 'PetRecord1795500000000';
  transaction = false;

  async up(queryRunner: QueryRunner): Promise<void> {
    const [{ added }] = await queryRunner.query(
      `SELECT count(*) > 0 AS added FROM information_schema.columns WHERE table_name = 'pets' AND column_name = 'updated_at'`,
    );
    if (!added) await addColumns(queryRunner);

    for (const constraint of [...Object.keys(CHECKS), 'pets_lister_account_id_fkey']) {
      await queryRunner.query(`ALTER TABLE pets VALIDATE CONSTRAINT ${constraint}`);
    }

    const [{ last }] = await queryRunner.query('SELECT coalesce(max(id), 0) AS last FROM pets');
    for (let from = 0; from < Number(last); from += BACKFILL_BATCH) {
      await queryRunner.query(
        'UPDATE pets SET updated_at = created_at WHERE id > $1 AND id <= $2 AND updated_at IS NULL',
        [from, from + BACKFILL_BATCH],
      );
    }

    await queryRunner.query(`ALTER TABLE pets VALIDATE CONSTRAINT ${UPDATED_AT_SET}`);
    await queryRunner.query('ALTER TABLE pets ALTER COLUMN updated_at SET NOT NULL');
    await queryRunner.query(`ALTER TABLE pets DROP CONSTRAINT ${UPDATED_AT_SET}`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE pet_change_clock');
    await queryRunner.query(`
      ALTER TABLE pets
        DROP COLUMN description, DROP COLUMN breed, DROP COLUMN sex, DROP COLUMN age_group, DROP COLUMN size,
        DROP COLUMN tags, DROP COLUMN photo_urls, DROP COLUMN latitude, DROP COLUMN longitude,
        DROP COLUMN updated_at, DROP COLUMN lister_account_id, DROP COLUMN open_order_id`);
  }
}

async function addColumns(queryRunner: QueryRunner): Promise<void> {
  const checks = Object.entries(CHECKS).map(([name, rule]) => `ADD CONSTRAINT ${name} CHECK (${rule}) NOT VALID`);
  await queryRunner.startTransaction();
  try {
    await queryRunner.query(`
      ALTER TABLE pets
        ADD COLUMN description text,
        ADD COLUMN breed text,
        ADD COLUMN sex text NOT NULL DEFAULT 'unknown',
        ADD COLUMN age_group text,
        ADD COLUMN size text,
        ADD COLUMN tags text[],
        ADD COLUMN photo_urls text[],
        ADD COLUMN latitude double precision,
        ADD COLUMN longitude double precision,
        ADD COLUMN updated_at timestamptz,
        ADD COLUMN lister_account_id bigint,
        ADD COLUMN open_order_id bigint,
        ${checks.join(',\n        ')},
        ADD CONSTRAINT ${UPDATED_AT_SET} CHECK (updated_at IS NOT NULL) NOT VALID,
        ADD CONSTRAINT pets_lister_account_id_fkey FOREIGN KEY (lister_account_id)
          REFERENCES accounts (id) ON DELETE SET NULL NOT VALID`);
    await queryRunner.query('ALTER TABLE pets ALTER COLUMN updated_at SET DEFAULT now()');
    // One row: the time of the latest change of any pet (see libs/pets/src/pet-changes.ts).
    await queryRunner.query(`
      CREATE TABLE pet_change_clock (
        id boolean PRIMARY KEY DEFAULT true CHECK (id),
        changed_at timestamptz NOT NULL
      )`);
    await queryRunner.query('INSERT INTO pet_change_clock (changed_at) VALUES (now())');
    await queryRunner.commitTransaction();
  } catch (error) {
    await queryRunner.rollbackTransaction();
    throw error;
  }
}
