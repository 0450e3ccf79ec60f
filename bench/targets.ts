import { exportGrowthMiB } from './account-export';
import { APPLICATION_TARGETS } from './application-scenarios';
import { DIGEST_SENT_WITHIN_MS } from './email';
import { HTTP_SCENARIOS } from './scenarios';
import { SEARCH_SCENARIOS, UNTARGETED_SEARCHES } from './search-scenarios';
import {
  CREATE_SYNCED_RECORD_SCENARIO,
  LIST_ORGANIZATIONS_SCENARIO,
  SHELTER_SEARCH_SCENARIOS,
  SYNC_PUT_SCENARIO,
} from './shelter-scenarios';
import { PEER_SCENARIOS } from './peers/peer-scenarios';
import { allCpu, BenchResults, BenchSettings, TargetResult } from './support/report';

const count = (value: number) => value.toLocaleString('en-US');

/** Each shared scenario's spread twin (bench/support/spread.ts), by the shared one's name. */
const SPREAD_TWINS = new Map(
  HTTP_SCENARIOS.filter(({ spreadOf }) => spreadOf).map(({ name, spreadOf }) => [spreadOf!, name]),
);

/**
 * The targets that compare two scenarios with each other: both are measured in the same turns. Each holds
 * for the spread twins too (the headline) and for the shared scenarios.
 */
const COMPARISONS = [
  {
    first: 'list-20',
    second: 'deep-page',
    what: (settings: BenchSettings) => `First page and a deep page (${count(settings.seedPets)} pets)`,
  },
  {
    first: 'list-20',
    second: 'limiter-hot',
    what: (settings: BenchSettings) => `Limiter with ${count(settings.seedAccounts)} accounts vs one`,
  },
  {
    first: APPLICATION_TARGETS.inboxes[0]!,
    second: APPLICATION_TARGETS.inboxes[1]!,
    what: () => 'A lister’s inbox (`status=submitted`) with 1,000 and with 1,000,000 applications received',
  },
];
/**
 * The targets that hold one scenario to a multiple of another's figure measured in the same turns:
 * at least `atLeast` times its rate, or at most `atMost` times its CPU per answer, the app's, PostgreSQL's
 * and Redis's together. Where both have spread twins, the twins are held to it too: the headline.
 */
interface Relative {
  name: string;
  other: string;
  atLeast?: number;
  atMost?: number;
  what: string;
}
const withinTwiceTheFirstPage = ({ name, title }: { name: string; title: string }): Relative => ({
  name,
  other: 'list-20',
  atMost: 2,
  what: `\`${title.replace(/^GET /, '')}\` CPU/req vs the first page`,
});
const RELATIVE: Relative[] = [
  // Any single filter or sort, first page or 90 % deep, within 2× the unfiltered first page.
  ...SEARCH_SCENARIOS.filter(({ name, spreadOf }) => !spreadOf && !UNTARGETED_SEARCHES.includes(name)).map(
    withinTwiceTheFirstPage,
  ),
  // A shelter's widget costs what a server's listing does.
  {
    name: 'list-20-publishable',
    other: 'list-20',
    atMost: 1.1,
    what: '`GET /v1/pets?limit=20` with a publishable key and `Origin` CPU/req vs with a secret key',
  },
  // Each new filter, first page and 90 % deep, and organisations near a point, within 2× of it.
  ...[...SHELTER_SEARCH_SCENARIOS, LIST_ORGANIZATIONS_SCENARIO]
    .filter(({ spreadOf }) => !spreadOf)
    .map(withinTwiceTheFirstPage),
  {
    name: SYNC_PUT_SCENARIO.name,
    other: CREATE_SYNCED_RECORD_SCENARIO.name,
    atMost: 1.5,
    what: '`PUT /v1/pets/external/{externalId}` CPU/req vs `POST /v1/pets` of the same records',
  },
  { name: 'patch-pet', other: 'create-pet', atMost: 1.5, what: '`PATCH /v1/pets/{petId}` CPU/req vs `POST /v1/pets`' },
  {
    name: APPLICATION_TARGETS.submit,
    other: 'create-pet',
    atMost: 1.5,
    what: '`POST /v1/pets/{petId}/applications` CPU/req vs `POST /v1/pets`',
  },
  // A caller's applications, as applicant or lister, within 2× of a page of pets.
  withinTwiceTheFirstPage(APPLICATION_TARGETS.list),
  {
    name: 'create-pet',
    other: 'create-pet-no-outbox',
    atMost: 1.15,
    what: '`POST /v1/pets` CPU/req vs the same with its outbox INSERT a no-op',
  },
  { name: 'place-order', other: 'create-pet', atLeast: 0.5, what: '`POST /v1/store/orders` req/s vs `POST /v1/pets`' },
  {
    name: 'inventory',
    other: 'categories',
    atMost: 1.2,
    what: '`GET /v1/store/inventory` CPU/req vs `GET /v1/categories`',
  },
];
/** A pair and, where both scenarios have one, their spread twins' pair. */
const withTwins = <T extends { first: string; second: string }>(pair: T): Array<T & { spread: boolean }> => {
  const [first, second] = [SPREAD_TWINS.get(pair.first), SPREAD_TWINS.get(pair.second)];
  return [...(first && second ? [{ ...pair, first, second, spread: true }] : []), { ...pair, spread: false }];
};
const COMPARED = [
  ...COMPARISONS.flatMap(withTwins).flatMap(({ first, second }) => [first, second]),
  ...RELATIVE.flatMap(({ name, other }) => withTwins({ first: name, second: other })).flatMap(({ first, second }) => [
    first,
    second,
  ]),
  // The peer's scenarios beside the reference's (bench/peers/).
  ...PEER_SCENARIOS.flatMap(({ name, peerOf }) => [name, peerOf!]),
];

