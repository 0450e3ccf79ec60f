import { MigrationInterface, QueryRunner } from 'typeorm';

/** Each CHECK of the new columns, added NOT VALID and validated once the columns exist. */
const CHECKS: Record<string, string> = {
  api_keys_kind_check: `kind IN ('secret', 'publishable')`,
  api_keys_scopes_check: 'cardinality(scopes) BETWEEN 1 AND 17',
  // A publishable key is shown whole to its owner and is used from its origins only; a secret key has neither.
  api_keys_publishable_check: `(kind = 'publishable') = (publishable_key IS NOT NULL AND allowed_origins IS NOT NULL)`,
};

/**
 * Scopes, expiry and publishable keys, in the row the bearer guard already reads by hash, so
 * that checking them costs no statement. Existing keys keep every power (`{*}`). The columns are nullable
 * or have a constant default (no rewrite) and their CHECKs come NOT VALID (no scan), in one short
 * transaction; then each CHECK is validated under a lock that lets reads and writes go on.
 */
export class KeyScopes1796700000000 implements MigrationInterface {
  name = 'KeyScopes1796700000000';
  transaction = false;

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.startTransaction();
    try {
      await queryRunner.query(`
        ALTER TABLE api_keys
          ADD COLUMN IF NOT EXISTS kind text NOT NULL DEFAULT 'secret',
          ADD COLUMN IF NOT EXISTS scopes text[] NOT NULL DEFAULT '{*}',
          ADD COLUMN IF NOT EXISTS expires_at timestamptz,
          ADD COLUMN IF NOT EXISTS allowed_origins text[],
          ADD COLUMN IF NOT EXISTS publishable_key text`);
      for (const [name, check] of Object.entries(CHECKS)) {
        await queryRunner.query(`ALTER TABLE api_keys DROP CONSTRAINT IF EXISTS ${name}`);
        await queryRunner.query(`ALTER TABLE api_keys ADD CONSTRAINT ${name} CHECK (${check}) NOT VALID`);
      }
      await queryRunner.commitTransaction();
    } catch (error) {
      await queryRunner.rollbackTransaction();
      throw error;
    }
    for (const name of Object.keys(CHECKS)) {
      await queryRunner.query(`ALTER TABLE api_keys VALIDATE CONSTRAINT ${name}`);
    }
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      ALTER TABLE api_keys
        DROP COLUMN publishable_key,
        DROP COLUMN allowed_origins,
        DROP COLUMN expires_at,
        DROP COLUMN scopes,
        DROP COLUMN kind`);
  }
}
