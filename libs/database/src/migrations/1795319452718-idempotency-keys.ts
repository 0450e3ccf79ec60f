import { MigrationInterface, QueryRunner } from 'typeorm';

export class IdempotencyKeys1795319452718 implements MigrationInterface {
  name = 'IdempotencyKeys1795319452718';

  async up(queryRunner: QueryRunner): Promise<void> {
    // One row per (account, Idempotency-Key): a reservation while the first request runs, then the
    // response it got, replayed to retries for 24 hours.
    await queryRunner.query(`
      CREATE TABLE idempotency_keys (
        account_id bigint NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
        key varchar(255) NOT NULL,
        fingerprint bytea NOT NULL,
        locked_until timestamptz,
        response_status smallint,
        response_body jsonb,
        response_location text,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (account_id, key)
      )`);
    await queryRunner.query(`CREATE INDEX idempotency_keys_created_at_idx ON idempotency_keys (created_at)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE idempotency_keys`);
  }
}