/**
 * The groups measured in turns with the reference: the compared scenarios together, every other one
 * alone. Each group's ratios are to the reference's runs in its own turns.
 */
export function measuredTogether<T extends { name: string }>(measurable: T[]): T[][] {
  const compared = measurable.filter(({ name }) => COMPARED.includes(name));
  const groups: T[][] = [];
  for (const one of measurable) {
    if (!COMPARED.includes(one.name)) groups.push([one]);
    else if (one === compared[0]) groups.push(compared);
  }
  return groups;
}

/** Each target the results can tell, met or not; a target whose scenarios did not run is left out. */
export function targets(results: BenchResults): TargetResult[] {
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
    const cpu = spread(allCpu(first), allCpu(second));
    // The two scenarios ran a minute apart on a machine others share: the CPU per answer (the app's,
    // PostgreSQL's and Redis's) compares their cost; req/s also moves with whatever else ran meanwhile.
    found.push({
      target: `${what} within 1.2× of each other (all CPU per answer)`,
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
  const twinNote = (spread: boolean) => (spread ? ' (spread: 1,000 distinct requests)' : ' (shared)');
  for (const comparison of COMPARISONS)
    for (const { first, second, what, spread } of withTwins(comparison))
      within(first, second, `${what(results.settings)}${twinNote(spread)}`);
  for (const relative of RELATIVE)
    for (const { first, second, spread } of withTwins({ ...relative, first: relative.name, second: relative.other })) {
      const { atLeast, atMost, what } = relative;
      const [one, reference] = [byName.get(first), byName.get(second)];
      if (!one || !reference) continue;
      const times = atLeast !== undefined ? one.perSecond / reference.perSecond : allCpu(one) / allCpu(reference);
      found.push({
        target: `${what}${spread ? ` (\`${first}\` vs \`${second}\`)` : ''} ${atLeast !== undefined ? `≥ ${atLeast}` : `≤ ${atMost}`}×${twinNote(spread)}`,
        value: `${times.toFixed(3)}×`,
        met: atLeast !== undefined ? times >= atLeast : times <= atMost!,
      });
    }
  const drains = [
    { variants: results.delivery, what: 'Delivery, 1 worker at default concurrency, ≥ 0.5× the bare BullMQ worker' },
    {
      variants: results.webhooks,
      what: 'Webhooks, event → delivered, 1 worker at default concurrency, ≥ 0.5× a bare BullMQ worker POSTing each job',
    },
  ];
  for (const { variants, what } of drains) {
    // The first variant is the bare worker; the second, one worker process.
    const worker = variants[1];
    if (worker) found.push({ target: what, value: `${worker.ratio.toFixed(2)}×`, met: worker.ratio >= 0.5 });
  }
  const searches = results.savedSearches;
  if (searches) {
    const { matchedPerSecond, steady } = searches;
    found.push({
      target: `Saved searches (${count(searches.searches)}): ≥ 500 pet changes a second matched by one worker`,
      value: `${count(matchedPerSecond)}/s`,
      met: matchedPerSecond >= 500,
    });
    // The rates' spread over the runs of both: how far apart two measurements of the same thing came.
    const [without, withSearches] = [searches.createPet.without, searches.createPet.with];
    const rates = [...without.runsPerSecond, ...withSearches.runsPerSecond];
    const spread = Math.max(...rates) / Math.min(...rates);
    const cpu = allCpu(withSearches) / allCpu(without);
    const micros = (scenario: typeof without) => count(Math.round(allCpu(scenario)));
    found.push({
      target: `Saved searches: \`POST /v1/pets\` all CPU/req with them vs without, within the runs' spread`,
      value: `${cpu.toFixed(2)}× (${micros(withSearches)} vs ${micros(without)} µs; runs' spread ${spread.toFixed(2)}×)`,
      met: cpu <= spread,
    });
    // A burst's delay stays bounded only where the matcher keeps up with it; otherwise it grows with the burst.
    found.push({
      target: 'Saved searches: change → alert p99 < 60 s, changes sent at a rate the matcher keeps up with',
      value: `${(steady.alertP99Ms / 1000).toFixed(1)} s, ${count(steady.perSecond)}/s sent, ${count(matchedPerSecond)}/s matched`,
      met: steady.alertP99Ms < 60_000 && matchedPerSecond >= steady.perSecond,
    });
  }
  if (searches) {
    // With every digest due at once, a run writes one for every search that matched; the outbox keeps up when it
    // sends them long before those searches' next digests are due.
    const { lagP99Ms, written, unsent } = searches.email;
    found.push({
      target: `Saved searches' digest emails: written → sent p99 within ${DIGEST_SENT_WITHIN_MS / 60_000} min, none unsent`,
      value: `${(lagP99Ms / 1000).toFixed(1)} s; ${count(written)} written, ${count(unsent)} unsent`,
      met: lagP99Ms <= DIGEST_SENT_WITHIN_MS && unsent === 0,
    });
  }
  const mixApi = results.mix?.peakRssMiB['mix-api'];
  if (mixApi !== undefined) {
    const times = mixApi / results.reference.peakRssMiB;
    found.push({
      target: 'Peak RSS of the api under `mix` ≤ 2× the reference’s under its own load',
      value: `${mixApi.toFixed(0)} MiB against ${results.reference.peakRssMiB.toFixed(0)}: ${times.toFixed(2)}×`,
      met: times <= 2,
    });
  }
  const races = results.approvalRaces;
  if (races)
    found.push({
      target: `Approvals racing, ${races.rounds} rounds of 50 for 50 pets and 20 for one: exactly one order per pet`,
      value: `${count(races.rounds * races.pets)} pets, one order each; ${Object.entries(races.statuses)
        .map(([status, answers]) => `${status}: ${count(answers)}`)
        .join(', ')}`,
      // The check throws when a pet has another number of orders: a report that has it, met it.
      met: true,
    });
  const [smallExport, ...largeExports] = results.accountExport ?? [];
  for (const large of smallExport ? largeExports : []) {
    // Flat memory: one document of ten times the pets, even to a client that keeps the socket full, grows the
    // api's RSS no more than as many bytes exported in ten documents.
    const times = exportGrowthMiB(large) / exportGrowthMiB(smallExport!);
    found.push({
      target: `\`GET /v1/account/export\` of ${count(large.pets)} pets${large.readMiBPerSecond ? `, read at ${large.readMiBPerSecond} MiB/s,` : ''} grows the api's RSS ≤ 1.2× ${smallExport!.times} exports of ${count(smallExport!.pets)}`,
      value: `${exportGrowthMiB(large).toFixed(0)} MiB against ${exportGrowthMiB(smallExport!).toFixed(0)}: ${times.toFixed(2)}×`,
      met: times <= 1.2,
    });
  }
  for (const probe of results.budget)
    found.push({
      target: `${probe.name}: ${probe.budget}`,
      value: `${probe.sqlPerRequest.toFixed(2)} SQL, ${probe.redisRoundTripsPerRequest.toFixed(2)} Redis`,
      met: probe.met,
    });
  return found;
}
