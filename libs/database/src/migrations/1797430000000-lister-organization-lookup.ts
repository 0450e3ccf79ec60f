import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The organisation an account has published, read with a snapshot of its own: a VOLATILE function's query
 * takes a new one in READ COMMITTED, where the statement that calls it read with the snapshot it started with.
 * A pet's INSERT waits for the change clock inside its one statement and then names its lister's
 * organisation as committed by then (libs/pets/src/pets.repository.ts, docs/adr/0061-write-order-measured.md).
 * Not inlined: a scalar SQL function with a FROM never is.
 */
export class ListerOrganizationLookup1797430000000 implements MigrationInterface {
  name = 'ListerOrganizationLookup1797430000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE OR REPLACE FUNCTION lister_organization_id(account bigint) RETURNS text
        LANGUAGE sql VOLATILE
        AS $$ SELECT id FROM organizations WHERE account_id = account $$`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP FUNCTION lister_organization_id(bigint)');
  }
}
