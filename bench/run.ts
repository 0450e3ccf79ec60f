// `npm run bench [-- --quick] [--scenario NAME ...] [--seed-pets N] [--seed-accounts N] [--profile]`:
// starts the reference app and the real apps against a database and Redis db of their own, measures
// every scenario, and writes bench/results/<date>.json and .md. Expects a build (the npm script makes one).
import { mkdirSync, mkdtempSync, readdirSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { cpus, release, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Redis } from 'ioredis';
import { BudgetProbe, checkBudget } from './budget';
import { measureDelivery } from './delivery';
import { HTTP_SCENARIOS, HttpScenario, ScenarioContext } from './scenarios';
import { monotonicMicros, ProfileSummary, summariseProfile } from './support/cpu-profile';
import { createAccount, resetStores, seedAccounts, seedPets, storesFor, withClient } from './support/database';
import { addUsage, LoadRequest, Measured, measureInTurns, medianBy, runLoad, ScenarioRuns } from './support/load';
import { BUILD_ROOT, cpuCount, freePort, ServerProcess, startServer } from './support/processes';
import { BenchResults, markdown, ScenarioResult, TargetResult } from './support/report';
import { seededPet } from './support/seeded-pets';

const STORES = storesFor('pet_adoption_bench', 11);
const CONNECTIONS = 50;
/** Limits far above anything two cores can send, so only the 429 scenario is ever throttled. */
const UNTHROTTLED = { perMinute: 1_000_000_000, perDay: 2_000_000_000 };

const { values: flags } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    scenario: { type: 'string', multiple: true },
    'seed-pets': { type: 'string' },
    'seed-accounts': { type: 'string' },
    profile: { type: 'boolean', default: false },
  },
});

const quick = flags.quick!;
const settings = {
  quick,
  warmUpSec: quick ? 2 : 5,
  runSec: quick ? 2 : 10,
  runs: 3,
  seedPets: Number(flags['seed-pets'] ?? (quick ? 100_000 : 1_000_000)),
  seedAccounts: Number(flags['seed-accounts'] ?? (quick ? 10_000 : 100_000)),
  deliveryMessages: quick ? 2_000 : 10_000,
  deliveryRuns: quick ? 1 : 3,
};
const SCENARIO_NAMES = ['ceiling', ...HTTP_SCENARIOS.map((scenario) => scenario.name), 'delivery', 'budget'];
const selected = new Set(flags.scenario ?? SCENARIO_NAMES);
for (const name of selected) {
  if (!SCENARIO_NAMES.includes(name)) throw new Error(`unknown scenario ${name}; known: ${SCENARIO_NAMES.join(', ')}`);
}
for (const flag of ['seed-pets', 'seed-accounts'] as const) {
  const value = flags[flag];
  if (value !== undefined && !/^[1-9][0-9]{0,7}$/.test(value)) throw new Error(`--${flag} takes a count`);
}

const logDir = mkdtempSync(join(tmpdir(), 'pet-bench-'));
const appEnv = { DATABASE_URL: STORES.databaseUrl, REDIS_URL: STORES.redisUrl, DATABASE_MIGRATE_ON_START: 'true' };
const timing = { warmUpSec: settings.warmUpSec, runSec: settings.runSec, runs: settings.runs };

const count = (value: number) => value.toLocaleString('en-US');

function log(message: string): void {
  console.error(`[bench ${new Date().toISOString().slice(11, 19)}] ${message}`);
}

async function startApp(app: 'api' | 'messages', extra: Record<string, string> = {}, nodeFlags: string[] = []) {
  const port = await freePort();
  const portVariable = app === 'api' ? 'PORT' : 'MESSAGES_PORT';
  const server = await startServer(app, join('apps', app, 'src', 'main.js'), {
    core: 0,
    env: { ...appEnv, ...extra, [portVariable]: String(port) },
    ready: { url: `http://127.0.0.1:${port}/health/ready` },
    logFile: join(logDir, `${app}.log`),
    nodeFlags,
  });
  return { server, url: `http://127.0.0.1:${port}` };
}

