import { MIX, MIX_P99_MS, type MixResult } from '../mix';
import { exportGrowthMiB, type AccountExportRun } from '../account-export';
import type { ApprovalRacesResult } from '../approval-races';
import type { BudgetResult } from '../budget';
import type { WriteOrderVariant } from '../write-order';
import type { ProfileSummary } from './cpu-profile';
import type { DeliveryVariant } from './drains';
import type { LoadResult } from './load';

/** Whether the outbox kept up with the saved-search digests of a run of the matcher. */
export interface DigestEmailsResult {
  /** Searches with email alerts, and the digest period the worker ran with. */
  searches: number;
  minutes: number;
  /** Digest emails written once every digest came due at once, and per second until the last was written. */
  written: number;
  writtenPerSecond: number;
  /** Emails sent (accepted by the SMTP server) meanwhile, per second. */
  sentPerSecond: number;
  /** Written and not yet sent when the last was written. */
  pendingAtEnd: number;
  /** Written → accepted, over the emails written. */
  lagMedianMs: number;
  lagP99Ms: number;
  /** Of those written, still unsent a minute after the last was written. */
  unsent: number;
}

export interface SavedSearchesResult {
  searches: number;
  /** `POST /v1/pets` with the searches saved and without them, in turns: matching adds nothing to it. */
  createPet: { without: ScenarioResult; with: ScenarioResult };
  /** Searches evaluated per pet change: the searches filed under one of its terms. */
  candidatesPerChange: { mean: number; p99: number };
  /** A backlog of pet changes matched by one worker, per second. */
  matchedPerSecond: number;
  /** The backlog's alerts (`saved_search.matched` events) per change. */
  alertsPerChange: number;
  /** Statements the worker ran per change of the backlog, its start-up, the alerts' dispatch and emails included. */
  statementsPerChange: number;
  /** Pet changes sent at a steady rate while a worker ran. */
  steady: { changes: number; perSecond: number; alertMedianMs: number; alertP99Ms: number };
  /** The digests of the searches with email alerts, all due at once, written and sent by the same worker. */
  email: DigestEmailsResult;
}

export interface ScenarioResult {
  name: string;
  title: string;
  /** Median over the measured runs of the answers per second (only `counted` ones when set). */
  perSecond: number;
  runsPerSecond: number[];
  /** The reference app's median answers per second over the runs measured in turns with this scenario. */
  referencePerSecond: number;
  /** The shared scenario this one is the spread twin of (bench/support/spread.ts). */
  spreadOf?: string;
  /** The service's scenario this peer's scenario does the same as (bench/peers/). */
  peerOf?: string;
  /** perSecond divided by referencePerSecond. */
  ratio: number;
  counted?: number;
  latencyMs: LoadResult['latencyMs'];
  /**
   * The server's CPU time per answer over the measured runs: unlike req/s, barely moved by other
   * work on the machine, as long as the server is the bottleneck.
   */
  cpuMicrosPerRequest: number;
  /** PostgreSQL's and Redis's CPU time per answer: the same two cores serve them. */
  storesCpuMicrosPerRequest: number;
  peakRssMiB: number;
  /** Statuses of all measured runs together. */
  statuses: Record<string, number>;
  errors: number;
}

/** How a run was made: its timing and how much it seeded. */
export interface BenchSettings {
  warmUpSec: number;
  runSec: number;
  runs: number;
  seedPets: number;
  seedAccounts: number;
  deliveryMessages: number;
  deliveryRuns: number;
}

export interface TargetResult {
  target: string;
  value: string;
  met: boolean;
}

export interface BenchResults {
  date: string;
  command: string;
  machine: Record<string, string>;
  settings: BenchSettings;
  durationSec: number;
  reference: ScenarioResult;
  scenarios: ScenarioResult[];
  delivery: DeliveryVariant[];
  /** Webhook deliveries, event → delivered. */
  webhooks: DeliveryVariant[];
  /** Emails, outbox → accepted by an SMTP server on the loopback. */
  email: DeliveryVariant[];
  budget: BudgetResult[];
  /** The saved-search matcher over 100,000 saved searches, when measured. */
  savedSearches?: SavedSearchesResult;
  /** Pet writes from 4 api processes, with and without the write order (bench/write-order.ts), when measured. */
  writeOrder?: WriteOrderVariant[];
  /** Approvals racing for the same pets (bench/approval-races.ts), when checked. */
  approvalRaces?: ApprovalRacesResult;
  /** `GET /v1/account/export` of accounts of 10,000 and 100,000 pets, each on a fresh api (bench/account-export.ts). */
  accountExport?: AccountExportRun[];
  /** `--scenario mix`, when measured. */
  mix?: MixResult;
  targets: TargetResult[];
  profiles: Array<{ scenario: string; server: string; summary: ProfileSummary }>;
}

