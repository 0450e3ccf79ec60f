import { MigrationInterface, QueryRunner } from 'typeorm';

/** The attempts' foreign keys to what they go with. */
const FOREIGN_KEYS = {
  webhook_attempts_event_id_fkey: 'FOREIGN KEY (event_id) REFERENCES events (id) ON DELETE CASCADE',
  webhook_attempts_endpoint_id_fkey: 'FOREIGN KEY (endpoint_id) REFERENCES webhook_endpoints (id) ON DELETE CASCADE',
};

/**
 * Webhook deliveries become their attempts: a delivery's next attempt is opened `pending` before it is
 * made (the first when its event is dispatched), so `webhook_deliveries` and its bookkeeping go. Stop
 * the workers of the previous version before migrating: they write to `webhook_deliveries`, and nothing
 * else writes to `webhook_attempts`. Api processes keep serving: `events`, which every change writes to,
 * is locked only while the transaction that adds the foreign keys (`NOT VALID`, no scan) commits; they
 * are validated after it, under a lock that lets writes go on. Run again after a failure, it completes.
 */
export class WebhookAttemptsOnly1795800000000 implements MigrationInterface {
  name = 'WebhookAttemptsOnly1795800000000';
  transaction = false;

  async up(queryRunner: QueryRunner): Promise<void> {
    if (await queryRunner.hasTable('webhook_deliveries')) await foldDeliveries(queryRunner);
    for (const constraint of Object.keys(FOREIGN_KEYS))
      await queryRunner.query(`ALTER TABLE webhook_attempts VALIDATE CONSTRAINT ${constraint}`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await inTransaction(queryRunner, () => rebuildDeliveries(queryRunner));
  }
}

async function inTransaction(queryRunner: QueryRunner, work: () => Promise<void>): Promise<void> {
  await queryRunner.startTransaction();
  try {
    await work();
    await queryRunner.commitTransaction();
  } catch (error) {
    await queryRunner.rollbackTransaction();
    throw error;
  }
}

/** One transaction; the foreign keys last, so that `events` is locked only while it commits. */
function foldDeliveries(queryRunner: QueryRunner): Promise<void> {
  return inTransaction(queryRunner, async () => {
    // An attempt left pending by a stopped worker, or behind a later one, was interrupted.
    await queryRunner.query(`
      UPDATE webhook_attempts a SET status = 'failed', error = 'the attempt was interrupted'
        FROM webhook_deliveries d
       WHERE a.status = 'pending' AND d.event_id = a.event_id AND d.endpoint_id = a.endpoint_id
         AND (d.status <> 'pending' OR a.attempt < d.attempts)`);
    // A pending delivery whose last attempt is over, or that none was made of yet, opens its next one.
    await queryRunner.query(`
      INSERT INTO webhook_attempts (event_id, endpoint_id, event_type, attempt, created_at)
      SELECT d.event_id, d.endpoint_id, e.type, d.attempts + 1, coalesce(d.attempted_at, d.created_at)
        FROM webhook_deliveries d JOIN events e ON e.id = d.event_id
       WHERE d.status = 'pending' AND NOT EXISTS (
         SELECT FROM webhook_attempts a
          WHERE a.event_id = d.event_id AND a.endpoint_id = d.endpoint_id AND a.status = 'pending')`);
    // Attempts now go with their events (retention) and their endpoints; pending ones are found by id.
    await queryRunner.query(
      `DROP INDEX webhook_attempts_delivery_idx, webhook_attempts_created_at_idx, webhook_attempts_pending_idx`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX webhook_attempts_delivery_idx ON webhook_attempts (event_id, endpoint_id, attempt)`,
    );
    await queryRunner.query(
      `CREATE INDEX webhook_attempts_pending_idx ON webhook_attempts (id) WHERE status = 'pending'`,
    );
    await queryRunner.query(`ALTER TABLE webhook_attempts DROP CONSTRAINT webhook_attempts_event_id_endpoint_id_fkey`);
    await queryRunner.query(`DROP TABLE webhook_deliveries`);
    const keys = Object.entries(FOREIGN_KEYS).map(([name, key]) => `ADD CONSTRAINT ${name} ${key} NOT VALID`);
    await queryRunner.query(`ALTER TABLE webhook_attempts ${keys.join(', ')}`);
  });
}

async function rebuildDeliveries(queryRunner: QueryRunner): Promise<void> {
  await queryRunner.query(`
      CREATE TABLE webhook_deliveries (
        event_id text NOT NULL REFERENCES events (id) ON DELETE CASCADE,
        endpoint_id bigint NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
        status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'succeeded', 'failed')),
        attempts integer NOT NULL DEFAULT 0,
        created_at timestamptz NOT NULL DEFAULT now(),
        enqueued_at timestamptz,
        attempted_at timestamptz,
        PRIMARY KEY (event_id, endpoint_id)
      )`);
  // The previous version opens an attempt when it makes it: an attempt not yet made is only a count.
  await queryRunner.query(`
      INSERT INTO webhook_deliveries (event_id, endpoint_id, status, attempts, created_at, enqueued_at, attempted_at)
      SELECT event_id, endpoint_id,
             CASE WHEN bool_or(status = 'succeeded') THEN 'succeeded' WHEN bool_or(status = 'pending') THEN 'pending'
                  ELSE 'failed' END,
             count(*) FILTER (WHERE status <> 'pending'), min(created_at), min(created_at), max(created_at)
        FROM webhook_attempts GROUP BY event_id, endpoint_id`);
  await queryRunner.query(`DELETE FROM webhook_attempts WHERE status = 'pending'`);
  await queryRunner.query(`DROP INDEX webhook_attempts_delivery_idx, webhook_attempts_pending_idx`);
  await queryRunner.query(`
      ALTER TABLE webhook_attempts
        DROP CONSTRAINT webhook_attempts_event_id_fkey,
        DROP CONSTRAINT webhook_attempts_endpoint_id_fkey,
        ADD FOREIGN KEY (event_id, endpoint_id) REFERENCES webhook_deliveries (event_id, endpoint_id) ON DELETE CASCADE`);
  await queryRunner.query(`CREATE INDEX webhook_deliveries_endpoint_id_idx ON webhook_deliveries (endpoint_id)`);
  await queryRunner.query(
    `CREATE INDEX webhook_deliveries_unenqueued_idx ON webhook_deliveries (created_at)
        WHERE status = 'pending' AND enqueued_at IS NULL`,
  );
  await queryRunner.query(
    `CREATE INDEX webhook_deliveries_pending_idx ON webhook_deliveries (enqueued_at) WHERE status = 'pending'`,
  );
  await queryRunner.query(`CREATE INDEX webhook_attempts_delivery_idx ON webhook_attempts (event_id, endpoint_id)`);
  await queryRunner.query(`CREATE INDEX webhook_attempts_created_at_idx ON webhook_attempts (created_at)`);
  await queryRunner.query(
    `CREATE INDEX webhook_attempts_pending_idx ON webhook_attempts (created_at) WHERE status = 'pending'`,
  );
}
