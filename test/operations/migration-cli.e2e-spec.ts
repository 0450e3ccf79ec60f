import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { escapeIdentifier } from 'pg';
import { unpreparedSuiteDatabase, withDatabase, type SuiteDatabase } from '../support/database';
import { DIST } from '../support/processes';

const run = promisify(execFile);

/** `npm run migration:run`, as compose's `migrate` service runs it: the TypeORM CLI on the built data source. */
function migrationRun(databaseUrl: string) {
  return run(
    process.execPath,
    [require.resolve('typeorm/cli.js'), 'migration:run', '-d', join(DIST, 'libs/database/src/data-source.js')],
    { env: { ...process.env, DATABASE_URL: databaseUrl }, timeout: 120_000 },
  );
}

describe('the TypeORM CLI’s migration:run', () => {
  let database: SuiteDatabase;

  beforeAll(async () => {
    database = unpreparedSuiteDatabase('migration_cli');
    await database.drop();
    const name = decodeURIComponent(new URL(database.url).pathname.slice(1));
    await withDatabase((client) => client.query(`CREATE DATABASE ${escapeIdentifier(name)}`));
  });
  afterAll(() => database?.drop());

  it('applies every migration to an empty database, those that commit step by step too, then finds none pending', async () => {
    await migrationRun(database.url);
    const { stdout } = await migrationRun(database.url);
    expect(stdout).toContain('No migrations are pending');
    const tables = await withDatabase(
      async (client) => (await client.query(`SELECT to_regclass('pets') IS NOT NULL AS pets`)).rows[0],
      database.url,
    );
    expect(tables).toEqual({ pets: true });
  });
});
