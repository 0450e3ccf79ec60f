import { encodeCursor } from '@app/http';
import type { HttpScenario, ScenarioContext } from './support/scenario';
import type { LoadRequest } from './support/load';
import { CITIES, COLORS, SEEDED_ORGANIZATIONS } from './support/seeded-pets';
import { bearer, json } from './support/requests';
import { spreadFraction, spreadPoint, spreadTwin } from './support/spread';

/** A filter of the adoption-grade record, and the value its i-th request takes. */
interface ShelterFilter {
  name: string;
  parameter: string;
  value: (i: number) => string | boolean;
}
const inTurn = (values: readonly string[]) => (i: number) => values[i % values.length]!;
const trueOrFalse = (i: number) => i % 2 === 0;

const FILTERS: ShelterFilter[] = [
  {
    name: 'good-with',
    parameter: 'goodWith',
    value: inTurn(['children', 'dogs', 'cats', 'children,cats', 'dogs,cats', 'children,dogs']),
  },
  { name: 'house-trained', parameter: 'houseTrained', value: trueOrFalse },
  { name: 'spayed-neutered', parameter: 'spayedNeutered', value: trueOrFalse },
  { name: 'special-needs', parameter: 'specialNeeds', value: trueOrFalse },
  { name: 'coat', parameter: 'coat', value: inTurn(['hairless', 'short', 'medium', 'long', 'wire', 'curly']) },
  // Lower-cased: the filter ignores case, as clients will.
  { name: 'color', parameter: 'color', value: (i) => COLORS[i % COLORS.length]!.toLowerCase() },
  {
    name: 'organization',
    parameter: 'organizationId',
    value: (i) => `org_bench${1 + ((i * 7919) % SEEDED_ORGANIZATIONS)}`,
  },
];
const filterAt = ({ parameter, value }: ShelterFilter, i: number) => `${parameter}=${value(i)}`;

/** The i-th request of a filter's spread twin: from the start or 90 % deep, each from a place of its own. */
const spreadSearch = (filter: ShelterFilter, context: ScenarioContext, i: number, deep: boolean): LoadRequest => {
  const from = Math.floor(context.seedPets * spreadFraction(i, deep));
  const cursor = from > 0 ? `&cursor=${encodeCursor(from)}` : '';
  return { method: 'GET', path: `/v1/pets?limit=20&${filterAt(filter, i)}${cursor}`, headers: bearer(context.key) };
};

/**
 * The adoption-grade record's filters: the first page and a page 90 % deep (past 90 % of its matches, which are spread
 * over all ids) of each with one value, and their spread twins, whose values and places differ from
 * request to request, so that concurrent requests share no read. Held to twice the CPU per answer of the
 * unfiltered first page, and the twins to twice that of `pages-spread`: the app's, PostgreSQL's and
 * Redis's together (bench/targets.ts).
 */
export const SHELTER_SEARCH_SCENARIOS: HttpScenario[] = FILTERS.flatMap((filter) =>
  [false, true].flatMap((deep): HttpScenario[] => {
    const shared: HttpScenario = {
      name: `search-${filter.name}${deep ? '-deep' : ''}`,
      title: `GET /v1/pets?limit=20&${filterAt(filter, 0)}${deep ? ', 90% deep' : ''}`,
      server: 'api',
      requests: ({ key, seedPets }) => [
        {
          method: 'GET',
          path: `/v1/pets?limit=20&${filterAt(filter, 0)}${deep ? `&cursor=${encodeCursor(Math.floor(seedPets * 0.9))}` : ''}`,
          headers: bearer(key),
        },
      ],
    };
    const twin = spreadTwin(
      { ...shared, title: `GET /v1/pets?limit=20&${filter.parameter}=…${deep ? ', 90% deep' : ''}` },
      'other values and places',
      (i, context) => spreadSearch(filter, context, i, deep),
    );
    return [shared, twin];
  }),
);

/** Points around which the seeded organisations lie: near the seeded cities. */
const POINTS = CITIES.slice(0, 6);

const listOrganizationsNear = (key: string, point: string, radiusKm: number): LoadRequest => ({
  method: 'GET',
  path: `/v1/organizations?limit=20&near=${point}&radiusKm=${radiusKm}`,
  headers: bearer(key),
});

export const LIST_ORGANIZATIONS_SCENARIO: HttpScenario = {
  name: 'organizations-near',
  title: `GET /v1/organizations?near=…&radiusKm=25 (one point, ${SEEDED_ORGANIZATIONS} organisations)`,
  server: 'api',
  requests: ({ key }) => [listOrganizationsNear(key, POINTS[0]!.join(','), 25)],
};

/** Organisations near 1,000 distinct points around the seeded cities, within 20 to 29 km. */
const LIST_ORGANIZATIONS_SPREAD_SCENARIO = spreadTwin(LIST_ORGANIZATIONS_SCENARIO, 'other points', (i, { key }) =>
  listOrganizationsNear(key, spreadPoint(POINTS, i), 20 + (i % 10)),
);

/** The i-th of 2,000 records as shelter software sends them: the sync's and the creation it is held to. */
const syncedRecord = (i: number) =>
  JSON.stringify({
    name: `Synced ${i}`,
    categoryId: 1 + (i % 7),
    environment: { children: i % 2 === 0, cats: i % 3 === 0 },
    attributes: { houseTrained: true },
    colors: [COLORS[i % COLORS.length]],
  });
const SYNCED_RECORDS = 2000;

/** The sync's records in turn, each sent as `method` to the path `path` gives it. */
const syncedRequests = (key: string, method: LoadRequest['method'], path: (i: number) => string): LoadRequest[] =>
  Array.from({ length: SYNCED_RECORDS }, (_, i) => ({
    method,
    path: path(i),
    headers: json(key),
    body: syncedRecord(i),
  }));

/**
 * The sync: each request creates or replaces the bench account's pet of its own external id, a record as
 * shelter software sends it. Held to 1.5× the CPU per answer of `POST /v1/pets` with the same records
 * (`create-synced-record`), so that both validate and store the same fields.
 */
export const SYNC_PUT_SCENARIO: HttpScenario = {
  name: 'sync-put',
  title: `PUT /v1/pets/external/{externalId}, ${SYNCED_RECORDS.toLocaleString('en')} external ids`,
  server: 'api',
  dealt: true,
  requests: ({ key }) => syncedRequests(key, 'PUT', (i) => `/v1/pets/external/bench-${i}`),
};

/** `POST /v1/pets` of the sync's records, each a new pet: what the sync is held to. */
export const CREATE_SYNCED_RECORD_SCENARIO: HttpScenario = {
  name: 'create-synced-record',
  title: `POST /v1/pets, the sync's ${SYNCED_RECORDS.toLocaleString('en')} records in turn`,
  server: 'api',
  dealt: true,
  requests: ({ key }) => syncedRequests(key, 'POST', () => '/v1/pets'),
};

export const SHELTER_SCENARIOS: HttpScenario[] = [
  ...SHELTER_SEARCH_SCENARIOS,
  LIST_ORGANIZATIONS_SCENARIO,
  LIST_ORGANIZATIONS_SPREAD_SCENARIO,
  SYNC_PUT_SCENARIO,
  CREATE_SYNCED_RECORD_SCENARIO,
];
