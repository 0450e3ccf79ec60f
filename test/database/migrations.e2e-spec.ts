import { Client, escapeIdentifier } from 'pg';
import { DataSource } from 'typeorm';
import { loadSettings } from '../../libs/core/src';
import { DatabaseSettings, migrationDataSourceOptions } from '../../libs/database/src';
import { MIGRATIONS } from '../../libs/database/src/migrations';
import { CanonicalEmails1795400100000 } from '../../libs/database/src/migrations/1795400100000-canonical-emails';
import { IdempotencyWithoutSecrets1795400000000 } from '../../libs/database/src/migrations/1795400000000-idempotency-without-secrets';
import { PetRecord1795500000000 } from '../../libs/database/src/migrations/1795500000000-pet-record';
import { Orders1795600000000 } from '../../libs/database/src/migrations/1795600000000-orders';
import { OrganizationAnimalCounts1797400000000 } from '../../libs/database/src/migrations/1797400000000-organization-animal-counts';
import { OrganizationStoredPlace1797420000000 } from '../../libs/database/src/migrations/1797420000000-organization-stored-place';
import { WebhookAttemptsOnly1795800000000 } from '../../libs/database/src/migrations/1795800000000-webhook-attempts-only';
import { PetSearchDocument1797300000000 } from '../../libs/database/src/migrations/1797300000000-pet-search-document';
import { StoredLoweredColours1797410000000 } from '../../libs/database/src/migrations/1797410000000-stored-lowered-colours';
import { SavedSearchPetStates1797440000000 } from '../../libs/database/src/migrations/1797440000000-saved-search-pet-states';
import { TEST_DATABASE_URL } from '../support/test-env';

/** A database of its own, migrated step by step, so that the shared test database is left alone. */
const scratchUrl = new URL(TEST_DATABASE_URL);
const scratchName = `${decodeURIComponent(scratchUrl.pathname.slice(1))}_migrations`;
scratchUrl.pathname = `/${scratchName}`;

async function withAdmin(run: (admin: Client) => Promise<unknown>): Promise<void> {
  const url = new URL(TEST_DATABASE_URL);
  url.pathname = '/postgres';
  const admin = new Client({ connectionString: url.toString() });
  await admin.connect();
  try {
    await run(admin);
  } finally {
    await admin.end();
  }
}

