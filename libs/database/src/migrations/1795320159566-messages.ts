import { MigrationInterface, QueryRunner } from 'typeorm';

export class Messages1795320159566 implements MigrationInterface {
  name = 'Messages1795320159566';

  async up(queryRunner: QueryRunner): Promise<void> {
    // Ids are random, so `seq` gives the listing (newest first) and its cursor a stable order.
    await queryRunner.query(`
      CREATE TABLE messages (
        id text PRIMARY KEY,
        seq bigserial NOT NULL,
        account_id bigint NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
        message text NOT NULL CHECK (char_length(message) BETWEEN 1 AND 1600),
        status text NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'sending', 'sent', 'failed')),
        attempts integer NOT NULL DEFAULT 0,
        last_error text,
        created_at timestamptz NOT NULL DEFAULT now(),
        enqueued_at timestamptz,
        sending_at timestamptz,
        sent_at timestamptz,
        failed_at timestamptz
      )`);
    await queryRunner.query(`CREATE INDEX messages_account_id_seq_idx ON messages (account_id, seq DESC)`);
    await queryRunner.query(
      `CREATE INDEX messages_account_id_status_seq_idx ON messages (account_id, status, seq DESC)`,
    );
    // The reconciler's two sweeps: messages no job was confirmed for, and deliveries that may have stopped.
    await queryRunner.query(
      `CREATE INDEX messages_unenqueued_idx ON messages (created_at) WHERE status = 'queued' AND enqueued_at IS NULL`,
    );
    await queryRunner.query(`CREATE INDEX messages_sending_idx ON messages (sending_at) WHERE status = 'sending'`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE messages`);
  }
}
