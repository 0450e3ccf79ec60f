// `npm run db:types`: writes libs/database/src/schema.ts, the tables' row types, from a scratch database
// (`<DATABASE_URL's database>_db_types`, created and dropped here) migrated with the project's migrations.
// test/database/database-schema.e2e-spec.ts fails when the committed file differs. Model: immich's `server/src/schema`.
import 'reflect-metadata';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadSettings } from '@app/core';
import { DatabaseSettings, prepareDatabase } from '@app/database';
import { Client, escapeIdentifier } from 'pg';
import { SCHEMA_FILE, schemaTypes } from './schema-types';

const ROOT = join(__dirname, '..', '..');

async function main(): Promise<void> {
  const server = new URL(loadSettings(DatabaseSettings, process.env).directUrl);
  const scratch = new URL(server);
  const name = `${decodeURIComponent(server.pathname.slice(1))}_db_types`;
  scratch.pathname = `/${name}`;
  server.pathname = '/postgres';
  const dropScratch = async () => {
    const admin = new Client({ connectionString: server.toString() });
    await admin.connect();
    try {
      await admin.query(`DROP DATABASE IF EXISTS ${escapeIdentifier(name)} WITH (FORCE)`);
    } finally {
      await admin.end();
    }
  };

  await dropScratch();
  try {
    await prepareDatabase(loadSettings(DatabaseSettings, { DATABASE_URL: scratch.toString() }));
    const file = join(ROOT, SCHEMA_FILE);
    const types = await schemaTypes(scratch.toString(), file);
    // Left untouched when unchanged, so that the build stays newer than the sources.
    if (readFileSync(file, 'utf8') === types) {
      console.log(`${SCHEMA_FILE}: up to date.`);
    } else {
      writeFileSync(file, types);
      console.log(`wrote ${SCHEMA_FILE}`);
    }
  } finally {
    await dropScratch();
  }
}

main().then(
  () => process.exit(0),
  (error: Error) => {
    console.error(error);
    process.exit(1);
  },
);
