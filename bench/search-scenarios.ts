import { encodeCursor } from '@app/http';
import { encodePetCursor, PetSort } from '@app/pets';
import type { HttpScenario, ScenarioContext } from './scenarios';
import { listedPetIds, listSeededPets } from './support/database';
import type { LoadRequest } from './support/load';
import { COMMON_WORD, RARE_WORD, seededCreatedAt } from './support/seeded-pets';

const bearer = (key: string) => ({ Authorization: `Bearer ${key}` });
/** Berlin: most seeded cities within 500 km lie around it, and many pets near it. */
const NEAR = 'near=52.52,13.405';
/** The earth's radius earthdistance uses, in metres. */
const EARTH_RADIUS_M = 6378168;
/** The straight-line distance through the earth (the distance sort's key) of an arc of `km`. */
const chord = (km: number) => 2 * EARTH_RADIUS_M * Math.sin((km * 1000) / (2 * EARTH_RADIUS_M));
/** A seeded pet's creation time with microseconds, as a cursor carries it. */
const createdKey = (id: number) => new Date(seededCreatedAt(id)).toISOString().replace('Z', '000Z');

/** The target of the `Link: <…>; rel="next"` header of a page. */
export async function nextLink(url: string, key: string): Promise<string> {
  const response = await fetch(url, { headers: bearer(key) });
  const link = /<([^>]+)>;\s*rel="next"/.exec(response.headers.get('link') ?? '')?.[1];
  if (response.status !== 200 || !link) throw new Error(`no next link from ${url} (${response.status})`);
  return link;
}

/** A search: its query, and where a page 90 % into its matches begins (a cursor of its sort). */
interface Search {
  name: string;
  query: string;
  sort?: PetSort;
  /** The cursor of a page 90 % deep; none for a search with too few matches to page through. */
  deep?: (context: ScenarioContext) => string | Promise<string>;
}

/** 90 % into the catalogue by id: past 90 % of the pets any filter keeps, which are spread over all ids. */
const deepById = ({ seedPets }: ScenarioContext) => encodeCursor(Math.floor(seedPets * 0.9));

const SEARCHES: Search[] = [
  { name: 'status', query: 'status=pending', deep: deepById },
  { name: 'statuses', query: 'status=pending,sold', deep: deepById },
  { name: 'category', query: 'categoryId=3', deep: deepById },
  { name: 'sex', query: 'sex=female', deep: deepById },
  { name: 'age', query: 'ageGroup=senior', deep: deepById },
  { name: 'size', query: 'size=xlarge', deep: deepById },
  { name: 'tag', query: 'tag=calm', deep: deepById },
  { name: 'rare-tag', query: 'tag=deaf', deep: deepById },
  { name: 'q-common', query: `q=${COMMON_WORD}`, deep: deepById },
  { name: 'q-rare', query: `q=${RARE_WORD}`, deep: deepById },
  {
    name: 'listed-by-me',
    query: 'listedBy=me',
    deep: async ({ stores, accountId }) => {
      const ids = await listedPetIds(stores, accountId);
      return encodeCursor(ids[Math.floor(ids.length * 0.9)]!);
    },
  },
  // The last tenth of the catalogue's changes (the query is `updatedSince`, below).
  { name: 'updated-since', query: '', deep: deepById },
  { name: 'near-10km', query: `${NEAR}&radiusKm=10`, deep: deepById },
  { name: 'near-500km', query: `${NEAR}&radiusKm=500`, deep: deepById },
  {
    name: 'newest',
    query: 'sort=-createdAt',
    sort: '-createdAt',
    deep: ({ seedPets }) => {
      const id = Math.floor(seedPets * 0.1);
      return encodePetCursor('-createdAt', { key: createdKey(id), id });
    },
  },
  {
    name: 'updated',
    query: 'sort=updatedAt',
    sort: 'updatedAt',
    deep: ({ seedPets }) => {
      const id = Math.floor(seedPets * 0.9);
      return encodePetCursor('updatedAt', { key: createdKey(id), id });
    },
  },
  {
    name: 'nearest',
    query: `${NEAR}&radiusKm=500&sort=distance`,
    sort: 'distance',
    deep: () => encodePetCursor('distance', { key: String(chord(470)), id: 0 }),
  },
];

