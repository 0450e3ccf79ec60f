// The `account-export` scenario: `GET /v1/account/export` of an account that lists 100,000 pets streams in flat
// memory. Each export runs on a fresh api process, so that its RSS is the export's alone: one of an account of
// 10,000 pets, one of 100,000 read as fast as the bench reads, and one of 100,000 read slowly, so that the
// socket fills and the app must wait for it rather than buffer the document.
import { createAccount, Stores, withClient } from './support/database';
import { ServerProcess, sleep, watchProcesses } from './support/processes';
import { bearer } from './support/requests';
import { SEED_PETS } from './support/seeded-pets';

/** RSS sampled this often while an export runs: a peak between two samples would be missed. */
const SAMPLE_MS = 50;

/** The slow client reads well below what the api writes, so that the api waits on the socket. */
const EXPORTS: Array<Pick<AccountExportRun, 'pets' | 'readMiBPerSecond'>> = [
  { pets: 10_000 },
  { pets: 100_000 },
  { pets: 100_000, readMiBPerSecond: 4 },
];

export interface AccountExportRun {
  pets: number;
  /** The rate the client read at, when it read slowly rather than as fast as it could. */
  readMiBPerSecond?: number;
  bytes: number;
  seconds: number;
  /** The api's RSS before the export (after a first request) and its peak while it ran, in MiB. */
  idleRssMiB: number;
  peakRssMiB: number;
  /** CPU seconds the api, and PostgreSQL with Redis, spent on the export. */
  apiCpuSec: number;
  storesCpuSec: number;
}

interface AccountExportOptions {
  stores: Stores;
  /** Starts a fresh api process. */
  startApi: () => Promise<{ server: ServerProcess; url: string }>;
}

/** Seeds `count` pets listed by the account, as SEED_PETS writes the catalogue's, with ids after the rows there are. */
async function seedListedPets(stores: Stores, accountId: number, count: number): Promise<void> {
  await withClient(stores, async (client) => {
    const { rows } = await client.query<{ last: string }>('SELECT coalesce(max(id), 0) AS last FROM pets');
    await client.query(SEED_PETS, [count]);
    await client.query('UPDATE pets SET lister_account_id = $1 WHERE id > $2', [accountId, rows[0]!.last]);
    await client.query('VACUUM ANALYZE pets');
  });
}

/** Reads the body to its end, at `miBPerSecond` at most when given. */
async function readBody(response: Response, miBPerSecond?: number): Promise<Buffer> {
  const chunks: Uint8Array[] = [];
  let bytes = 0;
  const started = Date.now();
  for await (const chunk of response.body!) {
    chunks.push(chunk);
    bytes += chunk.length;
    if (miBPerSecond) await sleep((bytes / (miBPerSecond * 1024 * 1024)) * 1000 - (Date.now() - started));
  }
  return Buffer.concat(chunks);
}

async function measureOne(
  options: AccountExportOptions,
  key: string,
  { pets, readMiBPerSecond }: (typeof EXPORTS)[number],
): Promise<AccountExportRun> {
  const { server, url } = await options.startApi();
  try {
    // A first request, so that the idle RSS counts the key's lookup, the pool and the JIT of a request.
    const account = await fetch(`${url}/v1/account`, { headers: bearer(key) });
    if (account.status !== 200) throw new Error(`account-export: GET /v1/account answered ${account.status}`);
    await account.text();
    const idleRssMiB = server.rssMiB();
    const watch = watchProcesses([server], SAMPLE_MS);
    const started = Date.now();
    const response = await fetch(`${url}/v1/account/export`, { headers: bearer(key) });
    if (response.status !== 200) throw new Error(`account-export: the export answered ${response.status}`);
    const body = await readBody(response, readMiBPerSecond);
    const seconds = (Date.now() - started) / 1000;
    const usage = watch.stop();
    const document = JSON.parse(body.toString('utf8')) as { pets: Array<{ id: number }> };
    if (document.pets.length !== pets)
      throw new Error(`account-export: the export holds ${document.pets.length} pets, not ${pets}`);
    return {
      pets,
      readMiBPerSecond,
      bytes: body.length,
      seconds,
      idleRssMiB,
      peakRssMiB: usage.peakRssMiB[server.name]!,
      apiCpuSec: usage.cpuSec[server.name]!,
      storesCpuSec: usage.storesCpuSec,
    };
  } finally {
    await server.stop();
  }
}

export async function measureAccountExport(options: AccountExportOptions): Promise<AccountExportRun[]> {
  const { stores } = options;
  const keys = new Map<number, string>();
  for (const pets of new Set(EXPORTS.map((one) => one.pets))) {
    const account = await createAccount(stores, `bench-export-${pets}@bench.example`);
    await seedListedPets(stores, account.accountId, pets);
    keys.set(pets, account.key);
  }
  const runs: AccountExportRun[] = [];
  try {
    for (const one of EXPORTS) runs.push(await measureOne(options, keys.get(one.pets)!, one));
  } finally {
    // The scenarios measured after this one read the catalogue as it was seeded.
    await withClient(stores, (client) =>
      client.query(
        `DELETE FROM pets WHERE lister_account_id IN (SELECT id FROM accounts WHERE email LIKE 'bench-export-%')`,
      ),
    );
  }
  return runs;
}

/** An export's RSS growth over the idle api, in MiB. */
export const exportGrowthMiB = (run: AccountExportRun) => run.peakRssMiB - run.idleRssMiB;