/** A scenario's figures, as a ratio to the reference's rate over the same turns (its own median when absent). */
function toResult(
  scenario: { name: string; title: string; counted?: number },
  measured: ScenarioRuns,
  server: string,
  reference?: ScenarioRuns,
): ScenarioResult {
  const rate = (run: ScenarioRuns['median']) =>
    scenario.counted ? (run.statuses[scenario.counted] ?? 0) / run.seconds : run.perSecond;
  const rates = measured.runs.map(rate);
  const median = [...rates].sort((a, b) => a - b)[Math.floor((rates.length - 1) / 2)]!;
  const requests = measured.runs.reduce((sum, run) => sum + run.requests, 0);
  const statuses: Record<string, number> = {};
  for (const run of measured.runs) {
    for (const [status, count] of Object.entries(run.statuses)) statuses[status] = (statuses[status] ?? 0) + count;
  }
  return {
    name: scenario.name,
    title: scenario.title,
    perSecond: median,
    runsPerSecond: rates,
    referencePerSecond: reference?.median.perSecond ?? median,
    ratio: reference ? median / reference.median.perSecond : 1,
    counted: scenario.counted,
    latencyMs: measured.median.latencyMs,
    cpuMicrosPerRequest: (1e6 * (measured.usage.cpuSec[server] ?? 0)) / requests,
    storesCpuMicrosPerRequest: (1e6 * measured.usage.storesCpuSec) / requests,
    peakRssMiB: measured.usage.peakRssMiB[server] ?? 0,
    statuses,
    errors: measured.runs.reduce((sum, run) => sum + run.errors + run.timeouts, 0),
  };
}

/** A load to measure: a scenario's requests, or the ceiling's, and the process that answers them. */
interface Measurable {
  name: string;
  title: string;
  counted?: number;
  load: Measured;
}

/** The targets that compare two scenarios with each other: both are measured in the same turns. */
const COMPARISONS = [
  {
    first: 'list-20',
    second: 'deep-page',
    what: () => `First page and a deep page (${count(settings.seedPets)} pets)`,
  },
  {
    first: 'list-20',
    second: 'limiter-hot',
    what: () => `Limiter with ${count(settings.seedAccounts)} accounts vs one`,
  },
];
const COMPARED = COMPARISONS.flatMap(({ first, second }) => [first, second]);

/**
 * The groups measured in turns with the reference: the compared scenarios together, every other one
 * alone. Each group's ratios are to the reference's runs in its own turns.
 */
function measuredTogether(measurable: Measurable[]): Measurable[][] {
  const compared = measurable.filter(({ name }) => COMPARED.includes(name));
  const groups: Measurable[][] = [];
  for (const one of measurable) {
    if (!COMPARED.includes(one.name)) groups.push([one]);
    else if (one === compared[0]) groups.push(compared);
  }
  return groups;
}

/** The reference app serving its static page, or with `fromStores` its page read through raw pg after one EVALSHA. */
async function startReference(fromStores: boolean): Promise<{ server: ServerProcess; spec: Measured['spec'] }> {
  const port = await freePort();
  const path = fromStores ? '/pets-from-stores' : '/pets';
  const stores = { BENCH_DATABASE_URL: STORES.databaseUrl, BENCH_REDIS_URL: STORES.redisUrl };
  const name = fromStores ? 'ceiling' : 'reference';
  const server = await startServer(name, join('bench', 'reference-app.js'), {
    core: 0,
    env: { BENCH_PORT: String(port), ...(fromStores ? stores : {}) },
    ready: { url: `http://127.0.0.1:${port}${path}` },
    logFile: join(logDir, `${name}.log`),
  });
  return {
    server,
    spec: { url: `http://127.0.0.1:${port}`, connections: CONNECTIONS, requests: [{ method: 'GET', path }] },
  };
}

