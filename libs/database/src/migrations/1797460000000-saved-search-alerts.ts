import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `saved_search.matched` events of recipients without a subscribed webhook endpoint, one narrow row each:
 * the recipient, the pet event whose object is the alert's pet, and the saved search. A pet change alerts
 * hundreds of searches, and an `events` row per alert (the pet copied in, four index entries, the
 * recipient's foreign-key check) was most of the matcher's work (docs/adr/0066-saved-search-alerts.md).
 * `seq` is drawn from the events' sequence, so that the feed orders both tables as one. The primary key is
 * the feed's index, the one on `created_at` (appended to, in time order) the retention's. No foreign key to
 * `accounts`, whose check costs as much as a narrow row: the retention removes what a deleted account leaves.
 */
export class SavedSearchAlerts1797460000000 implements MigrationInterface {
  name = 'SavedSearchAlerts1797460000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE saved_search_alerts (
        account_id bigint NOT NULL,
        seq bigint NOT NULL DEFAULT nextval('events_seq_seq'),
        change_id text NOT NULL,
        saved_search_id text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (account_id, seq)
      )`);
    await queryRunner.query(`CREATE INDEX saved_search_alerts_created_at_idx ON saved_search_alerts (created_at)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE saved_search_alerts`);
  }
}
