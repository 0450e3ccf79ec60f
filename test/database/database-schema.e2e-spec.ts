import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SCHEMA_FILE, schemaTypes } from '../../scripts/schema-types';
import { suiteDatabase, type SuiteDatabase } from '../support/database';

describe('the row types of libs/database/src/schema.ts', () => {
  let database: SuiteDatabase;

  beforeAll(async () => {
    database = await suiteDatabase('schema');
  });
  afterAll(() => database.drop());

  it('are what the migrations make of the tables', async () => {
    const file = join(__dirname, '..', '..', SCHEMA_FILE);
    const committed = readFileSync(file, 'utf8');
    const migrated = await schemaTypes(database.url, file);
    if (migrated === committed) return;
    const lines = committed.split('\n');
    const line = migrated.split('\n').findIndex((text, index) => text !== lines[index]);
    throw new Error(
      `${SCHEMA_FILE} differs from the migrated tables from line ${line + 1} on: ` +
        'run `npm run db:types` and commit the result.',
    );
  });
});
