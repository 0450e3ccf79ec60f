import { suiteDatabase, SuiteDatabase, withDatabase } from '../support/database';
import { startCompiled, startServing, waitFor } from '../support/processes';

/** Runs an app until it exits on its own; answers its exit code and what it wrote. */
async function exitOf(
  app: 'api' | 'worker',
  env: Record<string, string>,
): Promise<{ code: number | null; output: string }> {
  const started = await startCompiled(`apps/${app}/src/main.js`, env);
  try {
    await waitFor(async () => started.child.exitCode !== null, 30_000, `the ${app} to exit`);
  } finally {
    await started.stop();
  }
  return { code: started.child.exitCode, output: started.output() };
}

/**
 * Every table that holds an account's data is some context's part of personal data, or its rows would be
 * left out of every export and survive every erasure: the api and the worker refuse to start while one is
 * not, and say which.
 */
describe('the start-up check of the personal-data parts', () => {
  let database: SuiteDatabase;

  beforeAll(async () => {
    database = await suiteDatabase('personal_data_parts');
  });
  afterAll(() => database.drop());

  it('finds every table of the schema that holds accounts’ data named by a part', async () => {
    // The migrated schema as it is: an app that starts on it passes the check (the other suites start many).
    for (const app of ['api', 'worker'] as const) {
      const started = await startServing(app, { DATABASE_URL: database.url });
      await started.stop();
      expect(started.output()).not.toContain('no personal-data part');
    }
  });

  it.each(['api', 'worker'] as const)(
    'stops the %s when a table with an account column, or a foreign key to accounts, is no part’s, naming it',
    async (app) => {
      await withDatabase(async (client) => {
        await client.query('CREATE TABLE adoption_notes (id bigint PRIMARY KEY, author_account_id bigint)');
        await client.query('CREATE TABLE foster_homes (id bigint PRIMARY KEY, owner bigint REFERENCES accounts (id))');
      }, database.url);
      try {
        const { code, output } = await exitOf(app, { DATABASE_URL: database.url, PORT: '0', WORKER_METRICS_PORT: '0' });
        expect(code).toBe(1);
        expect(output).toContain(
          'no personal-data part names the table "adoption_notes" (author_account_id), the table "foster_homes" ' +
            "(owner), which holds accounts' data",
        );
      } finally {
        await withDatabase((client) => client.query('DROP TABLE adoption_notes, foster_homes'), database.url);
      }
    },
  );
});
