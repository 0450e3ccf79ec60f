import { MigrationInterface, QueryRunner } from 'typeorm';
import { buildIndexConcurrently } from './kept-column';

/**
 * An email notification names the account that gave its address (its own email, its application form's
 * `notifyEmail`, the contact of an application it made), when one did: what the account's export shows of
 * the email sent to it and its erasure deletes. Adding a column without a default changes only the
 * catalogue; the partial index that finds them is built CONCURRENTLY, so the outbox goes on. Can run again.
 */
export class EmailNotificationAccounts1797540000000 implements MigrationInterface {
  name = 'EmailNotificationAccounts1797540000000';
  transaction = false;

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE email_notifications ADD COLUMN IF NOT EXISTS account_id bigint`);
    await buildIndexConcurrently(
      queryRunner,
      'email_notifications_account_idx',
      'email_notifications (account_id, created_at, id) WHERE account_id IS NOT NULL',
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX IF EXISTS email_notifications_account_idx`);
    await queryRunner.query(`ALTER TABLE email_notifications DROP COLUMN IF EXISTS account_id`);
  }
}
