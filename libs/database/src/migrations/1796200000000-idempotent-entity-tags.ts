import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A replayed response carries the `ETag` its first answer had: the stored response keeps it beside its
 * `Location`. A nullable column without a default: adding it changes only the catalogue, whatever the size.
 */
export class IdempotentEntityTags1796200000000 implements MigrationInterface {
  name = 'IdempotentEntityTags1796200000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE idempotency_keys ADD COLUMN IF NOT EXISTS response_etag text');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE idempotency_keys DROP COLUMN IF EXISTS response_etag');
  }
}