describe('migrations of data already stored', () => {
  let dataSource: DataSource;
  const query = <T>(sql: string, parameters: unknown[] = []): Promise<T[]> => dataSource.query(sql, parameters);
  /** Runs the migrations before `migration` (exclusive), or all of them. */
  const migrate = async (before?: { name: string }) => {
    const migrations = before
      ? MIGRATIONS.slice(
          0,
          MIGRATIONS.findIndex((m) => m.name === before.name),
        )
      : MIGRATIONS;
    await dataSource?.destroy();
    const settings = loadSettings(DatabaseSettings, { DATABASE_URL: scratchUrl.toString() });
    dataSource = new DataSource({ ...migrationDataSourceOptions(settings), entities: [], migrations });
    await dataSource.initialize();
    await dataSource.runMigrations({ transaction: 'each' });
  };
  /** Reverts the applied migrations down to `migration`, that one included. */
  const revertThrough = async (migration: { name: string }) => {
    for (;;) {
      const [last] = await query<{ name: string }>('SELECT name FROM migrations ORDER BY id DESC LIMIT 1');
      await dataSource.undoLastMigration({ transaction: 'each' });
      if (last?.name === migration.name) return;
    }
  };

  /**
   * Reverts the applied migrations down to `migration`, which stored `table.column` kept by its trigger, and
   * checks that both are gone and the index it replaced is back.
   */
  const revertKeptColumn = async (migration: { name: string }, table: string, column: string, index: string) => {
    await revertThrough(migration);
    const left = await query(
      `SELECT 1 FROM information_schema.columns WHERE table_name = $1 AND column_name = $2
       UNION ALL SELECT 1 FROM pg_trigger WHERE tgrelid = $1::regclass AND tgname = $1 || '_' || $2`,
      [table, column],
    );
    expect(left).toEqual([]);
    expect(await query('SELECT to_regclass($1) IS NOT NULL AS indexed', [index])).toEqual([{ indexed: true }]);
  };

  beforeAll(async () => {
    await withAdmin(async (admin) => {
      await admin.query(`DROP DATABASE IF EXISTS ${escapeIdentifier(scratchName)} WITH (FORCE)`);
      await admin.query(`CREATE DATABASE ${escapeIdentifier(scratchName)}`);
    });
    await migrate(IdempotencyWithoutSecrets1795400000000);
  });
  afterAll(async () => {
    await dataSource?.destroy();
    await withAdmin((admin) => admin.query(`DROP DATABASE IF EXISTS ${escapeIdentifier(scratchName)} WITH (FORCE)`));
  });

  it('drops stored secrets and expired idempotency keys, and gives accounts canonical emails, keeping collisions', async () => {
    const emails = ['xß@example.com', 'xSS@example.com', 'Alex@example.com', 'ａlex@example.com', 'ıvy@example.com'];
    const ids: number[] = [];
    for (const email of emails) {
      ids.push(
        Number((await query<{ id: string }>('INSERT INTO accounts (email) VALUES ($1) RETURNING id', [email]))[0].id),
      );
    }
    const store = (key: string, body: object, age = '0 seconds') =>
      query(
        `INSERT INTO idempotency_keys (account_id, key, fingerprint, response_status, response_body, created_at)
         VALUES ($1, $2, '\\x00', 201, $3, now() - $4::interval)`,
        [ids[0], key, JSON.stringify(body), age],
      );
    await store('issued', { id: 7, name: 'ci', key: 'pet_test_0123456789abcdefghijklmnopqrstuv' });
    await store('pet', { id: 3, name: 'Rex' });
    await store('expired', { id: 4, name: 'Old' }, '25 hours');
    await query(
      `INSERT INTO pets (name, category_id, created_at)
       SELECT 'Pet ' || n, 1, timestamptz '2025-01-01T00:00:00Z' + n * interval '1 day' FROM generate_series(1, 25001) n`,
    );

    await migrate();

    const accounts = await query<{ id: string; email_canonical: string | null }>(
      'SELECT id, email_canonical FROM accounts ORDER BY id',
    );
    expect(accounts.map((account) => account.email_canonical)).toEqual([
      'xss@example.com',
      null,
      'alex@example.com',
      null,
      'ivy@example.com',
    ]);
    await expect(
      query(`INSERT INTO accounts (email, email_canonical) VALUES ('XSS@example.com', 'xss@example.com')`),
    ).rejects.toMatchObject({ code: '23505' });

    const stored = await query<{ key: string; response_body: object }>(
      'SELECT key, response_body FROM idempotency_keys ORDER BY key',
    );
    expect(stored).toEqual([
      { key: 'issued', response_body: { id: 7, name: 'ci' } },
      { key: 'pet', response_body: { id: 3, name: 'Rex' } },
    ]);
  });

  it('gives existing pets the record with its defaults, last changed when they were added, and no lister', async () => {
    const [pets] = await query<Record<string, string>>(
      `SELECT count(*) AS total,
              count(*) FILTER (WHERE updated_at = created_at) AS unchanged,
              count(*) FILTER (WHERE sex = 'unknown') AS unknown_sex,
              count(lister_account_id) AS listed, count(open_order_id) AS held
         FROM pets`,
    );
    expect(pets).toEqual({ total: '25001', unchanged: '25001', unknown_sex: '25001', listed: '0', held: '0' });
    const invalid = await query<{ conname: string }>(
      `SELECT conname FROM pg_constraint WHERE conrelid = 'pets'::regclass AND NOT convalidated`,
    );
    expect(invalid).toEqual([]);
    const [nullable] = await query<{ is_nullable: string }>(
      `SELECT is_nullable FROM information_schema.columns WHERE table_name = 'pets' AND column_name = 'updated_at'`,
    );
    expect(nullable).toEqual({ is_nullable: 'NO' });
    await expect(query(`UPDATE pets SET sex = 'other' WHERE id = 1`)).rejects.toMatchObject({ code: '23514' });
    await expect(query(`UPDATE pets SET latitude = 10 WHERE id = 1`)).rejects.toMatchObject({ code: '23514' });
  });

  it('gives existing pets their search document, which every later write keeps true, and reverts to the index', async () => {
    const found = async (words: string) =>
      (
        await query<{ id: string }>(
          `SELECT id FROM pets WHERE search_document @@ plainto_tsquery('pet_search', $1) ORDER BY id`,
          [words],
        )
      ).map((pet) => Number(pet.id));
    // 25,001 pets: the backfill's last batch holds one.
    expect(await found('pet 25001')).toEqual([25001]);
    expect(await found('12345')).toEqual([12345]);
    const [nullable] = await query<{ is_nullable: string }>(
      `SELECT is_nullable FROM information_schema.columns WHERE table_name = 'pets' AND column_name = 'search_document'`,
    );
    expect(nullable).toEqual({ is_nullable: 'NO' });

    await query(`UPDATE pets SET description = 'Answers to Élodie', breed = 'Beagle' WHERE id = 3`);
    expect(await found('elodie beagle')).toEqual([3]);
    await query(`UPDATE pets SET name = 'Kiki', breed = NULL WHERE id = 3`);
    expect(await found('kiki elodie')).toEqual([3]);
    expect(await found('beagle')).toEqual([]);
    const [added] = await query<{ id: string }>(
      `INSERT INTO pets (name, category_id, description) VALUES ('Ölaf', 1, 'Tiny') RETURNING id`,
    );
    expect(await found('olaf tiny')).toEqual([Number(added!.id)]);
    await query('DELETE FROM pets WHERE id = $1', [added!.id]);

    await revertKeptColumn(PetSearchDocument1797300000000, 'pets', 'search_document', 'pets_search_idx');
    await migrate();
    expect(await found('kiki')).toEqual([3]);
  });

  it('gives existing pets their colours lower-cased, which every later write keeps true, and reverts to the index', async () => {
    await revertThrough(StoredLoweredColours1797410000000);
    await query(`UPDATE pets SET colors = ARRAY['Black', 'White'] WHERE id = 7`);
    // The backfill's last batch holds the last pet.
    await query(`UPDATE pets SET colors = ARRAY['TAN'] WHERE id = 25001`);
    await migrate();

    const lowered = async (id: number) =>
      (await query<{ colors_lowered: string[] | null }>('SELECT colors_lowered FROM pets WHERE id = $1', [id]))[0]!
        .colors_lowered;
    expect(await lowered(7)).toEqual(['black', 'white']);
    expect(await lowered(25001)).toEqual(['tan']);
    expect(await lowered(8)).toBeNull();
    await query(`UPDATE pets SET colors = ARRAY['Grey', 'BROWN'] WHERE id = 8`);
    expect(await lowered(8)).toEqual(['grey', 'brown']);
    await query('UPDATE pets SET colors = NULL WHERE id = 7');
    expect(await lowered(7)).toBeNull();
    const [added] = await query<{ id: string }>(
      `INSERT INTO pets (name, category_id, colors) VALUES ('Ziggy', 1, ARRAY['Ginger']) RETURNING id`,
    );
    expect(await lowered(Number(added!.id))).toEqual(['ginger']);
    await query('DELETE FROM pets WHERE id = $1', [added!.id]);

    await revertKeptColumn(StoredLoweredColours1797410000000, 'pets', 'colors_lowered', 'pets_colors_lowered_idx');
    await migrate();
    expect(await lowered(8)).toEqual(['grey', 'brown']);
  });

  it('turns webhook deliveries into their attempts, opening the next one of each pending delivery, and back', async () => {
    await revertThrough(WebhookAttemptsOnly1795800000000);
    const [account] = await query<{ id: string }>(
      `INSERT INTO accounts (email, email_canonical) VALUES ('hooks@example.com', 'hooks@example.com') RETURNING id`,
    );
    const [endpoint] = await query<{ id: string }>(
      `INSERT INTO webhook_endpoints (account_id, url, event_types, secret_ciphertext)
       VALUES ($1, 'https://example.com/hooks', '{*}', 'v1.unused') RETURNING id`,
      [account!.id],
    );
    await query(
      `INSERT INTO events (id, account_id, type, object) SELECT 'evt_m' || i, $1, 'pet.created', '{}' FROM generate_series(1, 5) i`,
      [account!.id],
    );
    // In flight; waiting for its third attempt; succeeded; settled with an attempt a stopped worker left
    // open; not attempted yet.
    await query(
      `INSERT INTO webhook_deliveries (event_id, endpoint_id, status, attempts, enqueued_at)
       VALUES ('evt_m1', $1, 'pending', 1, now()), ('evt_m2', $1, 'pending', 2, now()),
              ('evt_m3', $1, 'succeeded', 1, now()), ('evt_m4', $1, 'failed', 1, now()),
              ('evt_m5', $1, 'pending', 0, NULL)`,
      [endpoint!.id],
    );
    await query(
      `INSERT INTO webhook_attempts (event_id, endpoint_id, event_type, attempt, status)
       VALUES ('evt_m1', $1, 'pet.created', 1, 'pending'), ('evt_m2', $1, 'pet.created', 1, 'failed'),
              ('evt_m2', $1, 'pet.created', 2, 'failed'), ('evt_m3', $1, 'pet.created', 1, 'succeeded'),
              ('evt_m4', $1, 'pet.created', 1, 'pending')`,
      [endpoint!.id],
    );
    const attempts = () =>
      query(`SELECT event_id, attempt, status, error FROM webhook_attempts ORDER BY event_id, attempt`);

    await migrate();
    expect(await attempts()).toEqual([
      { event_id: 'evt_m1', attempt: 1, status: 'pending', error: null },
      { event_id: 'evt_m2', attempt: 1, status: 'failed', error: null },
      { event_id: 'evt_m2', attempt: 2, status: 'failed', error: null },
      { event_id: 'evt_m2', attempt: 3, status: 'pending', error: null },
      { event_id: 'evt_m3', attempt: 1, status: 'succeeded', error: null },
      { event_id: 'evt_m4', attempt: 1, status: 'failed', error: 'the attempt was interrupted' },
      { event_id: 'evt_m5', attempt: 1, status: 'pending', error: null },
    ]);
    expect(await query(`SELECT 1 FROM information_schema.tables WHERE table_name = 'webhook_deliveries'`)).toEqual([]);
    expect(
      await query(
        `SELECT conname FROM pg_constraint WHERE conrelid = 'webhook_attempts'::regclass AND NOT convalidated`,
      ),
    ).toEqual([]);
    // Attempts go with their event.
    await query(`DELETE FROM events WHERE id = 'evt_m3'`);
    expect(await query(`SELECT 1 FROM webhook_attempts WHERE event_id = 'evt_m3'`)).toEqual([]);

    await revertThrough(WebhookAttemptsOnly1795800000000);
    expect(await query(`SELECT event_id, status, attempts FROM webhook_deliveries ORDER BY event_id`)).toEqual([
      { event_id: 'evt_m1', status: 'pending', attempts: 0 },
      { event_id: 'evt_m2', status: 'pending', attempts: 2 },
      { event_id: 'evt_m4', status: 'failed', attempts: 1 },
      { event_id: 'evt_m5', status: 'pending', attempts: 0 },
    ]);
    expect(await query(`SELECT 1 FROM webhook_attempts WHERE status = 'pending'`)).toEqual([]);
    await migrate();
  });

  it('counts each organisation’s existing pets into its row, which every later write keeps true, and reverts', async () => {
    type Counts = Array<{ organization_id: string; available: number; pending: number; sold: number }>;
    const counts = () =>
      query<Counts[number]>(
        `SELECT organization_id, available::int, pending::int, sold::int FROM organization_animal_counts
          WHERE available <> 0 OR pending <> 0 OR sold <> 0 ORDER BY organization_id`,
      );
    const recount = () =>
      query<Counts[number]>(
        `SELECT organization_id, count(*) FILTER (WHERE status = 'available')::int AS available,
                count(*) FILTER (WHERE status = 'pending')::int AS pending,
                count(*) FILTER (WHERE status = 'sold')::int AS sold
           FROM pets WHERE organization_id IS NOT NULL GROUP BY organization_id ORDER BY organization_id`,
      );
    await revertThrough(OrganizationAnimalCounts1797400000000);
    await query(
      `INSERT INTO accounts (email, email_canonical)
       SELECT 'shelter' || n || '@example.com', 'shelter' || n || '@example.com' FROM generate_series(1, 4) n`,
    );
    await query(
      `INSERT INTO organizations (id, account_id, name)
       SELECT 'org_m' || n, (SELECT id FROM accounts WHERE email = 'shelter' || n || '@example.com'), 'Shelter ' || n
         FROM generate_series(1, 4) n`,
    );
    // Three organisations with pets of every status, one without pets, and pets of none.
    await query(
      `INSERT INTO pets (name, category_id, status, organization_id)
       SELECT 'Counted ' || n, 1, (ARRAY['available', 'pending', 'sold'])[1 + n % 3],
              CASE WHEN n % 4 < 3 THEN 'org_m' || (1 + n % 4) END
         FROM generate_series(1, 100) n`,
    );

    await migrate();
    const backfilled = await counts();
    expect(backfilled).toEqual(await recount());
    expect(backfilled.map((row) => row.organization_id)).toEqual(['org_m1', 'org_m2', 'org_m3']);
    expect(backfilled.reduce((total, row) => total + row.available + row.pending + row.sold, 0)).toBe(75);

    await query(`UPDATE pets SET status = 'sold' WHERE name LIKE 'Counted %' AND id % 2 = 0`);
    await query(`UPDATE pets SET organization_id = 'org_m4' WHERE organization_id = 'org_m1' AND status = 'available'`);
    await query(`UPDATE pets SET organization_id = NULL WHERE organization_id = 'org_m2' AND status = 'pending'`);
    await query(
      `UPDATE pets SET organization_id = 'org_m1', status = 'pending' WHERE organization_id IS NULL AND name LIKE 'Counted %'`,
    );
    await query(`DELETE FROM pets WHERE organization_id = 'org_m3' AND status = 'sold'`);
    await query(
      `INSERT INTO pets (name, category_id, status, organization_id)
       SELECT 'Counted more ' || n, 1, 'available', 'org_m' || (1 + n % 4) FROM generate_series(1, 8) n`,
    );
    expect(await counts()).toEqual(await recount());
    expect((await counts()).map((row) => row.organization_id)).toEqual(['org_m1', 'org_m2', 'org_m3', 'org_m4']);

    // A TRUNCATE of the pets leaves no counts.
    const runner = dataSource.createQueryRunner();
    await runner.startTransaction();
    try {
      await runner.query('TRUNCATE photos, pets');
      expect(await runner.query('SELECT * FROM organization_animal_counts')).toEqual([]);
    } finally {
      await runner.rollbackTransaction();
      await runner.release();
    }
    await query(`DELETE FROM pets WHERE name LIKE 'Counted %'`);
    expect(await counts()).toEqual([]);
    // An organisation's counts go with it.
    await query(`DELETE FROM organizations WHERE id = 'org_m4'`);
    expect(await query(`SELECT 1 FROM organization_animal_counts WHERE organization_id = 'org_m4'`)).toEqual([]);

    await revertThrough(OrganizationAnimalCounts1797400000000);
    const left = await query(
      `SELECT 1 FROM pg_trigger WHERE tgrelid = 'pets'::regclass AND tgname LIKE 'pets_organization_counts_%'
       UNION ALL SELECT 1 FROM information_schema.tables WHERE table_name = 'organization_animal_counts'`,
    );
    expect(left).toEqual([]);
    await migrate();
  });

  it('stores each organisation’s place as ll_to_earth gives it, which every later write keeps true, and reverts', async () => {
    await revertThrough(OrganizationStoredPlace1797420000000);
    await query(
      `INSERT INTO accounts (email, email_canonical) VALUES ('placed@example.com', 'placed@example.com'),
         ('unplaced@example.com', 'unplaced@example.com')`,
    );
    await query(
      `INSERT INTO organizations (id, account_id, name, latitude, longitude)
       SELECT 'org_p' || n, (SELECT id FROM accounts WHERE email = e), 'Shelter ' || n, lat, lon
         FROM (VALUES (1, 'placed@example.com', 52.52, 13.405), (2, 'unplaced@example.com', NULL, NULL))
           AS o (n, e, lat, lon)`,
    );
    await migrate();

    // Compared as text: the same doubles, not merely close ones.
    const places = () =>
      query<{ id: string; stored: string | null; computed: string | null }>(
        `SELECT id, place::text AS stored, ll_to_earth(latitude, longitude)::text AS computed
           FROM organizations WHERE id LIKE 'org_p%' ORDER BY id`,
      );
    expect(await places()).toEqual([
      { id: 'org_p1', stored: expect.any(String), computed: expect.any(String) },
      { id: 'org_p2', stored: null, computed: null },
    ]);
    for (const row of await places()) expect(row.stored).toBe(row.computed);
    await query(`UPDATE organizations SET latitude = 48.137, longitude = 11.575 WHERE id = 'org_p2'`);
    await query(`UPDATE organizations SET latitude = NULL, longitude = NULL WHERE id = 'org_p1'`);
    expect((await places()).map((row) => row.stored === null)).toEqual([true, false]);
    for (const row of await places()) expect(row.stored).toBe(row.computed);

    await revertKeptColumn(OrganizationStoredPlace1797420000000, 'organizations', 'place', 'organizations_place_idx');
    await migrate();
    await query(`DELETE FROM organizations WHERE id LIKE 'org_p%'`);
  });

  it('keeps each pet that matched a search as its latest matched event left it, and reverts', async () => {
    await revertThrough(SavedSearchPetStates1797440000000);
    await query(`INSERT INTO accounts (email, email_canonical) VALUES ('states@example.com', 'states@example.com')`);
    const account = `(SELECT id FROM accounts WHERE email = 'states@example.com')`;
    // Pet 1 changed twice, pet 2 deleted, pet 3's change not matched yet: all three matched the search; pet 4
    // matched none.
    await query(
      `INSERT INTO events (id, account_id, type, object, matched_at)
       SELECT 'evt_state' || n, ${account}, type, jsonb_build_object('id', pet, 'name', name),
              CASE WHEN matched THEN now() END
         FROM (VALUES (1, 'pet.created', 1, 'One', true), (2, 'pet.updated', 1, 'One again', true),
                      (3, 'pet.created', 2, 'Two', true), (4, 'pet.deleted', 2, 'Two', true),
                      (5, 'pet.created', 3, 'Three', false), (6, 'pet.created', 4, 'Four', true))
           AS e (n, type, pet, name, matched)
        ORDER BY n`,
    );
    await query(
      `INSERT INTO saved_searches (id, account_id, query, filters, terms, required)
       VALUES ('srch_state', ${account}, 'q=one', '{"q": "one"}', '{*}', '{}')`,
    );
    await query(
      `INSERT INTO saved_search_matches (pet_id, saved_search_id) VALUES (1, 'srch_state'), (2, 'srch_state'), (3, 'srch_state')`,
    );
    await migrate();

    expect(
      await query('SELECT pet_id, pet ->> $1 AS name FROM saved_search_pet_states ORDER BY pet_id', ['name']),
    ).toEqual([{ pet_id: '1', name: 'One again' }]);

    await revertThrough(SavedSearchPetStates1797440000000);
    expect(await query(`SELECT to_regclass('saved_search_pet_states') IS NULL AS gone`)).toEqual([{ gone: true }]);
    expect(await query(`SELECT to_regclass('saved_search_matches') IS NOT NULL AS back`)).toEqual([{ back: true }]);
    await migrate();
    await query(`DELETE FROM events WHERE id LIKE 'evt_state%'`);
    await query(`DELETE FROM saved_searches WHERE id = 'srch_state'`);
  });

  it('counts the existing pets into the inventory, which then follows every change, and reverts', async () => {
    const inventory = async () =>
      (
        await query<Record<string, string>>(
          'SELECT sum(available) AS available, sum(pending) AS pending, sum(sold) AS sold FROM pet_status_counts',
        )
      )[0];
    expect(await inventory()).toEqual({ available: '25001', pending: '0', sold: '0' });
    await query(`UPDATE pets SET status = 'sold' WHERE id <= 10`);
    await query(`DELETE FROM pets WHERE id IN (11, 12)`);
    await query(`INSERT INTO pets (name, category_id, status) VALUES ('New', 1, 'pending')`);
    expect(await inventory()).toEqual({ available: '24989', pending: '1', sold: '10' });

    await revertThrough(Orders1795600000000);
    const left = await query(
      `SELECT 1 FROM pg_trigger WHERE tgrelid = 'pets'::regclass AND tgname LIKE 'pets_count_%'
       UNION ALL SELECT 1 FROM information_schema.tables WHERE table_name IN ('orders', 'pet_status_counts')`,
    );
    expect(left).toEqual([]);
  });

  it('reverts the record, then the canonical emails to the letter-case index', async () => {
    await revertThrough(PetRecord1795500000000);
    const petColumns = await query<{ column_name: string }>(
      `SELECT column_name FROM information_schema.columns WHERE table_name = 'pets' ORDER BY ordinal_position`,
    );
    expect(petColumns.map((column) => column.column_name)).toEqual([
      'id',
      'name',
      'category_id',
      'status',
      'created_at',
    ]);

    await revertThrough(CanonicalEmails1795400100000);
    const columns = await query(
      `SELECT 1 FROM information_schema.columns WHERE table_name = 'accounts' AND column_name = 'email_canonical'`,
    );
    expect(columns).toEqual([]);
    await expect(query(`INSERT INTO accounts (email) VALUES ('ALEX@example.com')`)).rejects.toMatchObject({
      code: '23505',
    });
  });
});
