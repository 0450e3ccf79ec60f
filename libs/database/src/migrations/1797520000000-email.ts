import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Email (docs/email.md): the notifications' outbox, written in the transaction of the change that causes
 * each, and what stops one being sent: an address whose server refused it for good, and an address that
 * left a list. Addresses are kept as sent and compared by `address_key`, their canonical form (as accounts'
 * emails are). A list is named by text (`application:app_…`, `saved_search:srch_…`, `lister:42`). The
 * partial index is the delivery's claim, the other one the operator's view of an address. Saved searches
 * gain `email_alerts`, the time of their last digest, and the pets that came to match since, which the
 * matcher records for the searches with email alerts.
 */
export class Email1797520000000 implements MigrationInterface {
  name = 'Email1797520000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE IF NOT EXISTS email_notifications (
        id text PRIMARY KEY,
        address text NOT NULL,
        address_key text NOT NULL,
        list text NOT NULL,
        template text NOT NULL,
        data jsonb NOT NULL,
        status text NOT NULL DEFAULT 'pending'
          CHECK (status IN ('pending', 'sent', 'suppressed', 'unsubscribed', 'bounced', 'failed')),
        attempts integer NOT NULL DEFAULT 0,
        next_attempt_at timestamptz NOT NULL DEFAULT now(),
        last_error text,
        created_at timestamptz NOT NULL DEFAULT now(),
        finished_at timestamptz
      )`);
    await queryRunner.query(`CREATE INDEX IF NOT EXISTS email_notifications_due_idx
                               ON email_notifications (next_attempt_at) WHERE status = 'pending'`);
    await queryRunner.query(`CREATE INDEX IF NOT EXISTS email_notifications_address_idx
                               ON email_notifications (address_key, created_at DESC)`);
    await queryRunner.query(`
      CREATE TABLE IF NOT EXISTS email_suppressions (
        address_key text PRIMARY KEY,
        reason text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query(`
      CREATE TABLE IF NOT EXISTS email_unsubscribes (
        address_key text NOT NULL,
        list text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (address_key, list)
      )`);
    await queryRunner.query(`ALTER TABLE saved_searches
                               ADD COLUMN IF NOT EXISTS email_alerts boolean NOT NULL DEFAULT false,
                               ADD COLUMN IF NOT EXISTS emailed_at timestamptz`);
    await queryRunner.query(`
      CREATE TABLE IF NOT EXISTS saved_search_email_matches (
        saved_search_id text NOT NULL REFERENCES saved_searches (id) ON DELETE CASCADE,
        pet_id bigint NOT NULL,
        pet_name text NOT NULL,
        matched_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (saved_search_id, pet_id)
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE saved_search_email_matches`);
    await queryRunner.query(`ALTER TABLE saved_searches DROP COLUMN emailed_at, DROP COLUMN email_alerts`);
    await queryRunner.query(`DROP TABLE email_unsubscribes`);
    await queryRunner.query(`DROP TABLE email_suppressions`);
    await queryRunner.query(`DROP TABLE email_notifications`);
  }
}
