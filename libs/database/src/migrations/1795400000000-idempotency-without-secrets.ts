import { MigrationInterface, QueryRunner } from 'typeorm';

export class IdempotencyWithoutSecrets1795400000000 implements MigrationInterface {
  name = 'IdempotencyWithoutSecrets1795400000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    // Responses of POST /v1/keys used to be kept whole for replays, secret included. The worker now
    // purges expired rows; this removes those already expired and the secrets of the others (a retry
    // of a key's issue no longer replays the response).
    await queryRunner.query(`DELETE FROM idempotency_keys WHERE created_at < now() - interval '24 hours'`);
    await queryRunner.query(
      `UPDATE idempotency_keys SET response_body = response_body - 'key'
        WHERE jsonb_typeof(response_body) = 'object' AND response_body ? 'key'`,
    );
  }

  async down(): Promise<void> {
    // Deleted secrets cannot be restored, and nothing needs them.
  }
}
