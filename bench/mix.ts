// `--scenario mix`: the traffic of an adoption API, each request drawn from a stated distribution
// (MIX below, docs/performance.md says why), from many seeded accounts at once, with the worker
// delivering the messages and webhooks it causes. The offered rate is stepped up; the report is the
// highest step whose p99 stays within 100 ms, each process's CPU per request there, and every
// operation's p50 and p99.
import { encodeCursor } from '@app/http';
import type { ScenarioContext } from './support/scenario';
import { HTTP_SCENARIOS } from './scenarios';
import { UNTARGETED_SEARCHES } from './search-scenarios';
import { resetOrders, seededSecret, withClient } from './support/database';
import { LoadRequest, LoadResult, OperationResult, runLoad } from './support/load';
import { ProcessUsage, ServerProcess, watchProcesses } from './support/processes';
import { bearer, createPet, json, sendMessage } from './support/requests';
import { seededPet } from './support/seeded-pets';
import { startReceiver } from './webhooks';

/** Shares of the mix's requests, in per cent (docs/performance.md). */
export const MIX = {
  search: 55,
  'get-pet': 15,
  'page-walk': 10,
  'create-or-change': 5,
  'order-and-transitions': 3,
  message: 5,
  'events-and-webhooks': 5,
  'keys-and-account': 2,
} as const;
type Operation = keyof typeof MIX;

/** The p99 a step of the offered rate must keep to count. */
export const MIX_P99_MS = 100;
/** Connections to the api and to messages: many accounts' clients at once. */
const API_CONNECTIONS = 50;
const MESSAGES_CONNECTIONS = 10;
/** Requests each api connection cycles through: more than a step sends at this machine's rates. */
const PER_CONNECTION = 600;
/** Seeded accounts that list pets (changes, orders) and, the first of them, have a webhook endpoint. */
const LISTERS = 200;
const WITH_ENDPOINTS = 20;
const PETS_PER_LISTER = 20;
/** The offered rates, as fractions of the unbounded run's rate. */
const STEPS = [0.5, 0.65, 0.8, 0.9, 1];
const PAGE_WALK = 5;

export interface MixStep {
  offeredPerSecond: number;
  perSecond: number;
  p99Ms: { api: number; messages: number };
  met: boolean;
  /** CPU per request of each process (api, messages, worker) and of PostgreSQL and Redis together. */
  cpuMicrosPerRequest: Record<string, number>;
  operations: Record<string, OperationResult & { share: number }>;
}

export interface MixResult {
  steps: MixStep[];
  /** The step answering most whose p99 stayed within MIX_P99_MS on both apps; none when no step did. */
  chosen?: number;
  /** Peak RSS of each process over every step. */
  peakRssMiB: Record<string, number>;
}

/** A small seeded generator (mulberry32): the same mix from run to run. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Lister {
  key: string;
  /** Pets it changes, and pets it takes orders for. */
  changed: number[];
  ordered: number[];
  endpointId?: string;
}

/** Gives the seeded listers the last pets of the catalogue (the store scenarios order the first). */
async function seedListers(context: ScenarioContext): Promise<Lister[]> {
  const rows = await withClient(context.stores, async (client) => {
    const { rows } = await client.query<{ pet: string; lister: string }>(
      `WITH listers AS (SELECT id, row_number() OVER (ORDER BY id) - 1 AS n
                          FROM accounts WHERE email LIKE 'seeded-%' ORDER BY id LIMIT $1),
            free AS (SELECT id, row_number() OVER (ORDER BY id DESC) - 1 AS n
                       FROM pets WHERE lister_account_id IS NULL AND status = 'available' ORDER BY id DESC LIMIT $1 * $2)
       UPDATE pets SET lister_account_id = listers.id
         FROM free JOIN listers ON free.n % $1 = listers.n
        WHERE pets.id = free.id
       RETURNING pets.id AS pet, listers.id AS lister`,
      [LISTERS, PETS_PER_LISTER],
    );
    return rows;
  });
  const byLister = new Map<string, number[]>();
  for (const { pet, lister } of rows) byLister.set(lister, [...(byLister.get(lister) ?? []), Number(pet)]);
  return [...byLister].map(([id, pets]) => ({
    key: seededSecret(Number(id)),
    changed: pets.slice(0, pets.length / 2),
    ordered: pets.slice(pets.length / 2),
  }));
}

/** Searches of every filter and sort, values and places varied: the spread twins' requests. */
async function searches(context: ScenarioContext): Promise<LoadRequest[]> {
  const twins = HTTP_SCENARIOS.filter(
    ({ name, spreadOf }) => spreadOf?.startsWith('search-') && !UNTARGETED_SEARCHES.includes(name),
  );
  const organisations = HTTP_SCENARIOS.filter(({ spreadOf }) => spreadOf === 'organizations-near');
  return (await Promise.all([...twins, ...organisations].map((twin) => twin.requests(context)))).flat();
}

