// `npm run bench [-- --quick] [--scenario NAME ...] [--seed-pets N] [--seed-accounts N] [--profile]`:
// starts the reference app and the real apps against a database and Redis db of their own, measures
// every scenario, and writes bench/results/<date>.json and .md. Expects a build (the npm script makes one).
import { mkdtempSync, readdirSync, rmSync, truncateSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { measureAccountExport } from './account-export';
import { checkApprovalRaces } from './approval-races';
import { checkBudget } from './budget';
import { measureEmail, startSmtpSink } from './email';
import { budgetProbes } from './budget-probes';
import { measureDelivery } from './delivery';
import { measureMix } from './mix';
import { measureSavedSearches } from './saved-searches';
import { LOOPBACK_ALLOWED, measureWebhooks } from './webhooks';
import { measureWriteOrder } from './write-order';
import { HTTP_SCENARIOS } from './scenarios';
import { CONNECTIONS, HttpScenario, ScenarioContext } from './support/scenario';
import { measuredTogether, targets } from './targets';
import { monotonicMicros, ProfileSummary, summariseProfile } from './support/cpu-profile';
import {
  analyzeWithoutAutovacuum,
  createAccount,
  outboxBacklog,
  resetStores,
  seedAccounts,
  seedPets,
  storesFor,
  waitForEmptyOutbox,
} from './support/database';
import { DeliveryVariant, startWorkers } from './support/drains';
import { describeMachine } from './support/machine';
import { addUsage, Measured, measureInTurns, medianBy, runLoad, ScenarioRuns } from './support/load';
import { BUILD_ROOT, freePort, ServerProcess, startServer, startServiceApp } from './support/processes';
import { BenchResults, BenchSettings, ScenarioResult } from './support/report';
import { Reported, toResult, writeResults } from './support/results';
import { seededPet } from './support/seeded-pets';

// BENCH_DATABASE (a name ending in _bench) and BENCH_REDIS_DB keep a run apart from another's on the machine.
const STORES = storesFor(process.env.BENCH_DATABASE ?? 'pet_adoption_bench', Number(process.env.BENCH_REDIS_DB ?? 11));
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
const settings: BenchSettings = {
  warmUpSec: quick ? 2 : 5,
  runSec: quick ? 2 : 10,
  runs: 3,
  seedPets: Number(flags['seed-pets'] ?? (quick ? 100_000 : 1_000_000)),
  seedAccounts: Number(flags['seed-accounts'] ?? (quick ? 10_000 : 100_000)),
  deliveryMessages: quick ? 2_000 : 10_000,
  deliveryRuns: quick ? 1 : 3,
};
const SCENARIO_NAMES = [
  'ceiling',
  ...HTTP_SCENARIOS.map((scenario) => scenario.name),
  'mix',
  'delivery',
  'webhooks',
  'email',
  'saved-searches',
  'write-order',
  'approval-races',
  'budget',
  'account-export',
];
const selected = new Set(flags.scenario ?? SCENARIO_NAMES);
for (const name of selected) {
  if (!SCENARIO_NAMES.includes(name)) throw new Error(`unknown scenario ${name}; known: ${SCENARIO_NAMES.join(', ')}`);
}
for (const flag of ['seed-pets', 'seed-accounts'] as const) {
  const value = flags[flag];
  if (value !== undefined && !/^[1-9][0-9]{0,7}$/.test(value)) throw new Error(`--${flag} takes a count`);
}

/**
 * BENCH_POOL_MODE=transaction starts the apps as behind a transaction-mode pooler (unnamed statements,
 * migrations on the direct address), and through the one at BENCH_POOLER (`host:port`, whose connect_query
 * turns JIT off) when it is set: what named statements are worth is the difference with a run without them.
 */
function poolSettings(): Record<string, string> {
  const mode = process.env.BENCH_POOL_MODE;
  if (mode === undefined) return {};
  if (mode !== 'transaction') throw new Error(`BENCH_POOL_MODE takes transaction, not ${mode}`);
  const pooled = new URL(STORES.databaseUrl);
  if (process.env.BENCH_POOLER) pooled.host = process.env.BENCH_POOLER;
  // Without a pooler, the connection says what its connect_query would (Operations: a pooler): JIT would
  // otherwise compile the batched reads, a hundred times their cost.
  else pooled.searchParams.set('options', '-c jit=off');
  return { DATABASE_POOL_MODE: mode, DATABASE_URL: pooled.toString(), DATABASE_DIRECT_URL: STORES.databaseUrl };
}

const logDir = mkdtempSync(join(tmpdir(), 'pet-bench-'));
const appEnv = {
  DATABASE_URL: STORES.databaseUrl,
  REDIS_URL: STORES.redisUrl,
  DATABASE_MIGRATE_ON_START: 'true',
  // A publishable key is limited per client address, and the whole load comes from one: as UNTHROTTLED.
  RATE_LIMIT_PUBLISHABLE_PER_MINUTE: String(UNTHROTTLED.perMinute),
  ...poolSettings(),
};
const timing = { warmUpSec: settings.warmUpSec, runSec: settings.runSec, runs: settings.runs };

function log(message: string): void {
  console.error(`[bench ${new Date().toISOString().slice(11, 19)}] ${message}`);
}

type AppName = Exclude<HttpScenario['server'], 'peer'> | 'webhooks-api' | 'mix-api' | 'export-api';
/** Which app each process the bench starts runs, and what it starts with beyond the bench's settings. */
const APPS: Record<AppName, { app: 'api' | 'messages'; preload?: string; env?: Record<string, string> }> = {
  api: { app: 'api' },
  messages: { app: 'messages' },
  'api-no-outbox': { app: 'api', preload: join(BUILD_ROOT, 'bench', 'no-outbox.js') },
  'webhooks-api': { app: 'api', env: LOOPBACK_ALLOWED },
  // A fresh process, so its peak RSS is the mix's.
  'mix-api': { app: 'api', env: LOOPBACK_ALLOWED },
  // A fresh process for each export, so that its RSS is the export's.
  'export-api': { app: 'api' },
};

/** Every server the run started, stopped when it fails wherever it is. */
const runningServers = new Set<ServerProcess>();

async function startApp(name: AppName, nodeFlags: string[] = []) {
  const { app, preload, env } = APPS[name];
  const server = await startServiceApp(app, {
    name,
    core: 0,
    env: { ...appEnv, ...env },
    logFile: join(logDir, `${name}.log`),
    nodeFlags: [...(preload ? ['--require', preload] : []), ...nodeFlags],
  });
  runningServers.add(server);
  return { server, url: server.url };
}

/** Starts the app, hands it to `use` and stops it, however `use` ends. */
async function withApp<T>(name: AppName, use: (app: Awaited<ReturnType<typeof startApp>>) => Promise<T>): Promise<T> {
  const app = await startApp(name);
  try {
    return await use(app);
  } finally {
    await app.server.stop();
  }
}

/** A load to measure: a scenario's requests, or the ceiling's, and the process that answers them. */
interface Measurable extends Reported {
  load: Measured;
  check?: () => Promise<void>;
}

/** The apps of the bench's own: the reference, the ceiling and the peer, with the path that shows each serves. */
const BENCH_APPS = {
  reference: { entry: join('bench', 'reference-app.js'), ready: '/pets', stores: false },
  ceiling: { entry: join('bench', 'reference-app.js'), ready: '/pets-from-stores', stores: true },
  peer: { entry: join('bench', 'peers', 'peer-app.js'), ready: '/health', stores: true },
};

/**
 * One of BENCH_APPS: the reference serving its static page, the ceiling (the reference reading its page
 * through raw pg after one EVALSHA), or the peer; the load spec of the first two.
 */
async function startBenchApp(
  name: keyof typeof BENCH_APPS,
): Promise<{ server: ServerProcess; url: string; spec: Measured['spec'] }> {
  const { entry, ready, stores } = BENCH_APPS[name];
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const server = await startServer(name, entry, {
    core: 0,
    env: {
      BENCH_PORT: String(port),
      ...(stores ? { BENCH_DATABASE_URL: STORES.databaseUrl, BENCH_REDIS_URL: STORES.redisUrl } : {}),
    },
    ready: { url: `${url}${ready}` },
    logFile: join(logDir, `${name}.log`),
  });
  runningServers.add(server);
  return { server, url, spec: { url, connections: CONNECTIONS, requests: [{ method: 'GET', path: ready }] } };
}

/** A CPU profile of a fresh server process while the scenario's load runs, start-up and warm-up left out. */
async function profileDuring(scenario: HttpScenario, context: ScenarioContext): Promise<ProfileSummary> {
  const profileDir = join(logDir, `profile-${scenario.name}`);
  if (scenario.server === 'peer')
    throw new Error(`--profile profiles the service's apps; ${scenario.name} is the peer's`);
  const profiled = await startApp(scenario.server, ['--cpu-prof', `--cpu-prof-dir=${profileDir}`]);
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

async function main(): Promise<void> {
  const started = Date.now();
  log(`settings ${JSON.stringify(settings)}; logs in ${logDir}`);
  await resetStores(STORES);
  // Every worker sends its emails to the sink (production refuses one without an SMTP server).
  const smtp = await startSmtpSink();
  Object.assign(appEnv, smtp.env);
  const account = await createAccount(STORES, 'bench@bench.example', UNTHROTTLED);
  const free = await createAccount(STORES, 'bench-free@bench.example');
  const noOutbox = await createAccount(STORES, 'bench-no-outbox@bench.example', UNTHROTTLED);
  log(`seeding ${settings.seedPets} pets and ${settings.seedAccounts} accounts`);
  await seedPets(STORES, settings.seedPets);
  const seededKeys = await seedAccounts(STORES, settings.seedAccounts);
  log(`seeded in ${Math.round((Date.now() - started) / 1000)} s`);

  const reference = await startBenchApp('reference');
  const ceiling = selected.has('ceiling') ? await startBenchApp('ceiling') : undefined;
  const peer = HTTP_SCENARIOS.some(({ name, server }) => server === 'peer' && selected.has(name))
    ? await startBenchApp('peer')
    : undefined;
  const api = await startApp('api');
  const messages = await startApp('messages');
  const noOutboxApi = selected.has('create-pet-no-outbox') ? await startApp('api-no-outbox') : undefined;
  const context: ScenarioContext = {
    apiUrl: api.url,
    messagesUrl: messages.url,
    key: account.key,
    freeKey: free.key,
    seededKeys,
    seedPets: settings.seedPets,
    accountId: account.accountId,
    noOutbox,
    stores: STORES,
  };
  // Made while the api runs: a probe's key is made through it.
  const probes = selected.has('budget') ? await budgetProbes(context) : [];
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
  const apps = { api, messages, 'api-no-outbox': noOutboxApi, peer };
  for (const scenario of HTTP_SCENARIOS.filter(({ name }) => selected.has(name))) {
    const { server, url } = apps[scenario.server]!;
    measurable.push({
      ...scenario,
      load: {
        server,
        spec: { url, connections: CONNECTIONS, requests: await scenario.requests(context), dealt: scenario.dealt },
        prepare: scenario.prepare && (() => scenario.prepare!(context)),
      },
      check: scenario.check && (() => scenario.check!(context)),
    });
  }

  const scenarios: ScenarioResult[] = [];
  const referenceRuns: ScenarioRuns[] = [];
  let approvalRaces: BenchResults['approvalRaces'];
  try {
    const groups = measuredTogether(measurable);
    // With no HTTP scenario selected, the reference is still measured: the report is made of ratios to it.
    for (const group of groups.length > 0 ? groups : [[]]) {
      log(['reference', ...group.map(({ name }) => name)].join(', '));
      // Request logs are kept for one group at a time: enough to explain a failure, not gigabytes.
      for (const { load } of group) truncateSync(load.server.logFile);
      const [ownReference, ...measured] = await measureInTurns(
        [reference, ...group.map(({ load }) => load)],
        timing,
        () => analyzeWithoutAutovacuum(STORES),
      );
      referenceRuns.push(ownReference!);
      for (const [index, scenario] of group.entries()) {
        await scenario.check?.();
        scenarios.push(toResult(scenario, measured[index]!, scenario.load.server.name, ownReference));
      }
    }
    if (selected.has('approval-races')) {
      log('approval races');
      approvalRaces = await checkApprovalRaces(context, settings.runs);
    }
  } catch (error) {
    // Delivery would stop it; a run that ends here must not leave it running.
    await messages.server.stop();
    throw error;
  } finally {
    await Promise.all([api, noOutboxApi, reference, ceiling, peer].map((one) => one?.server.stop()));
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

  let mix: BenchResults['mix'];
  let delivery: DeliveryVariant[] = [];
  try {
    if (selected.has('mix')) {
      log('mix');
      const mixApi = await startApp('mix-api');
      const workers = await startWorkers(1, { ...appEnv, ...LOOPBACK_ALLOWED }, logDir);
      try {
        // The mix's worker starts on an empty outbox: the events of the earlier scenarios' writes (hundreds
        // of thousands in a full run) are worked through first, not counted as the mix's.
        const { toDispatch, toMatch } = await outboxBacklog(STORES);
        const started = Date.now();
        await waitForEmptyOutbox(STORES, 1_800_000);
        const seconds = Math.round((Date.now() - started) / 1000);
        log(`mix: the worker dispatched ${toDispatch} events and matched ${toMatch} pet events in ${seconds} s first`);
        await analyzeWithoutAutovacuum(STORES);
        mix = await measureMix({
          context: { ...context, apiUrl: mixApi.url },
          runSec: settings.runSec,
          processes: [mixApi.server, messages.server, ...workers],
        });
      } finally {
        await Promise.all([mixApi.server.stop(), ...workers.map((worker) => worker.stop())]);
      }
    }
    if (selected.has('delivery')) {
      log('delivery');
      delivery = await measureDelivery({
        stores: STORES,
        messagesUrl: messages.url,
        key: account.key,
        accountId: account.accountId,
        messages: settings.deliveryMessages,
        runs: settings.deliveryRuns,
        logDir,
        appEnv,
      });
    }
  } finally {
    await messages.server.stop();
  }

  let webhooks: DeliveryVariant[] = [];
  if (selected.has('webhooks')) {
    log('webhooks');
    webhooks = await withApp('webhooks-api', async ({ url }) =>
      measureWebhooks({
        stores: STORES,
        apiUrl: url,
        key: (await createAccount(STORES, 'bench-webhooks@bench.example', UNTHROTTLED)).key,
        events: settings.deliveryMessages,
        runs: settings.deliveryRuns,
        logDir,
        appEnv,
      }),
    );
  }

  let email: DeliveryVariant[] = [];
  if (selected.has('email')) {
    log('email');
    email = await measureEmail({
      stores: STORES,
      sink: smtp,
      accountId: account.accountId,
      emails: settings.deliveryMessages,
      runs: settings.deliveryRuns,
      logDir,
      appEnv,
    });
  }

  let savedSearches: BenchResults['savedSearches'];
  if (selected.has('saved-searches')) {
    log('saved searches');
    savedSearches = await withApp('api', async ({ server, url }) =>
      measureSavedSearches({
        stores: STORES,
        api: server,
        apiUrl: url,
        key: (await createAccount(STORES, 'bench-searches@bench.example', UNTHROTTLED)).key,
        searches: quick ? 10_000 : 100_000,
        changes: 6_000,
        rate: quick ? 100 : 500,
        logDir,
        appEnv,
        timing,
      }),
    );
  }

  let writeOrder: BenchResults['writeOrder'];
  if (selected.has('write-order')) {
    log('write order');
    writeOrder = await measureWriteOrder({ stores: STORES, appEnv, logDir, ...timing });
  }

  let budget: BenchResults['budget'] = [];
  if (selected.has('budget')) {
    log('per-request budget');
    budget = await checkBudget(STORES, appEnv, probes, logDir);
  }

  let accountExport: BenchResults['accountExport'];
  if (selected.has('account-export')) {
    log('account export');
    accountExport = await measureAccountExport({ stores: STORES, startApi: () => startApp('export-api') });
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
    machine: await describeMachine(STORES),
    settings,
    durationSec: 0,
    reference: referenceResult,
    scenarios,
    delivery,
    webhooks,
    email,
    budget,
    savedSearches,
    writeOrder,
    approvalRaces,
    accountExport,
    mix,
    targets: [],
    profiles,
  };
  results.targets = targets(results);
  results.durationSec = Math.round((Date.now() - started) / 1000);
  const { name, report } = writeResults(results, quick ? '-quick' : flags.scenario ? '-partial' : '');
  console.log(report);
  log(`wrote ${name}.json and .md`);
  await smtp.close();
  rmSync(logDir, { recursive: true, force: true });
}

main().then(
  // Clients (fetch keep-alive, Redis) may still hold the loop open.
  () => process.exit(0),
  async (error: Error) => {
    console.error(error.stack);
    console.error(`server logs kept in ${logDir}`);
    await Promise.all([...runningServers].map((server) => server.stop()));
    process.exit(1);
  },
);
