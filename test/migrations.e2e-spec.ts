import { Client, escapeIdentifier } from 'pg';
import { DataSource } from 'typeorm';
import { validateEnvironment } from '../libs/core/src';
import { migrationDataSourceOptions } from '../libs/database/src';
import { MIGRATIONS } from '../libs/database/src/migrations';
import { CanonicalEmails1795400100000 } from '../libs/database/src/migrations/1795400100000-canonical-emails';
import { IdempotencyWithoutSecrets1795400000000 } from '../libs/database/src/migrations/1795400000000-idempotency-without-secrets';
import { TEST_DATABASE_URL } from './support/test-env';

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
    const env = validateEnvironment({ DATABASE_URL: scratchUrl.toString() });
    dataSource = new DataSource({ ...migrationDataSourceOptions(env), entities: [], migrations });
    await dataSource.initialize();
    await dataSource.runMigrations({ transaction: 'each' });
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

  it('reverts the canonical emails to the letter-case index', async () => {
    expect(dataSource.migrations.at(-1)?.name).toBe(CanonicalEmails1795400100000.name);
    await dataSource.undoLastMigration({ transaction: 'each' });
    const columns = await query(
      `SELECT 1 FROM information_schema.columns WHERE table_name = 'accounts' AND column_name = 'email_canonical'`,
    );
    expect(columns).toEqual([]);
    await expect(query(`INSERT INTO accounts (email) VALUES ('ALEX@example.com')`)).rejects.toMatchObject({
      code: '23505',
    });
  });
});
