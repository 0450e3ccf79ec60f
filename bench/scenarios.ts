import { encodeCursor } from '@app/http';
import { listSeededPets, resetOrders, withClient } from './support/database';
import type { LoadRequest } from './support/load';
import { CONNECTIONS, type HttpScenario, oncePerContext, type ScenarioContext } from './support/scenario';
import { PATCH_SCENARIO, SEARCH_SCENARIOS, SEARCH_SPREAD_SCENARIO } from './search-scenarios';
import { SHELTER_SCENARIOS } from './shelter-scenarios';
import { APPLICATION_SCENARIOS } from './application-scenarios';
import { bearer, createPet, json, nextLink, sendMessage } from './support/requests';
import { PEER_SCENARIOS } from './peers/peer-scenarios';
import { SPREAD_REQUESTS, spreadFraction, spreadTwin } from './support/spread';

/**
 * How many pets each store scenario orders: more than a run reaches at any rate this machine answers,
 * so no connection comes back to a pet it ordered in the same run.
 */
const STORE_PETS = 30_000;

/** The seeded pets a store scenario orders: listed by the bench account, `available` before each run. */
const storePets = (context: ScenarioContext) =>
  listSeededPets(context.stores, context.accountId, Math.min(STORE_PETS, Math.floor(context.seedPets * 0.3)));
const placeOrder = (key: string, petId: number): LoadRequest => ({
  method: 'POST',
  path: '/v1/store/orders',
  headers: json(key),
  body: JSON.stringify({ petId }),
});

/** The website whose pages the publishable scenario's requests come from. */
const BENCH_SITE = 'https://shelter.example';
const listFirstPage = (key: string): LoadRequest => ({
  method: 'GET',
  path: '/v1/pets?limit=20',
  headers: bearer(key),
});

/**
 * A publishable key of the bench account for BENCH_SITE, made once through the api: what a shelter's widget
 * sends. Its scopes, kind, origins and expiry come with the key's cached lookup.
 */
const publishableKey = oncePerContext(async ({ apiUrl, key }) => {
  const made = await fetch(`${apiUrl}/v1/keys`, {
    method: 'POST',
    headers: json(key),
    body: JSON.stringify({ name: 'bench widget', kind: 'publishable', allowedOrigins: [BENCH_SITE] }),
  });
  if (made.status !== 201) throw new Error(`could not make a publishable key: ${made.status}`);
  return ((await made.json()) as { key: string }).key;
});
const fromWidget = (key: string, path: string): LoadRequest => ({
  method: 'GET',
  path,
  headers: { ...bearer(key), Origin: BENCH_SITE },
});

/** The cursor of the i-th of the spread pages: within the catalogue's first tenth, or past 90 % (`deep`). */
const pageAt = ({ seedPets }: ScenarioContext, i: number, deep: boolean) =>
  encodeCursor(1 + Math.floor(seedPets * spreadFraction(i, deep)));

const LIST_20: HttpScenario = {
  name: 'list-20',
  title: 'GET /v1/pets?limit=20 (first page)',
  server: 'api',
  requests: ({ key }) => [listFirstPage(key)],
};
const LIST_PUBLISHABLE: HttpScenario = {
  name: 'list-20-publishable',
  title: 'GET /v1/pets?limit=20 with a publishable key from an allowed Origin',
  server: 'api',
  // A widget's answer should cost what list-20's does, CORS headers aside.
  requests: async (context) => [fromWidget(await publishableKey(context), '/v1/pets?limit=20')],
};
const DEEP_PAGE: HttpScenario = {
  name: 'deep-page',
  title: 'GET /v1/pets?limit=20, a Link followed from 90% deep',
  server: 'api',
  requests: async ({ apiUrl, key, seedPets }) => {
    // The cursor of a page 90% into the catalogue, from the service's own encoder, then the page its
    // Link leads to: what a client walking the catalogue would request there.
    const deep = `${apiUrl}/v1/pets?limit=20&cursor=${encodeCursor(Math.floor(seedPets * 0.9))}`;
    return [{ method: 'GET', path: await nextLink(deep, key), headers: bearer(key) }];
  },
};
const AVAILABLE_100: HttpScenario = {
  name: 'list-available-100',
  title: 'GET /v1/pets?status=available&limit=100',
  server: 'api',
  requests: ({ key }) => [{ method: 'GET', path: '/v1/pets?status=available&limit=100', headers: bearer(key) }],
};
const STATUSES = ['available', 'pending', 'sold'];

