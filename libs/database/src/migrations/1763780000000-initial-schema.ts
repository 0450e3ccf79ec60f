import { MigrationInterface, QueryRunner } from 'typeorm';

export class InitialSchema1763780000000 implements MigrationInterface {
  name = 'InitialSchema1763780000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE accounts (
        id bigserial PRIMARY KEY,
        email varchar(254) NOT NULL,
        plan text NOT NULL DEFAULT 'free' CHECK (plan IN ('free', 'pro', 'business', 'enterprise')),
        custom_per_minute integer CHECK (custom_per_minute > 0),
        custom_per_day integer CHECK (custom_per_day > 0),
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    // Emails are compared case-insensitively.
    await queryRunner.query(`CREATE UNIQUE INDEX accounts_email_lower_key ON accounts (lower(email))`);

    await queryRunner.query(`
      CREATE TABLE api_keys (
        id bigserial PRIMARY KEY,
        account_id bigint NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
        name varchar(100) NOT NULL,
        prefix varchar(12) NOT NULL,
        key_hash bytea NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        last_used_at timestamptz,
        revoked_at timestamptz
      )`);
    // The bearer guard resolves keys by hash: one unique index lookup.
    await queryRunner.query(`CREATE UNIQUE INDEX api_keys_key_hash_key ON api_keys (key_hash)`);
    await queryRunner.query(`CREATE INDEX api_keys_account_id_idx ON api_keys (account_id, id)`);

    await queryRunner.query(`
      CREATE TABLE categories (
        id bigint PRIMARY KEY,
        name varchar(100) NOT NULL UNIQUE
      )`);
    await queryRunner.query(`
      INSERT INTO categories (id, name) VALUES
        (1, 'Dogs'), (2, 'Cats'), (3, 'Rabbits'), (4, 'Birds'), (5, 'Reptiles'), (6, 'Small mammals'), (7, 'Fish')`);

    await queryRunner.query(`
      CREATE TABLE pets (
        id bigserial PRIMARY KEY,
        name varchar(100) NOT NULL,
        category_id bigint NOT NULL REFERENCES categories (id),
        status text NOT NULL DEFAULT 'available' CHECK (status IN ('available', 'pending', 'sold')),
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    // Listing is keyset-paginated by id, optionally filtered by status: the primary key serves the
    // unfiltered list, this index the filtered one.
    await queryRunner.query(`CREATE INDEX pets_status_id_idx ON pets (status, id)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE pets`);
    await queryRunner.query(`DROP TABLE categories`);
    await queryRunner.query(`DROP TABLE api_keys`);
    await queryRunner.query(`DROP TABLE accounts`);
  }
}
