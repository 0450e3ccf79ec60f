// `npm run bench:outages`: how long the api takes to answer while a store it needs is out of reach.
// The e2e and fault suites check which way such a request goes (a 503, or an admission by the
// fail-open policy); how soon the answer comes is measured here, against the bounds below.
import { join } from 'node:path';
import { resetStores, storesFor } from './support/database';
import { startServiceApp } from './support/processes';
import { blackHole, TcpProxy } from './support/tcp-proxy';

const STORES = storesFor('pet_adoption_outages_bench', 12);
const REQUESTS = 20;

interface Outage {
  name: string;
  /** The api's settings for it, given where the stores are. */
  env: (stores: { databaseUrl: string; redisUrl: string }) => Record<string, string>;
  /** Makes the store unreachable once the api is ready (for a store the api needs to start). */
  cut?: () => Promise<void>;
  /** Headers of the request sent (GET /v1/pets). */
  headers?: Record<string, string>;
  expectedStatus: number;
  /** The slowest answer allowed, in milliseconds. */
  boundMs: number;
}

async function measure(outage: Outage, stores: { databaseUrl: string; redisUrl: string }, logDir: string) {
  const server = await startServiceApp('api', {
    name: outage.name,
    env: outage.env(stores),
    logFile: join(logDir, `outage-${outage.name}.log`),
    health: 'live',
  });
  try {
    await outage.cut?.();
    const timesMs: number[] = [];
    const statuses: Record<number, number> = {};
    for (let i = 0; i < REQUESTS; i++) {
      const started = performance.now();
      const response = await fetch(`${server.url}/v1/pets`, {
        headers: outage.headers,
        signal: AbortSignal.timeout(60_000),
      });
      await response.arrayBuffer();
      timesMs.push(performance.now() - started);
      statuses[response.status] = (statuses[response.status] ?? 0) + 1;
    }
    const slowestMs = Math.round(Math.max(...timesMs));
    const met = slowestMs <= outage.boundMs && statuses[outage.expectedStatus] === REQUESTS;
    return { name: outage.name, statuses, slowestMs, boundMs: outage.boundMs, met };
  } finally {
    await server.stop();
  }
}

async function main(): Promise<void> {
  const logDir = process.argv[2] ?? '/tmp';
  await resetStores(STORES);
  const frozenRedis = await blackHole();
  const database = new URL(STORES.databaseUrl);
  const postgres = new TcpProxy(Number(database.port));
  database.port = String(await postgres.start());
  const redisUrl = new URL(STORES.redisUrl);
  const redis = new TcpProxy(Number(redisUrl.port));
  redisUrl.port = String(await redis.start());
  // Above REDIS_COMMAND_TIMEOUT_MS and the connect timeout (a refused or frozen Redis), and the pool's
  // connect timeout (PostgreSQL gone): the request must not wait much longer than the give-up.
  const outages: Outage[] = [
    {
      name: 'redis-refused-open',
      env: ({ databaseUrl }) => ({ DATABASE_URL: databaseUrl, REDIS_URL: 'redis://127.0.0.1:1' }),
      expectedStatus: 401,
      boundMs: 3000,
    },
    {
      name: 'redis-refused-closed',
      env: ({ databaseUrl }) => ({
        DATABASE_URL: databaseUrl,
        REDIS_URL: 'redis://127.0.0.1:1',
        RATE_LIMIT_ON_REDIS_FAILURE: 'closed',
      }),
      expectedStatus: 503,
      boundMs: 3000,
    },
    {
      name: 'redis-silent-from-start-closed',
      env: ({ databaseUrl }) => ({
        DATABASE_URL: databaseUrl,
        REDIS_URL: `redis://127.0.0.1:${frozenRedis.port}`,
        RATE_LIMIT_ON_REDIS_FAILURE: 'closed',
      }),
      expectedStatus: 503,
      boundMs: 3000,
    },
    {
      // Connected, then hanging: each command waits for REDIS_COMMAND_TIMEOUT_MS.
      name: 'redis-frozen-open',
      env: ({ databaseUrl }) => ({ DATABASE_URL: databaseUrl, REDIS_URL: redisUrl.toString() }),
      cut: async () => redis.freeze(),
      expectedStatus: 401,
      boundMs: 3000,
    },
    {
      name: 'postgres-gone',
      env: ({ redisUrl }) => ({ DATABASE_URL: database.toString(), REDIS_URL: redisUrl }),
      cut: () => postgres.cut(),
      // A keyless request needs no PostgreSQL; a key never seen before cannot come from the cache.
      headers: { Authorization: `Bearer pet_live_${'0'.repeat(40)}` },
      expectedStatus: 503,
      boundMs: 10_000,
    },
  ];
  const results = [];
  try {
    for (const outage of outages) results.push(await measure(outage, STORES, logDir));
  } finally {
    await frozenRedis.close();
    await postgres.cut();
    await redis.cut();
  }
  console.log('| outage | statuses | slowest answer (ms) | bound (ms) | met |\n|---|---|---|---|---|');
  for (const result of results) {
    const statuses = Object.entries(result.statuses)
      .map(([status, count]) => `${count}× ${status}`)
      .join(', ');
    console.log(
      `| ${result.name} | ${statuses} | ${result.slowestMs} | ${result.boundMs} | ${result.met ? 'yes' : 'NO'} |`,
    );
  }
  if (!results.every((result) => result.met)) process.exitCode = 1;
}

main().catch((error: Error) => {
  console.error(error.stack ?? error.message);
  process.exit(1);
});
