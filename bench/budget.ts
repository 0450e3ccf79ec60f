import { join } from 'node:path';
import { Redis } from 'ioredis';
import type { Stores } from './support/database';
import type { LoadRequest } from './support/load';
import { sleep, startServiceApp } from './support/processes';
import { SqlCounter } from './support/sql-counter';

/** Requests per probe: enough that a background statement (a key-use flush) barely moves the average. */
const REQUESTS = 200;

export interface BudgetProbe {
  name: string;
  server: 'api' | 'messages';
  request: LoadRequest;
  /** The budget for this request, in words. */
  budget: string;
  maxSql: number;
  maxRedis: number;
  /** Requests sent before counting: 5 warm the key cache; the 429 probe needs enough to be refused. */
  warmUp?: number;
}

export interface BudgetResult {
  name: string;
  budget: string;
  sqlPerRequest: number;
  redisRoundTripsPerRequest: number;
  /** SQL texts and Redis commands seen, with their count per request. */
  sql: Record<string, number>;
  redis: Record<string, number>;
  met: boolean;
}

const perRequest = (counts: Map<string, number>) =>
  Object.fromEntries([...counts].map(([name, count]) => [name, Math.round((100 * count) / REQUESTS) / 100]));

/**
 * Per-request cost in round trips, measured on a separate api and messages pair whose PostgreSQL
 * connections go through a statement-counting proxy, while MONITOR watches the bench's Redis db.
 * Each probe warms the key cache first, then sends its requests one at a time.
 */
export async function checkBudget(
  stores: Stores,
  appEnv: Record<string, string>,
  probes: BudgetProbe[],
  logDir: string,
): Promise<BudgetResult[]> {
  const database = new URL(stores.databaseUrl);
  const sql = new SqlCounter({ host: database.hostname, port: Number(database.port) });
  database.port = String(await sql.listen());
  const env = { ...appEnv, DATABASE_URL: database.toString(), DATABASE_MIGRATE_ON_START: 'false' };
  const start = (app: BudgetProbe['server']) =>
    startServiceApp(app, { name: `budget-${app}`, core: 0, env, logFile: join(logDir, `budget-${app}.log`) });
  const servers = { api: await start('api'), messages: await start('messages') };
  const redisDb = new URL(stores.redisUrl).pathname.slice(1);
  const monitor = await new Redis(stores.redisUrl).monitor();
  const redis = new Map<string, number>();
  // Commands a script runs inside Redis show up as coming from `lua`: they cost no round trip.
  monitor.on('monitor', (_time: string, args: string[], source: string, db: string) => {
    if (db !== redisDb || source === 'lua') return;
    const command = args[0]!.toUpperCase();
    redis.set(command, (redis.get(command) ?? 0) + 1);
  });

  const send = async (probe: BudgetProbe) => {
    const response = await fetch(`${servers[probe.server].url}${probe.request.path}`, {
      method: probe.request.method,
      headers: probe.request.headers,
      body: probe.request.body,
    });
    await response.arrayBuffer();
  };
  const results: BudgetResult[] = [];
  try {
    for (const probe of probes) {
      for (let i = 0; i < (probe.warmUp ?? 5); i++) await send(probe);
      // MONITOR lines arrive a moment after the answers they belong to.
      await sleep(300);
      sql.reset();
      redis.clear();
      for (let i = 0; i < REQUESTS; i++) await send(probe);
      await sleep(300);
      const sqlPerRequest = sql.statements / REQUESTS;
      const redisRoundTripsPerRequest = [...redis.values()].reduce((sum, count) => sum + count, 0) / REQUESTS;
      results.push({
        name: probe.name,
        budget: probe.budget,
        sqlPerRequest,
        redisRoundTripsPerRequest,
        sql: perRequest(sql.texts),
        redis: perRequest(redis),
        // 0.05 per request absorbs a background statement (the key-use flush every 5 s), not one more per request.
        met: sqlPerRequest <= probe.maxSql + 0.05 && redisRoundTripsPerRequest <= probe.maxRedis + 0.05,
      });
    }
  } finally {
    monitor.disconnect();
    await Promise.all([servers.api.stop(), servers.messages.stop()]);
    await sql.close();
  }
  return results;
}