/** Every HTTP scenario, in the order they run, each in turns with the reference app (bench/run.ts). */
export const HTTP_SCENARIOS: HttpScenario[] = [
  LIST_20,
  // The first page comes from every client alike, and requests for one page in a batch share its read:
  // this shows what a page costs when no other request asks for it at the same time (the default
  // 1,000,000 seeded give distinct cursors), none of them the first.
  {
    ...spreadTwin(LIST_20, 'pages across the catalogue', (i, context) => ({
      method: 'GET',
      path: `/v1/pets?limit=20&cursor=${encodeCursor(1 + Math.floor((context.seedPets * i) / SPREAD_REQUESTS))}`,
      headers: bearer(context.key),
    })),
    name: 'pages-spread',
  },
  LIST_PUBLISHABLE,
  spreadTwin(LIST_PUBLISHABLE, 'pages of the catalogue’s first tenth', async (i, context) =>
    fromWidget(await publishableKey(context), `/v1/pets?limit=20&cursor=${pageAt(context, i, false)}`),
  ),
  DEEP_PAGE,
  spreadTwin(DEEP_PAGE, 'pages past 90 %', (i, context) => ({
    method: 'GET',
    path: `/v1/pets?limit=20&cursor=${pageAt(context, i, true)}`,
    headers: bearer(context.key),
  })),
  AVAILABLE_100,
  spreadTwin(AVAILABLE_100, 'each status, pages of the catalogue’s first tenth', (i, context) => ({
    method: 'GET',
    path: `/v1/pets?status=${STATUSES[i % STATUSES.length]}&limit=100&cursor=${pageAt(context, i, false)}`,
    headers: bearer(context.key),
  })),
  {
    name: 'create-pet',
    title: 'POST /v1/pets',
    server: 'api',
    requests: ({ key }) => [createPet(key)],
  },
  {
    name: 'create-pet-no-outbox',
    title: 'POST /v1/pets, on an api whose outbox INSERT is a no-op',
    server: 'api-no-outbox',
    requests: ({ noOutbox }) => [createPet(noOutbox.key)],
    // Without this, a preload that stopped patching would have both scenarios measure the same thing.
    check: ({ stores, noOutbox }) =>
      withClient(stores, async (client) => {
        const { rows } = await client.query<{ pets: string; events: string }>(
          `SELECT (SELECT count(*) FROM pets WHERE lister_account_id = $1) AS pets,
                  (SELECT count(*) FROM events WHERE account_id = $1) AS events`,
          [noOutbox.accountId],
        );
        const [pets, events] = [Number(rows[0]!.pets), Number(rows[0]!.events)];
        if (pets === 0 || events > 0)
          throw new Error(
            `create-pet-no-outbox created ${pets} pets and recorded ${events} events: expected pets, no events`,
          );
      }),
  },
  ...PEER_SCENARIOS,
  PATCH_SCENARIO,
  ...SEARCH_SCENARIOS,
  SEARCH_SPREAD_SCENARIO,
  ...SHELTER_SCENARIOS,
  {
    name: 'place-order',
    title: 'POST /v1/store/orders, each for another pet',
    server: 'api',
    dealt: true,
    counted: 201,
    // Three orders per seeded account, the most an account may have placed.
    requests: async (context) =>
      (await storePets(context)).map((petId, i) => placeOrder(context.seededKeys[Math.floor(i / 3)]!, petId)),
    prepare: ({ stores }) => resetOrders(stores),
  },
  {
    name: 'adopt',
    title: 'place → approve → deliver: POST /v1/store/orders, then …/approve and …/deliver of that order',
    server: 'api',
    dealt: true,
    // Dealt out one per connection in turn, each connection gets its pets' three steps in order, placed by
    // an adopter of its own (who never has more than one order placed).
    requests: async (context) => {
      const pets = await storePets(context);
      const rounds = Math.floor(pets.length / CONNECTIONS);
      const requests: LoadRequest[] = [];
      for (let round = 0; round < rounds; round++) {
        for (const step of ['place', 'approve', 'deliver'])
          for (let connection = 0; connection < CONNECTIONS; connection++) {
            const petId = pets[round * CONNECTIONS + connection]!;
            requests.push(
              step === 'place'
                ? placeOrder(context.seededKeys[connection]!, petId)
                : { method: 'POST', path: `/v1/store/orders/{previousId}/${step}`, headers: bearer(context.key) },
            );
          }
      }
      return requests;
    },
    prepare: ({ stores }) => resetOrders(stores),
  },
  ...APPLICATION_SCENARIOS,
  {
    name: 'inventory',
    title: 'GET /v1/store/inventory',
    server: 'api',
    requests: ({ key }) => [{ method: 'GET', path: '/v1/store/inventory', headers: bearer(key) }],
  },
  {
    name: 'categories',
    title: 'GET /v1/categories',
    server: 'api',
    requests: ({ key }) => [{ method: 'GET', path: '/v1/categories', headers: bearer(key) }],
  },
  {
    name: 'rate-limited',
    title: 'free key hammered: GET and POST /v1/pets, 429 answers/s',
    server: 'api',
    counted: 429,
    requests: ({ freeKey }) => [listFirstPage(freeKey), createPet(freeKey)],
  },
  {
    name: 'limiter-spread',
    title: 'GET /v1/pets?limit=20 round-robin over every seeded account',
    server: 'api',
    dealt: true,
    requests: ({ seededKeys }) => seededKeys.map(listFirstPage),
  },
  {
    name: 'limiter-hot',
    title: 'GET /v1/pets?limit=20 over 1,000 of the seeded accounts',
    server: 'api',
    dealt: true,
    requests: ({ seededKeys }) => seededKeys.slice(0, 1000).map(listFirstPage),
  },
  {
    name: 'send-message',
    title: 'POST /messages (accept: store + enqueue)',
    server: 'messages',
    requests: ({ key }) => [sendMessage(key)],
  },
];