/** A CPU profile of a fresh server process while the scenario's load runs, start-up and warm-up left out. */
async function profileDuring(scenario: HttpScenario, context: ScenarioContext): Promise<ProfileSummary> {
  const profileDir = join(logDir, `profile-${scenario.name}`);
  const profiled = await startApp(scenario.server, {}, ['--cpu-prof', `--cpu-prof-dir=${profileDir}`]);
  // The first second warms up, so the profile shows the steady state rather than the JIT at work.
  const window = { from: monotonicMicros() + 1_000_000, to: 0 };
  try {
    await runLoad({
      url: profiled.url,
      connections: CONNECTIONS,
      durationSec: settings.runSec + 1,
      requests: await scenario.requests(context),
    });
    window.to = monotonicMicros();
  } finally {
    await profiled.server.stop();
  }
  return summariseProfile(join(profileDir, readdirSync(profileDir)[0]!), window);
}

async function machine(): Promise<Record<string, string>> {
  const postgres = await withClient(STORES, (client) =>
    client.query<{ server_version: string }>('SHOW server_version'),
  );
  const redis = new Redis(STORES.redisUrl);
  const info = await redis.info('server');
  redis.disconnect();
  return {
    cpu: `${cpus()[0]?.model.trim() ?? 'unknown'} × ${cpuCount()} (nproc)`,
    node: process.version,
    kernel: `Linux ${release()}`,
    postgres: postgres.rows[0]!.server_version,
    redis: /redis_version:(\S+)/.exec(info)?.[1] ?? 'unknown',
  };
}

function targets(results: BenchResults): TargetResult[] {
  const byName = new Map(results.scenarios.map((scenario) => [scenario.name, scenario]));
  const found: TargetResult[] = [];
  const ratio = (name: string, minimum: number, what: string) => {
    const scenario = byName.get(name);
    if (scenario)
      found.push({
        target: `${what} ≥ ${minimum}× reference`,
        // Three decimals: a ratio a hair under its target must not print as the target itself.
        value: `${scenario.ratio.toFixed(3)}×`,
        met: scenario.ratio >= minimum,
      });
  };
  const within = (a: string, b: string, what: string) => {
    const [first, second] = [byName.get(a), byName.get(b)];
    if (!first || !second) return;
    const spread = (x: number, y: number) => Math.max(x, y) / Math.min(x, y);
    const rate = spread(first.perSecond, second.perSecond);
    const cpu = spread(first.cpuMicrosPerRequest, second.cpuMicrosPerRequest);
    // The two scenarios ran a minute apart on a machine others share: the server's CPU per answer
    // compares their cost; req/s also moves with whatever else ran meanwhile.
    found.push({
      target: `${what} within 1.2× of each other (server CPU per answer)`,
      value: `CPU/req ${cpu.toFixed(2)}×, req/s ${rate.toFixed(2)}×`,
      met: cpu <= 1.2,
    });
  };
  ratio('list-20', 0.25, '`GET /v1/pets?limit=20`');
  const list = byName.get('list-20');
  if (list)
    found.push({
      target: '`GET /v1/pets?limit=20` p99 ≤ 20 ms at 50 connections',
      value: `${list.latencyMs.p99.toFixed(1)} ms`,
      met: list.latencyMs.p99 <= 20,
    });
  ratio('create-pet', 0.15, '`POST /v1/pets`');
  ratio('send-message', 0.15, '`POST /messages` accept');
  ratio('rate-limited', 0.4, '429 answers');
  for (const { first, second, what } of COMPARISONS) within(first, second, what());
  const [bare, worker] = [results.delivery[0], results.delivery[1]];
  if (bare && worker)
    found.push({
      target: 'Delivery, 1 worker at default concurrency, ≥ 0.5× the bare BullMQ worker',
      value: `${worker.ratio.toFixed(2)}×`,
      met: worker.ratio >= 0.5,
    });
  for (const probe of results.budget)
    found.push({
      target: `${probe.name}: ${probe.budget}`,
      value: `${probe.sqlPerRequest.toFixed(2)} SQL, ${probe.redisRoundTripsPerRequest.toFixed(2)} Redis`,
      met: probe.met,
    });
  return found;
}

