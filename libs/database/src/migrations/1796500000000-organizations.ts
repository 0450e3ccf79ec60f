import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The words an organisation's `q` searches: its name, city and description, folded as pets' are. The
 * organisations repository repeats this expression to the letter (libs/organizations), or the index would
 * not serve it.
 */
const ORGANIZATION_DOCUMENT = `to_tsvector('pet_search'::regconfig, name || ' ' || coalesce(address ->> 'city', '') || ' ' || coalesce(description, ''))`;

/** Each CHECK of the adoption-grade record, added NOT VALID and validated once the columns exist. */
const CHECKS: Record<string, string> = {
  pets_special_needs_notes_check: 'char_length(special_needs_notes) BETWEEN 1 AND 500',
  pets_coat_check: `coat IN ('hairless', 'short', 'medium', 'long', 'wire', 'curly')`,
  pets_colors_check: 'cardinality(colors) BETWEEN 1 AND 3',
  pets_secondary_breed_check: 'char_length(secondary_breed) BETWEEN 1 AND 100',
  pets_external_id_check: `external_id ~ '^[A-Za-z0-9._:-]{1,64}$'`,
};

/**
 * Each index of the new filters, by name. Pets of an organisation are counted by status from their index
 * alone (`INCLUDE (status)`); `goodWith` keeps only pets marked good, so each of its indexes holds only
 * those; the external id is unique per lister (the sync's one pet, never two) and serves its filter.
 */
const PET_INDEXES: Record<string, string> = {
  pets_organization_id_id_idx: 'btree (organization_id, id) INCLUDE (status) WHERE organization_id IS NOT NULL',
  pets_lister_external_id_key:
    'UNIQUE btree (lister_account_id, external_id) WHERE external_id IS NOT NULL AND lister_account_id IS NOT NULL',
  pets_good_with_children_id_idx: 'btree (id) WHERE good_with_children',
  pets_good_with_dogs_id_idx: 'btree (id) WHERE good_with_dogs',
  pets_good_with_cats_id_idx: 'btree (id) WHERE good_with_cats',
  pets_house_trained_id_idx: 'btree (house_trained, id) WHERE house_trained IS NOT NULL',
  pets_spayed_neutered_id_idx: 'btree (spayed_neutered, id) WHERE spayed_neutered IS NOT NULL',
  pets_special_needs_id_idx: 'btree (special_needs, id) WHERE special_needs IS NOT NULL',
  pets_coat_id_idx: 'btree (coat, id) WHERE coat IS NOT NULL',
  pets_colors_idx: 'gin (pet_colors_folded(colors))',
};

/**
 * Shelters and the adoption-grade record, on a catalogue that may hold a million pets while
 * api processes keep serving it. As 1795500000000-pet-record, it runs outside one transaction:
 *
 * 1. One short transaction creates `organizations` and its indexes (a new, empty table), adds the pets'
 *    columns (nullable, no default: no rewrite), their CHECKs and the foreign key NOT VALID (no scan), and
 *    `pet_colors_folded`, the colours as the `color` filter compares them.
 * 2. The CHECKs and the foreign key are validated, each in its own statement, under a lock that lets reads
 *    and writes go on.
 * 3. The pets' indexes are built CONCURRENTLY; one a failed build left invalid is dropped and built again.
 *
 * Each step can run again, so a migration interrupted after step 1 completes when started again.
 */
export class Organizations1796500000000 implements MigrationInterface {
  name = 'Organizations1796500000000';
  transaction = false;

