import { MigrationInterface, QueryRunner } from 'typeorm';
import { sql } from '../sql-template';
import { backfillByIds, backfillByPages, runStatement } from './kept-column';

/** A rendition's storage key at the end of the URL it was served at (libs/photos/src/photo-files.ts). */
const RENDITION_KEY = String.raw`(renditions/pho_[0-9A-Za-z_-]{24}/[a-z]+-[0-9a-f]{32}\.(?:jpg|webp))$`;

/** Where the renditions were served before, for `down`: the old default, as no setting reaches a migration. */
const OLD_DEFAULT_BASE = 'http://localhost:3000/media';

/** `urls` (size to URL) as `renditions` (size to key), or back with `base`. */
const keysOf = (urls: string) =>
  `(SELECT jsonb_object_agg(size, substring(url FROM '${RENDITION_KEY}')) FROM jsonb_each_text(${urls}) AS u (size, url))`;
const urlsOf = (keys: string) =>
  `(SELECT jsonb_object_agg(size, '${OLD_DEFAULT_BASE}/' || key) FROM jsonb_each_text(${keys}) AS k (size, key))`;

/** A JSON array of photos (`pets.photos`, a Pet's `photos`) with each photo's `from` member turned into `to`. */
const photosWith = (photos: string, from: string, to: string, convert: (member: string) => string) =>
  `(SELECT coalesce(jsonb_agg(CASE WHEN p ? '${from}' THEN (p - '${from}') || jsonb_build_object('${to}', ${convert(`p -> '${from}'`)})
                                 ELSE p END ORDER BY n), '[]')
      FROM jsonb_array_elements(${photos}) WITH ORDINALITY AS e (p, n))`;

const hasMember = (photos: string, member: string) => `jsonb_path_exists(${photos}, '$[*].${member}')`;

/** One way of the migration: each photo's member `from` (a column of `photos`) becomes `to`. */
interface Conversion {
  from: string;
  to: string;
  convert: (member: string) => string;
  /** Whether the photos column, renamed `to` already, still holds what `from` held. */
  unconverted: (column: string) => string;
}

/**
 * Photos keep their renditions' storage keys (`photos.renditions`, the `renditions` of each photo in
 * `pets.photos` and in the Pets of events) instead of the URLs they were first served at: URLs are formed as
 * a photo is read, from the base configured then. The column is renamed in a catalogue update; the rows
 * are rewritten a batch at a time (pets by ranges of ids, photos and events by ranges of pages, none needing
 * an index), each batch holding its rows' locks briefly, and a batch run again finds nothing left to do, so
 * an interrupted migration completes when started again. Processes of the previous version name `urls` and
 * fail on photos from the rename on: stop them first (compose's `migrate` runs before the apps start).
 */
export class PhotoRenditionKeys1797470000000 implements MigrationInterface {
  name = 'PhotoRenditionKeys1797470000000';
  transaction = false;

  async up(queryRunner: QueryRunner): Promise<void> {
    // A photo's keys hold no `://`; its URLs always do.
    await this.convert(queryRunner, {
      from: 'urls',
      to: 'renditions',
      convert: keysOf,
      unconverted: (column) => `${column}::text LIKE '%://%'`,
    });
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await this.convert(queryRunner, {
      from: 'renditions',
      to: 'urls',
      convert: urlsOf,
      unconverted: (column) => `${column}::text NOT LIKE '%://%'`,
    });
  }

  private async convert(queryRunner: QueryRunner, { from, to, convert, unconverted }: Conversion): Promise<void> {
    const [{ renamed }] = await runStatement(
      queryRunner,
      sql`SELECT count(*) = 0 AS renamed FROM information_schema.columns
           WHERE table_name = 'photos' AND column_name = ${from}`,
    );
    if (!renamed) await queryRunner.query(`ALTER TABLE photos RENAME COLUMN ${from} TO ${to}`);
    await backfillByPages(queryRunner, 'photos', `${to} = ${convert(to)}`, unconverted(to));
    await backfillByIds(
      queryRunner,
      'pets',
      `photos = ${photosWith('photos', from, to, convert)}`,
      hasMember('photos', from),
    );
    const petPhotos = `object -> 'photos'`;
    const alertPhotos = `object -> 'pet' -> 'photos'`;
    await backfillByPages(
      queryRunner,
      'events',
      `object = CASE WHEN ${hasMember(petPhotos, from)}
                     THEN jsonb_set(object, '{photos}', ${photosWith(petPhotos, from, to, convert)})
                     ELSE jsonb_set(object, '{pet,photos}', ${photosWith(alertPhotos, from, to, convert)}) END`,
      `(type LIKE 'pet.%' AND ${hasMember(petPhotos, from)})
       OR (type = 'saved_search.matched' AND ${hasMember(alertPhotos, from)})`,
    );
  }
}
