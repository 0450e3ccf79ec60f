import { Client } from 'pg';
import { TEST_DATABASE_URL } from './test-env';

/** A direct connection for assertions on what was stored. */
export async function withDatabase<T>(run: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: TEST_DATABASE_URL });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

export function truncatePets(): Promise<void> {
  return withDatabase(async (client) => {
    await client.query('TRUNCATE pets RESTART IDENTITY');
  });
}
