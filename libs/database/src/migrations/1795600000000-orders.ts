import { MigrationInterface, QueryRunner } from 'typeorm';

/** How many counter rows the inventory spreads over (docs/adr/0023-inventory-in-slotted-counters.md). */
const COUNTER_SLOTS = 32;

export class Orders1795600000000 implements MigrationInterface {
  name = 'Orders1795600000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    // Orders keep their pet_id with no foreign key: a delivered pet may be removed from the catalogue.
    await queryRunner.query(`
      CREATE TABLE orders (
        id bigserial PRIMARY KEY,
        pet_id bigint NOT NULL,
        adopter_account_id bigint NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
        lister_account_id bigint NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
        status text NOT NULL DEFAULT 'placed'
          CHECK (status IN ('placed', 'approved', 'delivered', 'cancelled', 'returned')),
        note text CHECK (char_length(note) BETWEEN 1 AND 1000),
        cancellation_reason text CHECK (char_length(cancellation_reason) BETWEEN 1 AND 500),
        return_reason text CHECK (char_length(return_reason) BETWEEN 1 AND 500),
        expires_at timestamptz CHECK ((status = 'placed') = (expires_at IS NOT NULL)),
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CHECK (adopter_account_id <> lister_account_id)
      )`);
    // Each party's listing, newest first; the open-orders cap counts an adopter's placed orders; the
    // worker's sweep finds holds that ran out.
    await queryRunner.query(`CREATE INDEX orders_adopter_idx ON orders (adopter_account_id, id DESC)`);
    await queryRunner.query(`CREATE INDEX orders_lister_idx ON orders (lister_account_id, id DESC)`);
    await queryRunner.query(
      `CREATE INDEX orders_adopter_placed_idx ON orders (adopter_account_id) WHERE status = 'placed'`,
    );
    await queryRunner.query(`CREATE INDEX orders_hold_expiry_idx ON orders (expires_at) WHERE status = 'placed'`);

    // The inventory: one row per slot with a count per pet status, summed on read.
    await queryRunner.query(`
      CREATE TABLE pet_status_counts (
        slot smallint PRIMARY KEY,
        available bigint NOT NULL DEFAULT 0,
        pending bigint NOT NULL DEFAULT 0,
        sold bigint NOT NULL DEFAULT 0
      )`);
    await queryRunner.query(`INSERT INTO pet_status_counts (slot) SELECT generate_series(0, ${COUNTER_SLOTS - 1})`);
    // Once per statement, from its transition tables. Every statement of a transaction adds to the
    // slot of its connection, so a transaction locks one counter row whatever it changes, and
    // transactions on other connections add to other rows without waiting for it.
    await queryRunner.query(`
      CREATE FUNCTION count_pet_statuses() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE
        change record;
      BEGIN
        IF TG_OP = 'INSERT' THEN
          SELECT count(*) FILTER (WHERE status = 'available') AS available,
                 count(*) FILTER (WHERE status = 'pending') AS pending,
                 count(*) FILTER (WHERE status = 'sold') AS sold
            INTO change FROM new_rows;
        ELSIF TG_OP = 'DELETE' THEN
          SELECT -count(*) FILTER (WHERE status = 'available') AS available,
                 -count(*) FILTER (WHERE status = 'pending') AS pending,
                 -count(*) FILTER (WHERE status = 'sold') AS sold
            INTO change FROM old_rows;
        ELSE
          SELECT coalesce(sum(sign) FILTER (WHERE status = 'available'), 0) AS available,
                 coalesce(sum(sign) FILTER (WHERE status = 'pending'), 0) AS pending,
                 coalesce(sum(sign) FILTER (WHERE status = 'sold'), 0) AS sold
            INTO change
            FROM (SELECT status, 1 AS sign FROM new_rows UNION ALL SELECT status, -1 FROM old_rows) rows;
        END IF;
        IF change.available <> 0 OR change.pending <> 0 OR change.sold <> 0 THEN
          UPDATE pet_status_counts
             SET available = available + change.available,
                 pending = pending + change.pending,
                 sold = sold + change.sold
           WHERE slot = pg_backend_pid() % ${COUNTER_SLOTS};
        END IF;
        RETURN NULL;
      END $$`);
    await queryRunner.query(`
      CREATE FUNCTION reset_pet_status_counts() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        UPDATE pet_status_counts SET available = 0, pending = 0, sold = 0;
        RETURN NULL;
      END $$`);
    // CREATE TRIGGER holds off writes to pets until this migration commits, so the counts below and
    // the triggers see the same catalogue: the writes wait for one index-only count of (status, id).
    await queryRunner.query(`
      CREATE TRIGGER pets_count_inserted AFTER INSERT ON pets REFERENCING NEW TABLE AS new_rows
        FOR EACH STATEMENT EXECUTE FUNCTION count_pet_statuses()`);
    await queryRunner.query(`
      CREATE TRIGGER pets_count_updated AFTER UPDATE ON pets REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
        FOR EACH STATEMENT EXECUTE FUNCTION count_pet_statuses()`);
    await queryRunner.query(`
      CREATE TRIGGER pets_count_deleted AFTER DELETE ON pets REFERENCING OLD TABLE AS old_rows
        FOR EACH STATEMENT EXECUTE FUNCTION count_pet_statuses()`);
    await queryRunner.query(`
      CREATE TRIGGER pets_count_truncated AFTER TRUNCATE ON pets
        FOR EACH STATEMENT EXECUTE FUNCTION reset_pet_status_counts()`);
    await queryRunner.query(`
      UPDATE pet_status_counts
         SET available = counted.available, pending = counted.pending, sold = counted.sold
        FROM (SELECT count(*) FILTER (WHERE status = 'available') AS available,
                     count(*) FILTER (WHERE status = 'pending') AS pending,
                     count(*) FILTER (WHERE status = 'sold') AS sold
                FROM pets) counted
       WHERE slot = 0`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TRIGGER pets_count_truncated ON pets`);
    await queryRunner.query(`DROP TRIGGER pets_count_deleted ON pets`);
    await queryRunner.query(`DROP TRIGGER pets_count_updated ON pets`);
    await queryRunner.query(`DROP TRIGGER pets_count_inserted ON pets`);
    await queryRunner.query(`DROP FUNCTION reset_pet_status_counts()`);
    await queryRunner.query(`DROP FUNCTION count_pet_statuses()`);
    await queryRunner.query(`DROP TABLE pet_status_counts`);
    await queryRunner.query(`DROP TABLE orders`);
  }
}