function budgetProbes(context: ScenarioContext): BudgetProbe[] {
  const scenario = (name: string) => HTTP_SCENARIOS.find((candidate) => candidate.name === name)!;
  const first = (name: string) => scenario(name).requests(context) as LoadRequest[];
  const read = '≤ 1 Redis round trip, 1 SQL statement, no SQL for the key';
  return [
    {
      name: 'GET /v1/pets?limit=20',
      server: 'api',
      request: first('list-20')[0]!,
      budget: read,
      maxSql: 1,
      maxRedis: 1,
    },
    {
      name: 'GET /v1/pets?status=available&limit=100',
      server: 'api',
      request: first('list-available-100')[0]!,
      budget: read,
      maxSql: 1,
      maxRedis: 1,
    },
    {
      name: 'POST /v1/pets',
      server: 'api',
      request: first('create-pet')[0]!,
      budget: '≤ 1 Redis round trip, 1 SQL statement (the INSERT)',
      maxSql: 1,
      maxRedis: 1,
    },
    {
      name: '429 (free key, banned)',
      server: 'api',
      request: first('rate-limited')[0]!,
      budget: '≤ 1 Redis round trip, no SQL',
      maxSql: 0,
      maxRedis: 1,
      // Past the free plan's 60 a minute and the ban threshold, however the key was used before.
      warmUp: 120,
    },
    {
      name: 'POST /messages',
      server: 'messages',
      request: first('send-message')[0]!,
      budget: '≤ 1 round trip for limits + the enqueue; the INSERT, enqueued_at UPDATEs batched',
      maxSql: 2,
      maxRedis: 2,
    },
  ];
}