/** `updatedSince` of the last tenth of the seeded catalogue's creation times. */
const updatedSince = ({ seedPets }: ScenarioContext) =>
  `updatedSince=${new Date(seededCreatedAt(Math.floor(seedPets * 0.9))).toISOString()}`;

const queryOf = (search: Search, context: ScenarioContext) =>
  search.name === 'updated-since' ? updatedSince(context) : search.query;

/**
 * The search scenarios (CONTRACT 9): the first page and a page 90 % deep of each filter and sort. Each is
 * held to twice the server CPU per answer of the unfiltered first page (bench/targets.ts).
 */
export const SEARCH_SCENARIOS: HttpScenario[] = SEARCHES.flatMap((search) => {
  const first: HttpScenario = {
    name: `search-${search.name}`,
    title: `GET /v1/pets?limit=20&${search.name === 'updated-since' ? 'updatedSince=…' : search.query}`,
    server: 'api',
    requests: (context) => [
      { method: 'GET', path: `/v1/pets?limit=20&${queryOf(search, context)}`, headers: bearer(context.key) },
    ],
  };
  const deep = search.deep;
  if (!deep) return [first];
  return [
    first,
    {
      name: `search-${search.name}-deep`,
      title: `${first.title}, a Link followed from 90% deep`,
      server: 'api',
      requests: async (context) => {
        const cursor = await deep(context);
        const url = `${context.apiUrl}/v1/pets?limit=20&${queryOf(search, context)}&cursor=${cursor}`;
        return [{ method: 'GET', path: await nextLink(url, context.key), headers: bearer(context.key) }];
      },
    },
  ];
});

/** Filters of every kind that a page of SEARCH_SPREAD takes in turn. */
const SPREAD_FILTERS = [
  'categoryId=3',
  'sex=female',
  'tag=calm',
  `q=${COMMON_WORD}`,
  `${NEAR}&radiusKm=50`,
  'size=large',
];

/**
 * Identical searches asked for together share one read, as the first page does, and the targets above
 * are measured so. This shows what a search costs when no other request asks for it at the same time:
 * 1,000 searches, each a filter of SPREAD_FILTERS from its own place in the catalogue. No target.
 */
export const SEARCH_SPREAD_SCENARIO: HttpScenario = {
  name: 'search-spread',
  title: 'GET /v1/pets?limit=20 with one filter, 1,000 searches (none read together)',
  server: 'api',
  dealt: true,
  requests: ({ key, seedPets }) =>
    Array.from({ length: 1000 }, (_, i) => ({
      method: 'GET',
      path: `/v1/pets?limit=20&${SPREAD_FILTERS[i % SPREAD_FILTERS.length]}&cursor=${encodeCursor(1 + Math.floor((seedPets * i) / 1000))}`,
      headers: bearer(key),
    })),
};

/** Pets the bench account lists and changes: others than the store scenarios order. */
const PATCHED_PETS = 5000;

export const PATCH_SCENARIO: HttpScenario = {
  name: 'patch-pet',
  title: 'PATCH /v1/pets/{petId} (a description), each of 5,000 pets in turn',
  server: 'api',
  dealt: true,
  requests: async ({ stores, accountId, key }) =>
    (await listSeededPets(stores, accountId, PATCHED_PETS)).map((petId): LoadRequest => ({
      method: 'PATCH',
      path: `/v1/pets/${petId}`,
      headers: { ...bearer(key), 'Content-Type': 'application/json' },
      body: JSON.stringify({ description: 'Changed by the bench' }),
    })),
};
