import { encodeCursor } from '@app/http';
import { encodePetCursor, PetSort } from '@app/pets';
import { type HttpScenario, oncePerContext, type ScenarioContext } from './support/scenario';
import { listedPetIds, listSeededPets } from './support/database';
import type { LoadRequest } from './support/load';
import { bearer, json, nextLink } from './support/requests';
import { BREEDS, CITIES, COMMON_WORD, RARE_WORD, seededCreatedAt, TAGS, TRAITS } from './support/seeded-pets';
import { spreadFraction, spreadPoint, spreadTwin } from './support/spread';

/** Berlin: most seeded cities within 500 km lie around it, and many pets near it. */
const NEAR = 'near=52.52,13.405';
/** The earth's radius earthdistance uses, in metres. */
const EARTH_RADIUS_M = 6378168;
/** The straight-line distance through the earth (the distance sort's key) of an arc of `km`. */
const chord = (km: number) => 2 * EARTH_RADIUS_M * Math.sin((km * 1000) / (2 * EARTH_RADIUS_M));
/** A seeded pet's creation time with microseconds, as a cursor carries it. */
const createdKey = (id: number) => new Date(seededCreatedAt(id)).toISOString().replace('Z', '000Z');
/** A seeded pet's creation time, as `updatedSince` takes it. */
const sinceId = (id: number) => new Date(seededCreatedAt(id)).toISOString();

/** A search: its query, and where a page 90 % into its matches begins (a cursor of its sort). */
interface Search {
  name: string;
  /** The query as the title shows it, and as sent unless `queryFor` makes it from the context. */
  query: string;
  queryFor?: (context: ScenarioContext) => string;
  sort?: PetSort;
  /** The cursor of a page 90 % deep: 90 % into the catalogue by id when absent (`deepById`). */
  deep?: (context: ScenarioContext) => string | Promise<string>;
  /**
   * The filter of the i-th request of the spread twins, which start at `fromId` (by id; for other sorts,
   * the pet at that place of the sort): other values of the same filter. The query's own when absent.
   */
  vary?: (i: number, fromId: number) => string;
  /** The cursor at `fromId` for the spread twins, when the search pages through other ids than the catalogue's. */
  cursorAt?: (context: ScenarioContext, fraction: number) => Promise<string | undefined>;
}

/** 90 % into the catalogue by id: past 90 % of the pets any filter keeps, which are spread over all ids. */
const deepById = ({ seedPets }: ScenarioContext) => encodeCursor(Math.floor(seedPets * 0.9));
/** The i-th of `values`: a filter that takes few values repeats them, its requests told apart by their cursors. */
const oneOf =
  (parameter: string, values: readonly string[]) =>
  (i: number): string =>
    `${parameter}=${values[i % values.length]}`;
/** A search for the first of `values`, its spread twins taking each in turn. */
const byValue = (name: string, parameter: string, values: readonly string[]): Search => ({
  name,
  query: `${parameter}=${values[0]}`,
  vary: oneOf(parameter, values),
});
/** Pets within `radiusKm` of Berlin, the spread twins' of points around the seeded cities. */
const near = (radiusKm: number, sort = ''): Search => ({
  name: `near-${radiusKm}km`,
  query: `${NEAR}&radiusKm=${radiusKm}${sort}`,
  vary: (i) => `near=${spreadPoint(CITIES, i)}&radiusKm=${radiusKm}${sort}`,
});
/** The cursor of a time sort at the seeded pet `id`, whose changes are as old as the pet. */
const atPet = (sort: '-createdAt' | 'updatedAt', id: number) => encodePetCursor(sort, { key: createdKey(id), id });
/** A time sort, its deep page at the pet `fraction` into the catalogue by id (the newest first: 90 % deep). */
const byTime = (name: string, sort: '-createdAt' | 'updatedAt', fraction: number): Search => ({
  name,
  query: `sort=${sort}`,
  sort,
  deep: ({ seedPets }) => atPet(sort, Math.floor(seedPets * fraction)),
});
/** Words that many seeded pets carry in their description or breed. */
const COMMON_WORDS = [...TRAITS, ...BREEDS.filter((breed) => !breed.includes(' '))];

/** The ids the bench account lists, read once for the 2,000 requests of the spread twins. */
const listedByBench = oncePerContext(({ stores, accountId }) => listedPetIds(stores, accountId));

