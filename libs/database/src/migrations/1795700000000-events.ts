import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Events (the outbox and each account's feed), webhook endpoints, the deliveries of events to
 * endpoints and every attempt of them. New tables only: nothing existing is rewritten or locked.
 */
export class Events1795700000000 implements MigrationInterface {
  name = 'Events1795700000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    // Ids are random, so `seq` gives the feed (newest first) and its cursor a stable order.
    await queryRunner.query(`
      CREATE TABLE events (
        id text PRIMARY KEY,
        seq bigserial NOT NULL,
        account_id bigint NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
        type text NOT NULL,
        object jsonb NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        dispatched_at timestamptz
      )`);
    await queryRunner.query(`CREATE INDEX events_account_id_seq_idx ON events (account_id, seq DESC)`);
    await queryRunner.query(`CREATE INDEX events_account_id_type_seq_idx ON events (account_id, type, seq DESC)`);
    // The dispatcher's work list stays as small as what it has not yet turned into deliveries.
    await queryRunner.query(`CREATE INDEX events_undispatched_idx ON events (seq) WHERE dispatched_at IS NULL`);
    await queryRunner.query(`CREATE INDEX events_created_at_idx ON events (created_at)`);

    await queryRunner.query(`
      CREATE TABLE webhook_endpoints (
        id bigserial PRIMARY KEY,
        account_id bigint NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
        url text NOT NULL CHECK (char_length(url) <= 2048),
        event_types text[] NOT NULL,
        description text,
        enabled boolean NOT NULL DEFAULT true,
        secret_ciphertext text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query(`CREATE INDEX webhook_endpoints_account_id_idx ON webhook_endpoints (account_id, id)`);

    // One row per event and endpoint it goes to: what the queue's job stands for, and what the
    // reconciler checks against Redis.
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
    await queryRunner.query(`CREATE INDEX webhook_deliveries_endpoint_id_idx ON webhook_deliveries (endpoint_id)`);
    await queryRunner.query(
      `CREATE INDEX webhook_deliveries_unenqueued_idx ON webhook_deliveries (created_at)
        WHERE status = 'pending' AND enqueued_at IS NULL`,
    );
    await queryRunner.query(
      `CREATE INDEX webhook_deliveries_pending_idx ON webhook_deliveries (enqueued_at) WHERE status = 'pending'`,
    );

    // Every attempt, as GET /v1/webhook-endpoints/{id}/deliveries lists them.
    await queryRunner.query(`
      CREATE TABLE webhook_attempts (
        id bigserial PRIMARY KEY,
        endpoint_id bigint NOT NULL,
        event_id text NOT NULL,
        event_type text NOT NULL,
        attempt integer NOT NULL,
        status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'succeeded', 'failed')),
        response_status integer,
        duration_ms integer,
        error text,
        created_at timestamptz NOT NULL DEFAULT now(),
        FOREIGN KEY (event_id, endpoint_id) REFERENCES webhook_deliveries (event_id, endpoint_id) ON DELETE CASCADE
      )`);
    await queryRunner.query(`CREATE INDEX webhook_attempts_endpoint_id_idx ON webhook_attempts (endpoint_id, id DESC)`);
    await queryRunner.query(`CREATE INDEX webhook_attempts_delivery_idx ON webhook_attempts (event_id, endpoint_id)`);
    await queryRunner.query(`CREATE INDEX webhook_attempts_created_at_idx ON webhook_attempts (created_at)`);
    // Attempts whose worker stopped before their outcome was written, which the reconciler closes.
    await queryRunner.query(
      `CREATE INDEX webhook_attempts_pending_idx ON webhook_attempts (created_at) WHERE status = 'pending'`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE webhook_attempts, webhook_deliveries, webhook_endpoints, events`);
  }
}