async function main(): Promise<void> {
  const started = Date.now();
  log(`settings ${JSON.stringify(settings)}; logs in ${logDir}`);
  await resetStores(STORES);
  const account = await createAccount(STORES, 'bench@bench.example', UNTHROTTLED);
  const free = await createAccount(STORES, 'bench-free@bench.example');
  log(`seeding ${settings.seedPets} pets and ${settings.seedAccounts} accounts`);
  await seedPets(STORES, settings.seedPets);
  const seededKeys = await seedAccounts(STORES, settings.seedAccounts);
  log(`seeded in ${Math.round((Date.now() - started) / 1000)} s`);

  const reference = await startReference(false);
  const ceiling = selected.has('ceiling') ? await startReference(true) : undefined;
  const api = await startApp('api');
  const messages = await startApp('messages');
  const context: ScenarioContext = {
    apiUrl: api.url,
    messagesUrl: messages.url,
    key: account.key,
    freeKey: free.key,
    seededKeys,
    seedPets: settings.seedPets,
  };
  const firstPage = await fetch(`${api.url}/v1/pets?limit=20`, { headers: { Authorization: `Bearer ${account.key}` } });
  const expected = JSON.stringify(Array.from({ length: 20 }, (_, i) => seededPet(i + 1)));
  if ((await firstPage.text()) !== expected) throw new Error('the api answers another first page than the reference');

  const measurable: Measurable[] = [];
  if (ceiling)
    measurable.push({
      name: 'ceiling',
      title: 'Ceiling: the reference reading its page with raw pg after one EVALSHA',
      load: ceiling,
    });
  const servers: Record<HttpScenario['server'], ServerProcess> = { api: api.server, messages: messages.server };
  for (const scenario of HTTP_SCENARIOS.filter(({ name }) => selected.has(name))) {
    const server = servers[scenario.server];
    const url = context[scenario.server === 'api' ? 'apiUrl' : 'messagesUrl'];
    measurable.push({
      ...scenario,
      load: {
        server,
        spec: { url, connections: CONNECTIONS, requests: await scenario.requests(context), dealt: scenario.dealt },
      },
    });
  }

  const scenarios: ScenarioResult[] = [];
  const referenceRuns: ScenarioRuns[] = [];
  try {
    const groups = measuredTogether(measurable);
    // With no HTTP scenario selected, the reference is still measured: the report is made of ratios to it.
    for (const group of groups.length > 0 ? groups : [[]]) {
      log(['reference', ...group.map(({ name }) => name)].join(', '));
      // Request logs are kept for one group at a time: enough to explain a failure, not gigabytes.
      for (const { load } of group) truncateSync(load.server.logFile);
      const [ownReference, ...measured] = await measureInTurns([reference, ...group.map(({ load }) => load)], timing);
      referenceRuns.push(ownReference!);
      for (const [index, scenario] of group.entries()) {
        scenarios.push(toResult(scenario, measured[index]!, scenario.load.server.name, ownReference));
      }
    }
  } finally {
    await Promise.all([api.server.stop(), reference.server.stop(), ceiling?.server.stop()]);
  }
  const allReferenceRuns = referenceRuns.flatMap(({ runs }) => runs);
  const referenceResult = toResult(
    { name: 'reference', title: 'Reference: bare NestJS, static 20 pets (every run, in turns with the scenarios)' },
    {
      runs: allReferenceRuns,
      median: medianBy(allReferenceRuns, (run) => run.perSecond),
      usage: referenceRuns.map(({ usage }) => usage).reduce(addUsage),
    },
    'reference',
  );

  const delivery = selected.has('delivery')
    ? await (async () => {
        log('delivery');
        const variants = await measureDelivery({
          stores: STORES,
          messagesUrl: messages.url,
          key: account.key,
          accountId: account.accountId,
          messages: settings.deliveryMessages,
          runs: settings.deliveryRuns,
          logDir,
          appEnv,
        });
        return variants.map((variant) => ({ ...variant, ratio: variant.perSecond / variants[0]!.perSecond }));
      })().finally(() => messages.server.stop())
    : await messages.server.stop().then(() => []);

  let budget: BenchResults['budget'] = [];
  if (selected.has('budget')) {
    log('per-request budget');
    budget = await checkBudget(STORES, appEnv, budgetProbes(context), logDir);
  }

  const profiles: BenchResults['profiles'] = [];
  if (flags.profile) {
    // The scenarios named with --scenario, else the two hot paths.
    const named = flags.scenario ? HTTP_SCENARIOS.map(({ name }) => name).filter((name) => selected.has(name)) : [];
    for (const name of named.length > 0 ? named : ['list-20', 'send-message']) {
      const scenario = HTTP_SCENARIOS.find((candidate) => candidate.name === name)!;
      log(`cpu profile of ${scenario.server} during ${name}`);
      profiles.push({ scenario: name, server: scenario.server, summary: await profileDuring(scenario, context) });
    }
  }

  const date = new Date().toISOString().slice(0, 10);
  const results: BenchResults = {
    date,
    command: `npm run bench${process.argv.length > 2 ? ` -- ${process.argv.slice(2).join(' ')}` : ''}`,
    machine: await machine(),
    settings,
    durationSec: 0,
    reference: referenceResult,
    scenarios,
    delivery,
    budget,
    targets: [],
    profiles,
  };
  results.targets = targets(results);
  results.durationSec = Math.round((Date.now() - started) / 1000);
  const resultsDir = join(BUILD_ROOT, '..', 'bench', 'results');
  mkdirSync(resultsDir, { recursive: true });
  const name = join(resultsDir, `${date}${quick ? '-quick' : flags.scenario ? '-partial' : ''}`);
  writeFileSync(`${name}.json`, `${JSON.stringify(results, null, 2)}\n`);
  const report = markdown(results);
  writeFileSync(`${name}.md`, report);
  console.log(report);
  log(`wrote ${name}.json and .md`);
  rmSync(logDir, { recursive: true, force: true });
}

main().then(
  // Clients (fetch keep-alive, Redis) may still hold the loop open.
  () => process.exit(0),
  (error: Error) => {
    console.error(error.stack);
    console.error(`server logs kept in ${logDir}`);
    process.exit(1);
  },
);
