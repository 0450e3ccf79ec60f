// `npm run soak -- --minutes N`: runs api, messages and worker against a database and Redis db of
// their own, drives bounded mixed traffic for N minutes (pets, messages, bad requests, a
// rate-limited free key), waits for the queue to drain, and reports. Exits non-zero when an accepted
// message was not sent or any request got a 5xx.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createAccount, resetStores, storesFor, withClient } from './support/database';
import { LoadRequest, LoadResult, runLoad } from './support/load';
import { bearer, json, sendMessage } from './support/requests';
import { ServerProcess, sleep, startServiceApp, waitFor } from './support/processes';

// SOAK_DATABASE (a name ending in _soak) and SOAK_REDIS_DB keep a soak apart from another's on the machine.
const STORES = storesFor(process.env.SOAK_DATABASE ?? 'pet_adoption_soak', Number(process.env.SOAK_REDIS_DB ?? 10));
/** Well below what two cores serve, so the soak shows drift (memory, latency, lost work), not saturation. */
const API_RATE = 300;
const MESSAGES_RATE = 100;
const DRAIN_TIMEOUT_MS = 180_000;

const { values: flags } = parseArgs({ options: { minutes: { type: 'string', default: '10' } } });
const minutes = Number(flags.minutes);
if (!Number.isInteger(minutes) || minutes < 1 || minutes > 120) throw new Error('--minutes takes 1 to 120');

const logDir = mkdtempSync(join(tmpdir(), 'pet-soak-'));
const appEnv = { DATABASE_URL: STORES.databaseUrl, REDIS_URL: STORES.redisUrl, DATABASE_MIGRATE_ON_START: 'true' };
const log = (message: string) => console.error(`[soak ${new Date().toISOString().slice(11, 19)}] ${message}`);

async function startApps(): Promise<{ processes: ServerProcess[]; apiUrl: string; messagesUrl: string }> {
  const start = (app: 'api' | 'messages' | 'worker') =>
    startServiceApp(app, { env: appEnv, logFile: join(logDir, `${app}.log`) });
  // One after the other: the first migrates the fresh database.
  const [api, messages, worker] = [await start('api'), await start('messages'), await start('worker')];
  return { processes: [api, messages, worker], apiUrl: api.url, messagesUrl: messages.url };
}

/** One cycle of api traffic: mostly valid reads and writes, a share of bad requests, a free key past its limit. */
function apiTraffic(key: string, freeKey: string): LoadRequest[] {
  const auth = bearer(key);
  const headers = json(key);
  const pet = JSON.stringify({ name: 'Soak', categoryId: 3 });
  return [
    { method: 'GET', path: '/v1/pets?limit=20', headers: auth },
    { method: 'GET', path: '/v1/pets?status=available&limit=100', headers: auth },
    { method: 'POST', path: '/v1/pets', headers, body: pet },
    { method: 'GET', path: '/v1/pets?limit=20', headers: auth },
    { method: 'GET', path: '/v1/categories', headers: auth },
    { method: 'POST', path: '/v1/pets', headers, body: pet },
    { method: 'GET', path: '/v1/pets?limit=20', headers: auth },
    { method: 'GET', path: '/v1/pets/1', headers: auth },
    { method: 'POST', path: '/v1/pets', headers, body: JSON.stringify({ name: '', categoryId: 99 }) },
    { method: 'POST', path: '/v1/pets', headers, body: '{"name": "Rex",' },
    { method: 'GET', path: '/v1/pets?limit=1000', headers: auth },
    { method: 'GET', path: '/v1/pets?limit=20', headers: { Authorization: 'Bearer pet_live_not-a-real-key' } },
    { method: 'GET', path: '/v1/pets?limit=20' },
    { method: 'GET', path: '/v1/nowhere', headers: auth },
    { method: 'GET', path: '/v1/pets?limit=20', headers: bearer(freeKey) },
    { method: 'POST', path: '/v1/pets', headers: json(freeKey), body: pet },
  ];
}

function messagesTraffic(key: string): LoadRequest[] {
  const headers = json(key);
  const send = sendMessage(key);
  return [
    send,
    send,
    send,
    send,
    { method: 'POST', path: '/messages', headers, body: JSON.stringify({ message: '' }) },
    send,
    send,
    send,
    { method: 'POST', path: '/messages', headers: { ...headers, 'Content-Type': 'text/plain' }, body: 'hello' },
    { method: 'GET', path: '/messages?limit=20', headers },
  ];
}

/** Lines a process logged at pino's error level or above. */
function errorLines(file: string): number {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => /"level":(50|60)/.test(line)).length;
}

function summarise(name: string, result: LoadResult): string {
  const statuses = Object.entries(result.statuses)
    .map(([status, count]) => `${status}: ${count}`)
    .join(', ');
  return (
    `${name}: ${result.requests} requests in ${result.seconds.toFixed(0)} s (${result.perSecond.toFixed(0)}/s); ` +
    `${statuses}; errors ${result.errors + result.timeouts}; latency p50 ${result.latencyMs.p50.toFixed(1)} ms, ` +
    `p99 ${result.latencyMs.p99.toFixed(1)} ms, p99.9 ${result.latencyMs.p999.toFixed(1)} ms, max ${result.latencyMs.max.toFixed(0)} ms`
  );
}

