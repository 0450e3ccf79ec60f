import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Photos hosted by the service, the pet's copy of its ready ones, and the files waiting to
 * be removed from storage. New tables; the column `pets.photos` has a constant default, which PostgreSQL
 * keeps in the catalogue without rewriting the table, so adding it holds the lock on `pets` only for a
 * moment.
 */
export class Photos1796600000000 implements MigrationInterface {
  name = 'Photos1796600000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    // Removing a pet removes its photos' rows; the trigger below lists their files for removal.
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
        -- The storage keys the photo needs: its upload while processing, its renditions once ready.
        files text[] NOT NULL DEFAULT '{}',
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query(`CREATE INDEX photos_pet_id_position_idx ON photos (pet_id, position)`);
    // The reconciler's work list: only the photos still being processed.
    await queryRunner.query(`CREATE INDEX photos_processing_idx ON photos (updated_at) WHERE status = 'processing'`);
    await queryRunner.query(`ALTER TABLE pets ADD COLUMN photos jsonb NOT NULL DEFAULT '[]'`);
    // Files to remove from storage once `due_at` passes: at once for those of a removed or settled photo;
    // later for a file being written (an upload before its row, renditions before `ready`), whose record the
    // writer deletes when it commits the row that needs the file, so a crash in between leaves no orphan.
    // `photo_id` (no foreign key: the row may not exist yet, or any more) lets the sweep keep a file that
    // its photo's row names after all.
    await queryRunner.query(`
      CREATE TABLE photo_file_removals (
        key text PRIMARY KEY,
        photo_id text NOT NULL,
        due_at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query(`CREATE INDEX photo_file_removals_due_at_idx ON photo_file_removals (due_at)`);
    // A trigger, so that a pet's removal, which cascades to its photos, lists their files too.
    await queryRunner.query(`
      CREATE FUNCTION photo_files_to_remove() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO photo_file_removals (key, photo_id) SELECT unnest(OLD.files), OLD.id
          ON CONFLICT (key) DO UPDATE SET due_at = least(photo_file_removals.due_at, EXCLUDED.due_at);
        RETURN NULL;
      END $$`);
    await queryRunner.query(`
      CREATE TRIGGER photos_files_to_remove AFTER DELETE ON photos
        FOR EACH ROW EXECUTE FUNCTION photo_files_to_remove()`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE photo_file_removals`);
    await queryRunner.query(`ALTER TABLE pets DROP COLUMN photos`);
    await queryRunner.query(`DROP TABLE photos`);
    await queryRunner.query(`DROP FUNCTION photo_files_to_remove()`);
  }
}