/** The CPU a scenario's answers cost: the server's, PostgreSQL's and Redis's, per answer. */
export const allCpu = (scenario: Pick<ScenarioResult, 'cpuMicrosPerRequest' | 'storesCpuMicrosPerRequest'>) =>
  scenario.cpuMicrosPerRequest + scenario.storesCpuMicrosPerRequest;

const fixed = (value: number, digits = 0) =>
  value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
const ms = (value: number) => fixed(value, value < 10 ? 2 : 1);
/** `201: 1,000, 304: 20`: answers by status. */
const answers = (statuses: Record<string, number>) =>
  Object.entries(statuses)
    .map(([status, count]) => `${status}: ${fixed(count)}`)
    .join(', ');
/** `api 120, worker 40`: a figure of each process. */
const byProcess = (figures: Record<string, number>) =>
  Object.entries(figures)
    .map(([name, figure]) => `${name} ${fixed(figure)}`)
    .join(', ');
const rates = (runs: number[]) => runs.map((rate) => fixed(rate)).join(', ');
const table = (header: string[], rows: string[][]) =>
  [header, header.map(() => '---'), ...rows].map((cells) => `| ${cells.join(' | ')} |`).join('\n');

/** The Markdown report: the tables docs/performance.md is made of. */
export function markdown(results: BenchResults): string {
  const machine = Object.entries(results.machine)
    .map(([name, value]) => `${name} ${value}`)
    .join(' · ');
  const http = [results.reference, ...results.scenarios].map((scenario) => [
    `${scenario.title}${scenario.name === 'reference' ? '' : ` (\`${scenario.name}\`)`}`,
    `${fixed(scenario.perSecond)}${scenario.counted ? ` (${scenario.counted}s)` : ''}`,
    `${fixed(scenario.ratio, 2)}×`,
    fixed(scenario.referencePerSecond),
    ms(scenario.latencyMs.p50),
    ms(scenario.latencyMs.p99),
    ms(scenario.latencyMs.p999),
    fixed(allCpu(scenario)),
    fixed(scenario.cpuMicrosPerRequest),
    fixed(scenario.storesCpuMicrosPerRequest),
    fixed(scenario.peakRssMiB),
    answers(scenario.statuses) + (scenario.errors ? `, errors: ${scenario.errors}` : ''),
  ]);
  const sections = [
    `## Benchmark ${results.date}`,
    `${machine}. \`${results.command}\` took ${fixed(results.durationSec)} s. Server pinned to core 0, autocannon ` +
      `(50 connections) to core 1. Each scenario is measured in turns with the reference app: a warm-up of ` +
      `${results.settings.warmUpSec} s each, then ${results.settings.runs} turns of one ${results.settings.runSec} s ` +
      "run each, the median run reported; its ratio is to the reference's median over the same turns, so both saw " +
      'the same machine (the first page, the deep page and the 1,000-account limiter run share their turns, since ' +
      'targets compare them). All CPU µs/req is what the server process, PostgreSQL and Redis spent per ' +
      'answer over the runs, the figure targets hold: less moved by other work on the machine than req/s. ' +
      'Server CPU µs/req is the server process’s share of it, PostgreSQL + Redis CPU µs/req the stores’.',
    table(
      [
        'Scenario',
        'req/s',
        '× reference',
        'reference req/s, same turns',
        'p50 ms',
        'p99 ms',
        'p99.9 ms',
        'all CPU µs/req',
        'server CPU µs/req',
        'PostgreSQL + Redis CPU µs/req',
        'peak RSS MiB',
        'answers',
      ],
      http,
    ),
  ];
  const byName = new Map(results.scenarios.map((scenario) => [scenario.name, scenario]));
  const twins = results.scenarios.filter(({ spreadOf }) => spreadOf && byName.has(spreadOf));
  if (twins.length > 0)
    sections.push(
      '### Spread (headline) and shared: 1,000 distinct requests against one request from every connection',
      table(
        ['Scenario', 'spread req/s', 'all CPU µs/req', 'p99 ms', 'shared req/s', 'all CPU µs/req', 'p99 ms'],
        twins.map((twin) => {
          const shared = byName.get(twin.spreadOf!)!;
          return [
            `${shared.title} (\`${twin.name}\`, \`${shared.name}\`)`,
            ...[twin, shared].flatMap((one) => [fixed(one.perSecond), fixed(allCpu(one)), ms(one.latencyMs.p99)]),
          ];
        }),
      ),
    );
  const peers = results.scenarios.filter(({ peerOf }) => peerOf && byName.has(peerOf));
  if (peers.length > 0)
    sections.push(
      '### The service beside the peer (bench/peers/: NestJS, TypeORM repositories, @nestjs/throttler in Redis), same turns',
      table(
        [
          'Scenario',
          'req/s',
          'all CPU µs/req',
          'p99 ms',
          'peak RSS MiB',
          'peer req/s',
          'all CPU µs/req',
          'p99 ms',
          'peak RSS MiB',
        ],
        peers.map((peer) => {
          const ours = byName.get(peer.peerOf!)!;
          return [
            `${ours.title} (\`${ours.name}\`, \`${peer.name}\`)`,
            ...[ours, peer].flatMap((one) => [
              fixed(one.perSecond),
              fixed(allCpu(one)),
              ms(one.latencyMs.p99),
              fixed(one.peakRssMiB),
            ]),
          ];
        }),
      ),
    );
  const mix = results.mix;
  if (mix) {
    // Without a step within the p99, the one answering most shows where the time went.
    const shown =
      mix.steps[
        mix.chosen ?? mix.steps.reduce((best, step, i) => (step.perSecond > mix.steps[best]!.perSecond ? i : best), 0)
      ]!;
    sections.push(
      `### Mix (${Object.entries(MIX)
        .map(([operation, share]) => `${share} % ${operation}`)
        .join(', ')}): offered rates stepped, the highest with p99 ≤ ${MIX_P99_MS} ms kept`,
      table(
        ['offered req/s', 'answered req/s', 'api p99 ms', 'messages p99 ms', `p99 ≤ ${MIX_P99_MS} ms`, 'CPU µs/req'],
        mix.steps.map((step) => [
          fixed(step.offeredPerSecond),
          fixed(step.perSecond),
          ms(step.p99Ms.api),
          ms(step.p99Ms.messages),
          step.met ? 'yes' : 'no',
          byProcess(step.cpuMicrosPerRequest),
        ]),
      ),
      (mix.chosen !== undefined
        ? `Throughput at p99 ≤ ${MIX_P99_MS} ms: ${fixed(shown.perSecond)} req/s; its operations:`
        : `No step kept p99 within ${MIX_P99_MS} ms; the operations of the step that answered most:`) +
        ` (peak RSS MiB over every step: ${byProcess(mix.peakRssMiB)})`,
      table(
        ['Operation', 'share of requests', 'p50 ms', 'p99 ms', 'answers'],
        Object.entries(shown.operations).map(([name, one]) => [
          name,
          `${fixed(one.share * 100, 1)} %`,
          ms(one.latencyMs.p50),
          ms(one.latencyMs.p99),
          answers(one.statuses),
        ]),
      ),
    );
  }
  const drains = (what: string, measured: string, unit: string, variants: DeliveryVariant[]) => {
    if (variants.length === 0) return;
    const { deliveryMessages, deliveryRuns } = results.settings;
    // A drain measured alone has no bare worker to be a multiple of.
    const bare = variants.length > 1;
    sections.push(
      `### ${what} (${measured}, ${fixed(deliveryMessages)} ${unit}, ${deliveryRuns} run(s) of each, in turns)`,
      table(
        [
          'Variant',
          `${unit}/s`,
          ...(bare ? ['× bare worker'] : []),
          'runs',
          'CPU µs per item',
          'PostgreSQL + Redis CPU µs per item',
          'peak RSS MiB',
        ],
        variants.map((variant) => [
          `${variant.title} (\`${variant.name}\`)`,
          fixed(variant.perSecond),
          ...(bare ? [`${fixed(variant.ratio, 2)}×`] : []),
          rates(variant.runs),
          fixed(variant.cpuMicrosPerItem),
          fixed(variant.storesCpuMicrosPerItem),
          fixed(variant.peakRssMiB),
        ]),
      ),
    );
  };
  drains('Message delivery', 'accept → sent', 'messages', results.delivery);
  drains('Webhook delivery', 'event → delivered to a local receiver answering 204', 'events', results.webhooks);
  drains('Email delivery', 'outbox → accepted by an SMTP server on the loopback', 'emails', results.email);
  if (results.writeOrder) {
    sections.push(
      '### Pet writes from 4 api processes (creates and changes)',
      table(
        ['variant', 'writes/s (median)', 'runs', 'failed', 'machine CPU busy', 'machine CPU µs per write'],
        results.writeOrder.map((variant) => [
          variant.variant,
          fixed(variant.median),
          rates(variant.runs),
          fixed(variant.failed),
          `${fixed(variant.machineBusy * 100)} %`,
          fixed(variant.machineCpuMicrosPerWrite),
        ]),
      ),
    );
  }
  const searches = results.savedSearches;
  if (searches) {
    sections.push(
      `### Saved-search matching (${fixed(searches.searches)} saved searches, one worker)`,
      table(
        [
          'candidates per change (mean, p99)',
          'backlog matched/s',
          'alerts per change',
          'worker statements per change',
          'steady changes',
          'steady rate/s',
          'change → alert p50 ms',
          'p99 ms',
        ],
        [
          [
            `${fixed(searches.candidatesPerChange.mean)}, ${fixed(searches.candidatesPerChange.p99)}`,
            fixed(searches.matchedPerSecond),
            fixed(searches.alertsPerChange, 1),
            fixed(searches.statementsPerChange, 2),
            fixed(searches.steady.changes),
            fixed(searches.steady.perSecond),
            fixed(searches.steady.alertMedianMs),
            fixed(searches.steady.alertP99Ms),
          ],
        ],
      ),
      `Digest emails of the ${fixed(searches.email.searches)} searches with email alerts (a digest at most every ` +
        `${fixed(searches.email.minutes)} minutes), all due at once as after an outage longer than that, written ` +
        'while the same worker matched the steady changes and sent by it to an SMTP server on the loopback:',
      table(
        [
          'written',
          'written/s',
          'sent/s',
          'unsent at the end',
          'written → sent p50 ms',
          'p99 ms',
          'unsent a minute later',
        ],
        [
          [
            fixed(searches.email.written),
            fixed(searches.email.writtenPerSecond),
            fixed(searches.email.sentPerSecond),
            fixed(searches.email.pendingAtEnd),
            fixed(searches.email.lagMedianMs),
            fixed(searches.email.lagP99Ms),
            fixed(searches.email.unsent),
          ],
        ],
      ),
      'POST /v1/pets with the searches saved and without them, in turns:',
      table(
        ['POST /v1/pets', 'req/s (median)', 'runs req/s', 'all CPU µs/req'],
        [searches.createPet.without, searches.createPet.with].map((variant) => [
          variant.title,
          fixed(variant.perSecond),
          rates(variant.runsPerSecond),
          fixed(allCpu(variant)),
        ]),
      ),
    );
  }
  if (results.accountExport) {
    sections.push(
      '### `GET /v1/account/export`, each on a fresh api, RSS sampled every 50 ms',
      table(
        [
          'pets × exports',
          'read',
          'MB each',
          's',
          'MB/s',
          'api RSS MiB idle',
          'peak',
          'growth',
          'api CPU s',
          'PostgreSQL + Redis CPU s',
        ],
        results.accountExport.map((run) => [
          `${fixed(run.pets)} × ${run.times}`,
          run.readMiBPerSecond ? `at ${run.readMiBPerSecond} MiB/s` : 'as fast as it comes',
          fixed(run.bytes / 1e6, 1),
          fixed(run.seconds, 1),
          fixed((run.bytes * run.times) / 1e6 / run.seconds, 1),
          fixed(run.idleRssMiB),
          fixed(run.peakRssMiB),
          fixed(exportGrowthMiB(run)),
          fixed(run.apiCpuSec, 1),
          fixed(run.storesCpuSec, 1),
        ]),
      ),
    );
  }
  if (results.budget.length > 0) {
    sections.push(
      '### Per-request budget (PostgreSQL statements counted by a wire-protocol proxy, Redis by MONITOR)',
      table(
        ['Request', 'budget', 'SQL/request', 'Redis round trips/request', 'what ran', 'met'],
        results.budget.map((probe) => [
          probe.name,
          probe.budget,
          fixed(probe.sqlPerRequest, 2),
          fixed(probe.redisRoundTripsPerRequest, 2),
          [...Object.entries(probe.redis), ...Object.entries(probe.sql)]
            .map(([what, count]) => `${count}× \`${what.length > 60 ? `${what.slice(0, 57)}...` : what}\``)
            .join('<br>'),
          probe.met ? 'yes' : '**no**',
        ]),
      ),
    );
  }
  sections.push(
    '### Targets',
    table(
      ['Target', 'measured', 'met'],
      results.targets.map((target) => [target.target, target.value, target.met ? 'yes' : '**no**']),
    ),
  );
  for (const { scenario, server, summary } of results.profiles) {
    sections.push(
      `### CPU profile of ${server} during \`${scenario}\` (self time, idle excluded)`,
      table(
        ['Where', '%'],
        summary.places.map((place) => [place.name, fixed(place.percent, 1)]),
      ),
      table(
        ['Function', '%'],
        summary.functions.map((fn) => [`\`${fn.name}\``, fixed(fn.percent, 1)]),
      ),
    );
  }
  return `${sections.join('\n\n')}\n`;
}