/** The requests of each operation, one draw at a time (a page walk and an order take several). */
function operations(context: ScenarioContext, listers: Lister[], searchPool: LoadRequest[], next: () => number) {
  const pick = <T>(values: readonly T[]) => values[Math.floor(next() * values.length)]!;
  // Adopters are the seeded accounts that list nothing.
  const adopters = context.seededKeys.slice(LISTERS);
  const as = (key: string, request: LoadRequest, operation: Operation): LoadRequest => ({
    ...request,
    headers: { ...request.headers, ...bearer(key) },
    operation,
  });
  let orderCount = 0;
  let changeCount = 0;
  const draw: Record<Exclude<Operation, 'message'>, () => LoadRequest[]> = {
    search: () => [as(pick(context.seededKeys), pick(searchPool), 'search')],
    'get-pet': () => {
      const id = 1 + Math.floor(next() * context.seedPets);
      // Half from a cache that holds the pet's version: a 304 while it has not changed.
      const cached: Record<string, string> =
        next() < 0.5 ? { 'If-None-Match': `"${Date.parse(seededPet(id).updatedAt) * 1000}"` } : {};
      return [as(pick(context.seededKeys), { method: 'GET', path: `/v1/pets/${id}`, headers: cached }, 'get-pet')];
    },
    'page-walk': () => {
      const key = pick(context.seededKeys);
      const from = Math.floor(next() * (context.seedPets - PAGE_WALK * 20));
      // The Links a client follows: each page's cursor is the last id of the page before.
      return Array.from({ length: PAGE_WALK }, (_, page) =>
        as(key, { method: 'GET', path: `/v1/pets?limit=20&cursor=${encodeCursor(from + page * 20)}` }, 'page-walk'),
      );
    },
    'create-or-change': () => {
      const lister = pick(listers);
      if (next() < 0.5) return [as(lister.key, createPet(lister.key), 'create-or-change')];
      const body = JSON.stringify({ description: `Changed by the mix, ${++changeCount}.` });
      const path = `/v1/pets/${pick(lister.changed)}`;
      return [as(lister.key, { method: 'PATCH', path, headers: json(lister.key), body }, 'create-or-change')];
    },
    'order-and-transitions': () => {
      // Each pet once per list: placed by an adopter, approved and delivered by its lister.
      const lister = listers[orderCount % listers.length]!;
      const petId = lister.ordered[Math.floor(orderCount / listers.length) % lister.ordered.length]!;
      const adopter = adopters[orderCount++ % adopters.length]!;
      const place = {
        method: 'POST',
        path: '/v1/store/orders',
        headers: json(adopter),
        body: JSON.stringify({ petId }),
      } as const;
      return [
        as(adopter, place, 'order-and-transitions'),
        ...['approve', 'deliver'].map((step) =>
          as(lister.key, { method: 'POST', path: `/v1/store/orders/{previousId}/${step}` }, 'order-and-transitions'),
        ),
      ];
    },
    'events-and-webhooks': () => {
      const lister = pick(listers.slice(0, WITH_ENDPOINTS));
      const path = pick([
        '/v1/events?limit=20',
        '/v1/webhook-endpoints',
        `/v1/webhook-endpoints/${lister.endpointId}/deliveries?limit=20`,
      ]);
      return [as(lister.key, { method: 'GET', path }, 'events-and-webhooks')];
    },
    'keys-and-account': () => [
      as(pick(context.seededKeys), { method: 'GET', path: pick(['/v1/keys', '/v1/account']) }, 'keys-and-account'),
    ],
  };
  return draw;
}

/**
 * Each connection's requests, drawn so that each operation's share of the requests is MIX's (an operation
 * of several requests is drawn as often as its share over its length), laid out so that dealing them out
 * among the connections (`dealt`) gives each connection its own in order: an order's steps follow each other.
 */
function apiRequests(draw: ReturnType<typeof operations>, next: () => number): LoadRequest[] {
  const lengths = { 'page-walk': PAGE_WALK, 'order-and-transitions': 3 } as Partial<Record<Operation, number>>;
  const weights = (Object.keys(draw) as Array<keyof typeof draw>).map(
    (operation) => [operation, MIX[operation] / (lengths[operation] ?? 1)] as const,
  );
  const total = weights.reduce((sum, [, weight]) => sum + weight, 0);
  const perConnection = Array.from({ length: API_CONNECTIONS }, () => {
    const sequence: LoadRequest[] = [];
    while (sequence.length < PER_CONNECTION) {
      let point = next() * total;
      const [operation] = weights.find(([, weight]) => (point -= weight) < 0) ?? weights[weights.length - 1]!;
      sequence.push(...draw[operation]());
    }
    return sequence.slice(0, PER_CONNECTION);
  });
  // Dealt request i goes to connection i % connections.
  return Array.from(
    { length: PER_CONNECTION * API_CONNECTIONS },
    (_, i) => perConnection[i % API_CONNECTIONS]![Math.floor(i / API_CONNECTIONS)]!,
  );
}

