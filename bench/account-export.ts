// The `account-export` scenario: `GET /v1/account/export` of an account that lists 100,000 pets streams in flat
// memory. Each variant runs on a fresh api process, so that its RSS is its own: the export of an account of
// 10,000 pets ten times in a row, that of an account of 100,000 once, and that of 100,000 read slowly, so that
// the socket fills and the app must wait for it rather than buffer the document. The ten small exports write
// as many bytes as the large one and leave as much garbage: V8 collects late, so the RSS of one export of
// 10,000 would compare a short run with a long one, not a small document with a large one.
import { createAccount, Stores, withClient } from './support/database';
import { ServerProcess, sleep, watchProcesses } from './support/processes';
import { bearer } from './support/requests';
import { SEED_PETS } from './support/seeded-pets';

/** RSS sampled this often while an export runs: a peak between two samples would be missed. */
const SAMPLE_MS = 50;

/** The slow client reads well below what the api writes, so that the api waits on the socket. */
const EXPORTS: Array<Pick<AccountExportRun, 'pets' | 'times' | 'readMiBPerSecond'>> = [
  { pets: 10_000, times: 10 },
  { pets: 100_000, times: 1 },
  { pets: 100_000, times: 1, readMiBPerSecond: 1 },
];

export interface AccountExportRun {
  pets: number;
  /** Exports made one after the other on the same api. */
  times: number;
  /** The rate the client read at, when it read slowly rather than as fast as it could. */
  readMiBPerSecond?: number;
  /** Bytes of one export, and the seconds all of them took. */
  bytes: number;
  seconds: number;
  /** The api's RSS before the exports (after a first request) and its peak while they ran, in MiB. */
  idleRssMiB: number;
  peakRssMiB: number;
  /** CPU seconds the api, and PostgreSQL with Redis, spent on the exports. */
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
    if (miBPerSecond) await sleep(Math.max(0, (bytes / (miBPerSecond * 1024 * 1024)) * 1000 - (Date.now() - started)));
  }
  return Buffer.concat(chunks);
}

async function measureOne(
  options: AccountExportOptions,
  key: string,
  { pets, times, readMiBPerSecond }: (typeof EXPORTS)[number],
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
    let bytes = 0;
    for (let made = 0; made < times; made++) {
      const response = await fetch(`${url}/v1/account/export`, { headers: bearer(key) });
      if (response.status !== 200) throw new Error(`account-export: the export answered ${response.status}`);
      const body = await readBody(response, readMiBPerSecond);
      const document = JSON.parse(body.toString('utf8')) as { pets: unknown[] };
      if (document.pets.length !== pets)
        throw new Error(`account-export: the export holds ${document.pets.length} pets, not ${pets}`);
      bytes = body.length;
    }
    const seconds = (Date.now() - started) / 1000;
    const usage = watch.stop();
    return {
      pets,
      times,
      readMiBPerSecond,
      bytes,
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

/** The exports' RSS growth over the idle api, in MiB. */
export const exportGrowthMiB = (run: AccountExportRun) => run.peakRssMiB - run.idleRssMiB;