const SEARCHES: Search[] = [
  byValue('status', 'status', ['pending', 'sold', 'available']),
  byValue('statuses', 'status', ['pending,sold', 'available,pending', 'available,sold']),
  { name: 'category', query: 'categoryId=3', vary: (i) => `categoryId=${1 + (i % 7)}` },
  byValue('sex', 'sex', ['female', 'male', 'unknown']),
  byValue('age', 'ageGroup', ['senior', 'baby', 'young', 'adult']),
  byValue('size', 'size', ['xlarge', 'small', 'medium', 'large']),
  { name: 'tag', query: 'tag=calm', vary: oneOf('tag', TAGS.slice(0, 10)) },
  { name: 'rare-tag', query: 'tag=deaf', vary: oneOf('tag', TAGS.slice(15)) },
  byValue('q-common', 'q', COMMON_WORDS),
  // Each seeded pet's name holds its number, a word no other pet's record has: 1,000 distinct rare words,
  // each the number of a pet just past where its request starts.
  { name: 'q-rare', query: `q=${RARE_WORD}`, vary: (i, fromId) => `q=${fromId + 1 + (i % 20)}` },
  {
    name: 'listed-by-me',
    query: 'listedBy=me',
    deep: async ({ stores, accountId }) => {
      const ids = await listedPetIds(stores, accountId);
      return encodeCursor(ids[Math.floor(ids.length * 0.9)]!);
    },
    cursorAt: async (context, fraction) => {
      const ids = await listedByBench(context);
      // An account that lists nothing (yet) has only a first page.
      return ids.length === 0 ? undefined : encodeCursor(ids[Math.floor(ids.length * fraction)]!);
    },
  },
  // The last tenth of the catalogue's changes; spread, instants from each request's own place.
  {
    name: 'updated-since',
    query: 'updatedSince=…',
    queryFor: ({ seedPets }) => `updatedSince=${sinceId(Math.floor(seedPets * 0.9))}`,
    vary: (_, fromId) => `updatedSince=${sinceId(fromId)}`,
  },
  near(10),
  near(500),
  byTime('newest', '-createdAt', 0.1),
  byTime('updated', 'updatedAt', 0.9),
  {
    ...near(500, '&sort=distance'),
    name: 'nearest',
    sort: 'distance',
    deep: () => encodePetCursor('distance', { key: String(chord(470)), id: 0 }),
  },
];

/** The deep page of a wide circle sorted by distance has no target (ADR 0020): the walk's guarantee wins. */
export const UNTARGETED_SEARCHES = ['search-nearest-deep', 'search-nearest-deep-spread'];

const queryOf = (search: Search, context: ScenarioContext) => search.queryFor?.(context) ?? search.query;

/**
 * The place `fraction` into the catalogue in the search's sort: its first pet's id, and the cursor that
 * starts there (none at the very start).
 */
async function placeOf(search: Search, context: ScenarioContext, fraction: number) {
  const { seedPets } = context;
  const id = Math.max(1, Math.floor(seedPets * fraction));
  if (search.cursorAt) return { id, cursor: await search.cursorAt(context, fraction) };
  if (fraction === 0) return { id, cursor: undefined };
  switch (search.sort) {
    case '-createdAt': {
      const newest = seedPets + 1 - id;
      return { id: newest, cursor: atPet('-createdAt', newest) };
    }
    case 'updatedAt':
      return { id, cursor: atPet('updatedAt', id) };
    case 'distance':
      return { id, cursor: encodePetCursor('distance', { key: String(chord(500 * fraction)), id: 0 }) };
    default:
      return { id, cursor: encodeCursor(id) };
  }
}

/**
 * The search scenarios: the first page and a page 90 % deep of each filter and sort, each
 * with its spread twin. Held to twice the CPU per answer (the app's, PostgreSQL's and Redis's) of the
 * unfiltered first page, and the twins to twice that of `pages-spread` (bench/targets.ts).
 */
export const SEARCH_SCENARIOS: HttpScenario[] = SEARCHES.flatMap((search) => {
  const first: HttpScenario = {
    name: `search-${search.name}`,
    title: `GET /v1/pets?limit=20&${search.query}`,
    server: 'api',
    requests: (context) => [
      { method: 'GET', path: `/v1/pets?limit=20&${queryOf(search, context)}`, headers: bearer(context.key) },
    ],
  };
  const twin = (shared: HttpScenario, deep: boolean) =>
    spreadTwin(shared, 'other values and places', async (i, context) => {
      // Past a cursor, a page sorted by distance is a page that far into the circle (ADR 0020): the first
      // page's twin varies the point alone.
      const firstByDistance = search.sort === 'distance' && !deep;
      const { id, cursor } = firstByDistance
        ? { id: 1, cursor: undefined }
        : await placeOf(search, context, spreadFraction(i, deep));
      const filter = search.vary?.(i, id) ?? queryOf(search, context);
      const path = `/v1/pets?limit=20&${filter}${cursor ? `&cursor=${cursor}` : ''}`;
      return { method: 'GET', path, headers: bearer(context.key) };
    });
  const deep = search.deep ?? deepById;
  const deepPage: HttpScenario = {
    name: `search-${search.name}-deep`,
    title: `${first.title}, a Link followed from 90% deep`,
    server: 'api',
    requests: async (context) => {
      const cursor = await deep(context);
      const url = `${context.apiUrl}/v1/pets?limit=20&${queryOf(search, context)}&cursor=${cursor}`;
      return [{ method: 'GET', path: await nextLink(url, context.key), headers: bearer(context.key) }];
    },
  };
  return [first, twin(first, false), deepPage, twin(deepPage, true)];
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
 * The spread twins above each vary one filter; this mixes filters of every kind, 1,000 searches, each a
 * filter of SPREAD_FILTERS from its own place in the catalogue. No target.
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
      headers: json(key),
      body: JSON.stringify({ description: 'Changed by the bench' }),
    })),
};
