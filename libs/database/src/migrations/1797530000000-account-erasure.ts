import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * An account's erasure (`DELETE /v1/account`): `deleted_at` when it was asked for, its email gone at once
 * (so that the address may sign up again), `erased_at` once the worker has erased what every context held.
 * The row itself stays, since what other parties keep (the other side of an order) still names its id.
 * Adding columns without a default and dropping NOT NULL change only the catalogue; the check is added
 * NOT VALID and validated apart, so that no lock on `accounts` lasts longer than a moment.
 */
export class AccountErasure1797530000000 implements MigrationInterface {
  name = 'AccountErasure1797530000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      ALTER TABLE accounts
        ALTER COLUMN email DROP NOT NULL,
        ADD COLUMN IF NOT EXISTS deleted_at timestamptz,
        ADD COLUMN IF NOT EXISTS erased_at timestamptz`);
    await queryRunner.query(`ALTER TABLE accounts DROP CONSTRAINT IF EXISTS accounts_erasure_check`);
    await queryRunner.query(`
      ALTER TABLE accounts ADD CONSTRAINT accounts_erasure_check
        CHECK ((email IS NULL) = (deleted_at IS NOT NULL) AND (erased_at IS NULL OR deleted_at IS NOT NULL)) NOT VALID`);
    await queryRunner.query(`ALTER TABLE accounts VALIDATE CONSTRAINT accounts_erasure_check`);
    // The erasures still to carry out: what the worker's reconciler looks for.
    await queryRunner.query(`
      CREATE INDEX IF NOT EXISTS accounts_erasing_idx ON accounts (deleted_at)
        WHERE deleted_at IS NOT NULL AND erased_at IS NULL`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX IF EXISTS accounts_erasing_idx`);
    await queryRunner.query(`ALTER TABLE accounts DROP CONSTRAINT IF EXISTS accounts_erasure_check`);
    // Erased accounts have no email to restore, and deleting their rows would cascade to what others hold:
    // each gets an address that reaches no one.
    await queryRunner.query(`UPDATE accounts SET email = 'erased-' || id || '@invalid' WHERE email IS NULL`);
    await queryRunner.query(`
      ALTER TABLE accounts ALTER COLUMN email SET NOT NULL, DROP COLUMN deleted_at, DROP COLUMN erased_at`);
  }
}