async function main(): Promise<number> {
  await resetStores(STORES);
  const account = await createAccount(STORES, 'soak@soak.example', { perMinute: 1_000_000_000, perDay: 2_000_000_000 });
  const free = await createAccount(STORES, 'soak-free@soak.example');
  const { processes, apiUrl, messagesUrl } = await startApps();
  const rssAtStart = Object.fromEntries(processes.map((process) => [process.name, process.rssMiB()]));
  log(`apps up; ${minutes} min of traffic at ${API_RATE}/s on the api and ${MESSAGES_RATE}/s on messages`);

  const durationSec = minutes * 60;
  // RSS at the end of each minute: flat means no minute's above the first's (beyond noise).
  const rssByMinute: Record<string, number[]> = Object.fromEntries(processes.map(({ name }) => [name, []]));
  const progress = setInterval(() => {
    for (const process of processes) rssByMinute[process.name]!.push(process.rssMiB());
    log(`RSS MiB ${processes.map((process) => `${process.name} ${process.rssMiB().toFixed(0)}`).join(', ')}`);
  }, 60_000);
  let api: LoadResult;
  let messages: LoadResult;
  try {
    [api, messages] = await Promise.all([
      runLoad({
        url: apiUrl,
        connections: 20,
        durationSec,
        overallRate: API_RATE,
        requests: apiTraffic(account.key, free.key),
      }),
      runLoad({
        url: messagesUrl,
        connections: 10,
        durationSec,
        overallRate: MESSAGES_RATE,
        requests: messagesTraffic(account.key),
      }),
    ]);
  } finally {
    clearInterval(progress);
  }
  const accepted = messages.statuses['202'] ?? 0;
  log(`traffic done; waiting up to ${DRAIN_TIMEOUT_MS / 1000} s for ${accepted} accepted messages to be sent`);
  const counts = () =>
    withClient(STORES, async (client) => {
      const { rows } = await client.query<{ stored: string; sent: string; failed: string }>(
        `SELECT count(*) AS stored, count(*) FILTER (WHERE status = 'sent') AS sent,
                count(*) FILTER (WHERE status = 'failed') AS failed FROM messages`,
      );
      return { stored: Number(rows[0]!.stored), sent: Number(rows[0]!.sent), failed: Number(rows[0]!.failed) };
    });
  const drainStarted = Date.now();
  await waitFor(
    async () => {
      const { stored, sent } = await counts();
      return sent >= Math.max(stored, accepted);
    },
    DRAIN_TIMEOUT_MS,
    'the queue to drain',
  ).catch((error: Error) => log(error.message));
  const drainSec = (Date.now() - drainStarted) / 1000;
  // Answers still in flight when the load stopped may have been stored without their 202 being counted.
  await sleep(1000);
  const final = await counts();
  const rssAtEnd = Object.fromEntries(processes.map((process) => [process.name, process.rssMiB()]));
  const peak = Object.fromEntries(processes.map((process) => [process.name, process.peakRssMiB()]));
  await Promise.all(processes.map((process) => process.stop()));
  const errorsLogged = Object.fromEntries(processes.map((process) => [process.name, errorLines(process.logFile)]));

  const fiveHundreds = [api, messages].reduce(
    (sum, result) =>
      sum + Object.entries(result.statuses).reduce((n, [status, count]) => n + (Number(status) >= 500 ? count : 0), 0),
    0,
  );
  const missing = Math.max(accepted, final.stored) - final.sent;
  const report = [
    `Soak: ${minutes} min, api ${API_RATE}/s and messages ${MESSAGES_RATE}/s offered (node ${process.version})`,
    summarise('api', api),
    summarise('messages', messages),
    `messages: ${accepted} accepted (202), ${final.stored} stored, ${final.sent} sent, ${final.failed} failed, ` +
      `${missing} missing; queue drained ${drainSec.toFixed(1)} s after the traffic stopped`,
    ...processes.map(({ name }) => {
      const minutes = rssByMinute[name]!;
      const growth = minutes.length > 1 ? Math.max(...minutes.slice(1)) - minutes[0]! : 0;
      const signed = `${growth >= 0 ? '+' : '−'}${Math.abs(growth).toFixed(0)}`;
      return (
        `${name}: RSS ${rssAtStart[name]!.toFixed(0)} MiB at start, ${rssAtEnd[name]!.toFixed(0)} MiB at end, ` +
        `peak ${peak[name]!.toFixed(0)} MiB; each minute ${minutes.map((rss) => rss.toFixed(0)).join(', ')} MiB ` +
        `(the later minutes' highest ${signed} MiB against the first's); ${errorsLogged[name]} error log lines`
      );
    }),
    `5xx answers: ${fiveHundreds}`,
  ];
  console.log(report.join('\n'));
  const failed = missing > 0 || fiveHundreds > 0;
  console.log(failed ? 'SOAK FAILED' : 'SOAK PASSED');
  if (failed) log(`logs kept in ${logDir}`);
  else rmSync(logDir, { recursive: true, force: true });
  return failed ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (error: Error) => {
    console.error(error.stack);
    console.error(`logs kept in ${logDir}`);
    process.exit(1);
  },
);
