import { DataSource } from 'typeorm';
import { loadSettings } from '../../libs/core/src';
import { DatabaseSettings, migrationDataSourceOptions } from '../../libs/database/src';
import { MIGRATIONS } from '../../libs/database/src/migrations';
import { PhotoRenditionKeys1797470000000 } from '../../libs/database/src/migrations/1797470000000-photo-rendition-keys';
import { emptySuiteDatabase, SuiteDatabase } from '../support/database';

const PHOTO_ID = 'pho_AAAAAAAAAAAAAAAAAAAAAAAA';
const SIZES = ['small', 'medium', 'large', 'full'] as const;
const keys = Object.fromEntries(SIZES.map((size) => [size, `renditions/${PHOTO_ID}/${size}-${'0'.repeat(31)}1.jpg`]));
const urlsUnder = (base: string) => Object.fromEntries(SIZES.map((size) => [size, `${base}/${keys[size]}`]));
const stored = { id: PHOTO_ID, width: 640, height: 480, renditions: keys };
const served = (base: string) => ({ id: PHOTO_ID, width: 640, height: 480, urls: urlsUnder(base) });

describe('photos keep their renditions’ keys instead of the URLs they were first served at', () => {
  let scratch: SuiteDatabase;
  let dataSource: DataSource | undefined;
  const query = <T>(sql: string, parameters: unknown[] = []): Promise<T[]> => dataSource!.query(sql, parameters);
  const migrate = async (migrations: typeof MIGRATIONS) => {
    await dataSource?.destroy();
    const settings = loadSettings(DatabaseSettings, { DATABASE_URL: scratch.url });
    dataSource = new DataSource({ ...migrationDataSourceOptions(settings), entities: [], migrations });
    await dataSource.initialize();
    await dataSource.runMigrations({ transaction: 'each' });
  };
  /** What each table holds of the photo: its column, the pet's copy, a pet event's and an alert's. */
  const kept = async () => {
    const [photo] = await query<{ value: unknown }>(
      `SELECT coalesce(to_jsonb(p) -> 'renditions', to_jsonb(p) -> 'urls') AS value FROM photos p`,
    );
    const [pet] = await query<{ photos: unknown[] }>('SELECT photos FROM pets');
    const events = await query<{ object: Record<string, unknown> }>('SELECT object FROM events ORDER BY id');
    return {
      photo: photo!.value,
      pet: pet!.photos,
      petEvent: events[0]!.object.photos,
      alert: (events[1]!.object.pet as { photos: unknown }).photos,
      untouched: events[2]!.object,
    };
  };

  beforeAll(async () => {
    scratch = await emptySuiteDatabase('photo_renditions');
    await migrate(MIGRATIONS.filter((migration) => migration !== PhotoRenditionKeys1797470000000));
  });
  afterAll(async () => {
    await dataSource?.destroy();
    await scratch.drop();
  });

  it('turns every stored URL into its key, whatever base it was served under, and back under the old default', async () => {
    const base = 'https://cdn.example/some/media';
    const petPhotos = JSON.stringify([served(base)]);
    await query(`INSERT INTO accounts (email, email_canonical) VALUES ('photos@example.com', 'photos@example.com')`);
    const [pet] = await query<{ id: string }>(
      `INSERT INTO pets (name, category_id, photos) VALUES ('Rex', 1, $1) RETURNING id`,
      [petPhotos],
    );
    await query(
      `INSERT INTO photos (id, pet_id, status, position, width, height, urls, files)
       VALUES ($1, $2, 'ready', 0, 640, 480, $3, $4)`,
      [PHOTO_ID, pet!.id, JSON.stringify(urlsUnder(base)), Object.values(keys)],
    );
    const account = `(SELECT id FROM accounts WHERE email = 'photos@example.com')`;
    await query(
      `INSERT INTO events (id, account_id, type, object) VALUES
         ('evt_1', ${account}, 'pet.updated', jsonb_build_object('id', 1, 'photos', $1::jsonb)),
         ('evt_2', ${account}, 'saved_search.matched',
          jsonb_build_object('pet', jsonb_build_object('id', 1, 'photos', $1::jsonb), 'savedSearchId', 'srch_1')),
         ('evt_3', ${account}, 'order.placed', '{"id": 1, "urls": {"small": "https://x.example/a"}}')`,
      [petPhotos],
    );

    await migrate(MIGRATIONS);
    expect(await kept()).toEqual({
      photo: keys,
      pet: [stored],
      petEvent: [stored],
      alert: [stored],
      untouched: { id: 1, urls: { small: 'https://x.example/a' } },
    });

    await dataSource!.undoLastMigration({ transaction: 'each' });
    const old = served('http://localhost:3000/media');
    expect(await kept()).toEqual({
      photo: old.urls,
      pet: [old],
      petEvent: [old],
      alert: [old],
      untouched: { id: 1, urls: { small: 'https://x.example/a' } },
    });

    await migrate(MIGRATIONS);
    expect((await kept()).pet).toEqual([stored]);
  });
});