export interface MixOptions {
  context: ScenarioContext;
  runSec: number;
  /** The api, messages and worker processes, started with loopback webhooks allowed. */
  processes: ServerProcess[];
}

/** Per request, over the step: each process's CPU, and PostgreSQL's and Redis's together. */
function cpuPerRequest(usage: ProcessUsage, requests: number): Record<string, number> {
  const perRequest = (seconds: number) => (seconds * 1e6) / requests;
  return {
    ...Object.fromEntries(Object.entries(usage.cpuSec).map(([name, seconds]) => [name, perRequest(seconds)])),
    'PostgreSQL + Redis': perRequest(usage.storesCpuSec),
  };
}

export async function measureMix({ context, runSec, processes }: MixOptions): Promise<MixResult> {
  const receiver = await startReceiver();
  try {
    const listers = await seedListers(context);
    for (const lister of listers.slice(0, WITH_ENDPOINTS)) {
      const made = await fetch(`${context.apiUrl}/v1/webhook-endpoints`, {
        method: 'POST',
        headers: json(lister.key),
        body: JSON.stringify({ url: receiver.url, events: ['*'] }),
      });
      if (made.status !== 201)
        throw new Error(`could not make a webhook endpoint: ${made.status} ${await made.text()}`);
      lister.endpointId = ((await made.json()) as { id: string }).id;
    }
    const next = random(41);
    const draw = operations(context, listers, await searches(context), next);
    const api = apiRequests(draw, next);
    const messages = context.seededKeys
      .slice(0, 1000)
      .map((key): LoadRequest => ({ ...sendMessage(key), operation: 'message' }));
    const apiShare = 1 - MIX.message / 100;

    /** The api's requests for `durationSec`, at `overallRate` (unbounded when undefined). */
    const apiLoad = (durationSec: number, overallRate?: number) =>
      runLoad({
        url: context.apiUrl,
        connections: API_CONNECTIONS,
        durationSec,
        dealt: true,
        requests: api,
        overallRate,
      });
    /** One step: both loads at once, at `rate` over both (unbounded when undefined). */
    const step = async (rate: number | undefined, durationSec: number) => {
      await resetOrders(context.stores);
      const watch = watchProcesses(processes);
      const [apiResult, messagesResult] = await Promise.all([
        apiLoad(durationSec, rate && Math.round(rate * apiShare)),
        runLoad({
          url: context.messagesUrl,
          connections: MESSAGES_CONNECTIONS,
          durationSec,
          dealt: true,
          requests: messages,
          // Unbounded, messages get their share of the whole: the api's rate sets theirs.
          overallRate: Math.round((rate ?? 0) * (1 - apiShare)) || undefined,
        }),
      ]);
      return { apiResult, messagesResult, usage: watch.stop() };
    };

    // Unbounded first, messages held to their share of what the api then answered alone.
    await step(undefined, runSec);
    const unbounded = await apiLoad(runSec);
    const ceiling = unbounded.perSecond / apiShare;
    const steps: MixStep[] = [];
    let chosen: number | undefined;
    const peakRssMiB: Record<string, number> = {};
    for (const fraction of STEPS) {
      const offered = Math.round(ceiling * fraction);
      const { apiResult, messagesResult, usage } = await step(offered, runSec);
      for (const [name, peak] of Object.entries(usage.peakRssMiB))
        peakRssMiB[name] = Math.max(peakRssMiB[name] ?? 0, peak);
      const requests = apiResult.requests + messagesResult.requests;
      const p99Ms = { api: apiResult.latencyMs.p99, messages: messagesResult.latencyMs.p99 };
      const measured: MixStep = {
        offeredPerSecond: offered,
        perSecond: requests / Math.max(apiResult.seconds, messagesResult.seconds),
        p99Ms,
        met: p99Ms.api <= MIX_P99_MS && p99Ms.messages <= MIX_P99_MS,
        cpuMicrosPerRequest: cpuPerRequest(usage, requests),
        operations: operationsOf([apiResult, messagesResult], requests),
      };
      if (measured.met && (chosen === undefined || measured.perSecond > steps[chosen]!.perSecond))
        chosen = steps.length;
      steps.push(measured);
    }
    return { steps, chosen, peakRssMiB };
  } finally {
    receiver.close();
  }
}

/** Each operation's answers over both loads, with its share of all requests. */
function operationsOf(results: LoadResult[], requests: number): Record<string, OperationResult & { share: number }> {
  return Object.fromEntries(
    results.flatMap((result) =>
      Object.entries(result.operations ?? {}).map(([name, one]) => [name, { ...one, share: one.requests / requests }]),
    ),
  );
}
