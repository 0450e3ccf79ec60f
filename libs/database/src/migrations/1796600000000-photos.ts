import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Photos hosted by the service (CONTRACT 14), and the pet's copy of its ready ones. A new table; the
 * column `pets.photos` has a constant default, which PostgreSQL keeps in the catalogue without
 * rewriting the table, so adding it holds the lock on `pets` only for a moment.
 */
export class Photos1796600000000 implements MigrationInterface {
  name = 'Photos1796600000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    // Removing a pet removes its photos' rows; the sweep removes their files (PhotosSweeper).
    await queryRunner.query(`
      CREATE TABLE photos (
        id text PRIMARY KEY,
        pet_id bigint NOT NULL REFERENCES pets (id) ON DELETE CASCADE,
        status text NOT NULL DEFAULT 'processing' CHECK (status IN ('processing', 'ready', 'failed')),
        position integer NOT NULL CHECK (position >= 0),
        width integer,
        height integer,
        urls jsonb,
        error text,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query(`CREATE INDEX photos_pet_id_position_idx ON photos (pet_id, position)`);
    // The reconciler's work list: only the photos still being processed.
    await queryRunner.query(`CREATE INDEX photos_processing_idx ON photos (updated_at) WHERE status = 'processing'`);
    await queryRunner.query(`ALTER TABLE pets ADD COLUMN photos jsonb NOT NULL DEFAULT '[]'`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE pets DROP COLUMN photos`);
    await queryRunner.query(`DROP TABLE photos`);
  }
}