  async up(queryRunner: QueryRunner): Promise<void> {
    const [{ created }] = await queryRunner.query(`SELECT to_regclass('organizations') IS NOT NULL AS created`);
    if (!created) await createSchema(queryRunner);

    for (const constraint of [...Object.keys(CHECKS), 'pets_organization_id_fkey']) {
      await queryRunner.query(`ALTER TABLE pets VALIDATE CONSTRAINT ${constraint}`);
    }

    for (const [name, definition] of Object.entries(PET_INDEXES)) {
      const [{ invalid }] = await queryRunner.query(
        `SELECT count(*) > 0 AS invalid FROM pg_index WHERE indexrelid = to_regclass('${name}') AND NOT indisvalid`,
      );
      if (invalid) await queryRunner.query(`DROP INDEX CONCURRENTLY ${name}`);
      const [unique, method] = definition.startsWith('UNIQUE ')
        ? ['UNIQUE ', definition.slice('UNIQUE '.length)]
        : ['', definition];
      await queryRunner.query(`CREATE ${unique}INDEX CONCURRENTLY IF NOT EXISTS ${name} ON pets USING ${method}`);
    }
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    // TypeORM reverts in a transaction whatever the migration says, so not CONCURRENTLY: a short lock.
    for (const name of Object.keys(PET_INDEXES)) await queryRunner.query(`DROP INDEX IF EXISTS ${name}`);
    await queryRunner.query(`
      ALTER TABLE pets
        DROP COLUMN organization_id, DROP COLUMN spayed_neutered, DROP COLUMN house_trained, DROP COLUMN declawed,
        DROP COLUMN special_needs, DROP COLUMN shots_current, DROP COLUMN special_needs_notes,
        DROP COLUMN good_with_children, DROP COLUMN good_with_dogs, DROP COLUMN good_with_cats, DROP COLUMN coat,
        DROP COLUMN colors, DROP COLUMN secondary_breed, DROP COLUMN mixed_breed, DROP COLUMN external_id`);
    await queryRunner.query('DROP FUNCTION pet_colors_folded(text[])');
    await queryRunner.query('DROP TABLE organizations');
  }
}

async function createSchema(queryRunner: QueryRunner): Promise<void> {
  const checks = Object.entries(CHECKS).map(([name, rule]) => `ADD CONSTRAINT ${name} CHECK (${rule}) NOT VALID`);
  await queryRunner.startTransaction();
  try {
    await queryRunner.query(`
      CREATE TABLE organizations (
        id text PRIMARY KEY,
        account_id bigint NOT NULL UNIQUE REFERENCES accounts (id) ON DELETE CASCADE,
        name text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 100),
        description text CHECK (char_length(description) BETWEEN 1 AND 4000),
        email text,
        phone text,
        website text,
        adoption_policy text CHECK (char_length(adoption_policy) BETWEEN 1 AND 4000),
        adoption_url text,
        address jsonb,
        latitude double precision CHECK (latitude BETWEEN -90 AND 90),
        longitude double precision CHECK (longitude BETWEEN -180 AND 180),
        hours jsonb,
        social_media jsonb,
        created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        updated_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        CHECK ((latitude IS NULL) = (longitude IS NULL))
      )`);
    await queryRunner.query('CREATE INDEX organizations_name_id_idx ON organizations (name, id)');
    await queryRunner.query('CREATE INDEX organizations_created_at_id_idx ON organizations (created_at, id)');
    await queryRunner.query(
      `CREATE INDEX organizations_country_name_id_idx ON organizations ((address ->> 'country'), name, id)`,
    );
    await queryRunner.query(
      `CREATE INDEX organizations_search_idx ON organizations USING gin (${ORGANIZATION_DOCUMENT})`,
    );
    await queryRunner.query(
      'CREATE INDEX organizations_location_idx ON organizations USING gist (ll_to_earth(latitude, longitude))',
    );
    // The colours lower-cased, in one immutable expression an index can hold: `color` compares ignoring case.
    await queryRunner.query(`
      CREATE FUNCTION pet_colors_folded(colors text[]) RETURNS text[]
        LANGUAGE sql IMMUTABLE PARALLEL SAFE RETURNS NULL ON NULL INPUT
        AS $$ SELECT array_agg(lower(color)) FROM unnest(colors) AS color $$`);
    await queryRunner.query(`
      ALTER TABLE pets
        ADD COLUMN organization_id text,
        ADD COLUMN spayed_neutered boolean,
        ADD COLUMN house_trained boolean,
        ADD COLUMN declawed boolean,
        ADD COLUMN special_needs boolean,
        ADD COLUMN shots_current boolean,
        ADD COLUMN special_needs_notes text,
        ADD COLUMN good_with_children boolean,
        ADD COLUMN good_with_dogs boolean,
        ADD COLUMN good_with_cats boolean,
        ADD COLUMN coat text,
        ADD COLUMN colors text[],
        ADD COLUMN secondary_breed text,
        ADD COLUMN mixed_breed boolean,
        ADD COLUMN external_id text,
        ${checks.join(',\n        ')},
        ADD CONSTRAINT pets_organization_id_fkey FOREIGN KEY (organization_id) REFERENCES organizations (id) NOT VALID`);
    await queryRunner.commitTransaction();
  } catch (error) {
    await queryRunner.rollbackTransaction();
    throw error;
  }
}
