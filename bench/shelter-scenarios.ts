import { encodeCursor } from '@app/http';
import type { HttpScenario, ScenarioContext } from './scenarios';
import type { LoadRequest } from './support/load';
import { COLORS, SEEDED_ORGANIZATIONS } from './support/seeded-pets';

const bearer = (key: string) => ({ Authorization: `Bearer ${key}` });
/** Requests of one scenario: each connection takes others (`dealt`), so no two share a page. */
const SPREAD = 200;

/** A filter of CONTRACT 13, and the values its requests take in turn. */
interface ShelterFilter {
  name: string;
  title: string;
  values: (i: number) => string;
}

const FILTERS: ShelterFilter[] = [
  {
    name: 'good-with',
    title: 'goodWith=…',
    values: (i) => `goodWith=${['children', 'dogs', 'cats', 'children,cats', 'dogs,cats', 'children,dogs'][i % 6]}`,
  },
  { name: 'house-trained', title: 'houseTrained=…', values: (i) => `houseTrained=${i % 2 === 0}` },
  { name: 'spayed-neutered', title: 'spayedNeutered=…', values: (i) => `spayedNeutered=${i % 2 === 0}` },
  { name: 'special-needs', title: 'specialNeeds=…', values: (i) => `specialNeeds=${i % 2 === 0}` },
  {
    name: 'coat',
    title: 'coat=…',
    values: (i) => `coat=${['hairless', 'short', 'medium', 'long', 'wire', 'curly'][i % 6]}`,
  },
  // Lower-cased: the filter ignores case, as clients will.
  { name: 'color', title: 'color=…', values: (i) => `color=${COLORS[i % COLORS.length]!.toLowerCase()}` },
  {
    name: 'organization',
    title: 'organizationId=…',
    values: (i) => `organizationId=org_bench${1 + ((i * 7919) % SEEDED_ORGANIZATIONS)}`,
  },
];

/** The i-th request of a filter, from the start or from 90 % into the catalogue by id (past 90 % of its matches). */
const search = (filter: ShelterFilter, context: ScenarioContext, i: number, deep: boolean): LoadRequest => {
  const cursor = deep ? `&cursor=${encodeCursor(Math.floor(context.seedPets * 0.9) + i * 50)}` : '';
  return { method: 'GET', path: `/v1/pets?limit=20&${filter.values(i)}${cursor}`, headers: bearer(context.key) };
};

/**
 * CONTRACT 13's filters: the first page and a page 90 % deep of each, with values that differ from request
 * to request, so that concurrent requests share no read. Held to twice the CPU per answer of the unfiltered
 * first page, the app's, PostgreSQL's and Redis's together (bench/targets.ts).
 */
export const SHELTER_SEARCH_SCENARIOS: HttpScenario[] = FILTERS.flatMap((filter) =>
  [false, true].map((deep): HttpScenario => ({
    name: `search-${filter.name}${deep ? '-deep' : ''}`,
    title: `GET /v1/pets?limit=20&${filter.title}${deep ? ', 90% deep' : ''} (${SPREAD} values)`,
    server: 'api',
    dealt: true,
    requests: (context) => Array.from({ length: SPREAD }, (_, i) => search(filter, context, i, deep)),
  })),
);

/** Points around which the seeded organisations lie: near the seeded cities. */
const POINTS = ['52.52,13.405', '48.137,11.575', '50.11,8.682', '53.551,9.993', '48.856,2.352', '51.507,-0.128'];

export const LIST_ORGANIZATIONS_SCENARIO: HttpScenario = {
  name: 'organizations-near',
  title: `GET /v1/organizations?near=…&radiusKm=25 (${POINTS.length} points, ${SEEDED_ORGANIZATIONS} organisations)`,
  server: 'api',
  dealt: true,
  requests: ({ key }) =>
    Array.from({ length: SPREAD }, (_, i) => ({
      method: 'GET',
      path: `/v1/organizations?limit=20&near=${POINTS[i % POINTS.length]}&radiusKm=${20 + (i % 10)}`,
      headers: bearer(key),
    })),
};

/**
 * The sync: each request creates or replaces the bench account's pet of its own external id, a record as
 * shelter software sends it. Held to 1.5× the CPU per answer of `POST /v1/pets`.
 */
export const SYNC_PUT_SCENARIO: HttpScenario = {
  name: 'sync-put',
  title: 'PUT /v1/pets/external/{externalId}, 2,000 external ids',
  server: 'api',
  dealt: true,
  requests: ({ key }) =>
    Array.from({ length: 2000 }, (_, i) => ({
      method: 'PUT',
      path: `/v1/pets/external/bench-${i}`,
      headers: { ...bearer(key), 'Content-Type': 'application/json' },
      body: JSON.stringify({
        name: `Synced ${i}`,
        categoryId: 1 + (i % 7),
        environment: { children: i % 2 === 0, cats: i % 3 === 0 },
        attributes: { houseTrained: true },
        colors: [COLORS[i % COLORS.length]],
      }),
    })),
};

export const SHELTER_SCENARIOS: HttpScenario[] = [
  ...SHELTER_SEARCH_SCENARIOS,
  LIST_ORGANIZATIONS_SCENARIO,
  SYNC_PUT_SCENARIO,
];
