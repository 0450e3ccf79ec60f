import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * An endpoint's previous signing secret, which still signs until it expires (a rotation's overlap), and
 * attempts asked for by the account (a redelivery, a test event), which are made once. Columns without a
 * default, or with a constant one, change only the catalogue: no table is rewritten or scanned, and each
 * table is locked only for the instant its ALTER commits.
 */
export class WebhookSecretRotation1796300000000 implements MigrationInterface {
  name = 'WebhookSecretRotation1796300000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      ALTER TABLE webhook_endpoints
        ADD COLUMN previous_secret_ciphertext text,
        ADD COLUMN previous_secret_expires_at timestamptz`);
    await queryRunner.query(`ALTER TABLE webhook_attempts ADD COLUMN manual boolean NOT NULL DEFAULT false`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE webhook_attempts DROP COLUMN manual`);
    await queryRunner.query(`
      ALTER TABLE webhook_endpoints DROP COLUMN previous_secret_ciphertext, DROP COLUMN previous_secret_expires_at`);
  }
}
