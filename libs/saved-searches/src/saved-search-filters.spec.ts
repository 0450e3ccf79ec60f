import type { PetDto } from '@app/pets';
import {
  EVERY_PET_TERM,
  filtersOf,
  petTerms,
  SavedSearchFilters,
  searchClauses,
  searchTerms,
} from './saved-search-filters';

/** earthdistance's earth, in metres. */
const EARTH_RADIUS = 6_378_168;

function kilometresBetween(a: { latitude: number; longitude: number }, b: { latitude: number; longitude: number }) {
  const rad = Math.PI / 180;
  const h =
    Math.sin(((b.latitude - a.latitude) * rad) / 2) ** 2 +
    Math.cos(a.latitude * rad) * Math.cos(b.latitude * rad) * Math.sin(((b.longitude - a.longitude) * rad) / 2) ** 2;
  return (2 * EARTH_RADIUS * Math.asin(Math.sqrt(h))) / 1000;
}

/** A deterministic pseudo-random sequence, so that a failure replays. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

/** Four decimals, as `near` is written. */
const round = (degrees: number) => Number(degrees.toFixed(4));

const pet = (fields: Partial<PetDto>): PetDto => ({
  id: 1,
  name: 'Rex',
  categoryId: 1,
  status: 'available',
  sex: 'unknown',
  photos: [],
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  ...fields,
});

/** Whether the pet passes the filters but `q` and `near`, written out field by field as `listPets` decides them. */
function passes(candidate: PetDto, filters: SavedSearchFilters): boolean {
  return (
    (filters.categoryId === undefined || candidate.categoryId === filters.categoryId) &&
    (filters.status === undefined || filters.status.includes(candidate.status)) &&
    (filters.sex === undefined || candidate.sex === filters.sex) &&
    (filters.ageGroup === undefined || candidate.ageGroup === filters.ageGroup) &&
    (filters.size === undefined || candidate.size === filters.size) &&
    (filters.tag === undefined || (candidate.tags ?? []).includes(filters.tag)) &&
    (filters.goodWith === undefined ||
      filters.goodWith.every((companion) => candidate.environment?.[companion] === true))
  );
}

/** Whether the pet passes them by its own terms and the search's clauses, as the matcher's statement decides. */
function passesClauses(candidate: PetDto, filters: SavedSearchFilters): boolean {
  const own = new Set(petTerms(candidate).own);
  const { required, choices } = searchClauses(filters);
  return (
    required.every((term) => own.has(term)) && (choices ?? []).every((choice) => choice.some((term) => own.has(term)))
  );
}

describe('saved search filters', () => {
  it('files a search under pairs of its two rarest filters, which a matching pet carries', () => {
    const filters: SavedSearchFilters = { categoryId: 2, status: ['available', 'pending'], sex: 'female' };
    expect(searchTerms(filters)).toEqual(['categoryId=2&sex=female']);
    const matching = pet({ categoryId: 2, sex: 'female', status: 'pending' });
    expect(passesClauses(matching, filters)).toBe(true);
    expect(petTerms(matching).lookup).toContain('categoryId=2&sex=female');
    expect(petTerms(pet({ categoryId: 3, sex: 'female' })).lookup).not.toContain('categoryId=2&sex=female');
  });

  it('decides a filter of several values by a choice, and one of several companions by a term each', () => {
    expect(searchClauses({ categoryId: 2, status: ['available', 'pending'], sex: 'female' })).toEqual({
      required: ['categoryId=2', 'sex=female'],
      choices: [['status=available', 'status=pending']],
    });
    expect(searchClauses({ goodWith: ['dogs', 'cats'], status: ['sold'] })).toEqual({
      required: ['goodWith=dogs', 'goodWith=cats', 'status=sold'],
      choices: null,
    });
    expect(petTerms(pet({ environment: { dogs: true, cats: false } })).own).toContain('goodWith=dogs');
    expect(petTerms(pet({ environment: { dogs: true, cats: false } })).own).not.toContain('goodWith=cats');
  });

  it('files a search with no pruning filter under the term every pet carries', () => {
    expect(searchTerms({ q: 'beagle' })).toEqual([EVERY_PET_TERM]);
    expect(petTerms(pet({})).lookup).toContain(EVERY_PET_TERM);
    expect(petTerms(pet({})).own).not.toContain(EVERY_PET_TERM);
    // `q` and `near` are PostgreSQL's to decide: no clause.
    expect(searchClauses({ q: 'beagle', near: '52.52,13.405', radiusKm: 10 })).toEqual({ required: [], choices: null });
  });

  it('files a circle under the cells of the finest grid it overlaps few of, a very wide one by its other filters', () => {
    const near = filtersOf(Object.assign(new (class {})(), { near: '52.52,13.405' }) as never);
    expect(near).toEqual({ near: '52.52,13.405', radiusKm: 50 });
    // 100 km across: 4 quarter-degree cells north to south, 7 west to east at 52°.
    expect(searchTerms(near).every((term) => term.startsWith('cell4='))).toBe(true);
    expect(searchTerms(near)).toHaveLength(28);
    expect(searchTerms({ near: '52.52,13.405', radiusKm: 200 }).every((term) => term.startsWith('cell='))).toBe(true);
    expect(searchTerms({ near: '52.52,13.405', radiusKm: 500, categoryId: 1 })).toEqual(['categoryId=1']);
    // A pet carries its cell of each grid.
    const berlin = petTerms(pet({ location: { latitude: 52.52, longitude: 13.405 } }));
    expect(berlin.own).toEqual(expect.arrayContaining(['cell4=210:53', 'cell=52:13']));
    // Past a pole the bounds in degrees have no longitudes: no cells.
    expect(searchTerms({ near: '89.9,0', radiusKm: 50 })).toEqual([EVERY_PET_TERM]);
  });

  it('decides as listPets and never prunes a search that a pet matches (random searches and pets)', () => {
    const next = random(42);
    const pick = <T>(values: readonly T[]): T => values[Math.floor(next() * values.length)]!;
    const maybe = <T>(value: () => T): T | undefined => (next() < 0.5 ? value() : undefined);
    let matched = 0;
    for (let i = 0; i < 20_000; i++) {
      const centre = { latitude: round(40 + next() * 20), longitude: round(-10 + next() * 40) };
      const radiusKm = pick([5, 50, 120, 300]);
      const filters: SavedSearchFilters = Object.fromEntries(
        Object.entries({
          categoryId: maybe(() => pick([1, 2])),
          status: maybe(() => pick([['available'], ['available', 'pending'], ['sold']] as const).slice()),
          sex: maybe(() => pick(['male', 'female', 'unknown'] as const)),
          ageGroup: maybe(() => pick(['baby', 'adult'] as const)),
          size: maybe(() => pick(['small', 'large'] as const)),
          tag: maybe(() => pick(['calm', 'shy'])),
          goodWith: maybe(() => pick([['dogs'], ['dogs', 'cats']] as const).slice()),
          ...(next() < 0.7 && { near: `${centre.latitude},${centre.longitude}`, radiusKm }),
        }).filter(([, value]) => value !== undefined),
      );
      const location = {
        latitude: centre.latitude + (next() - 0.5) * 6,
        longitude: centre.longitude + (next() - 0.5) * 8,
      };
      const candidate = pet({
        categoryId: pick([1, 2]),
        status: pick(['available', 'pending', 'sold'] as const),
        sex: pick(['male', 'female', 'unknown'] as const),
        ageGroup: maybe(() => pick(['baby', 'adult'] as const)),
        size: maybe(() => pick(['small', 'large'] as const)),
        tags: maybe(() => [pick(['calm', 'shy', 'old'])]),
        environment: maybe(() => ({ dogs: next() < 0.5, cats: next() < 0.5 })),
        location,
      });
      expect({ filters, candidate, passes: passesClauses(candidate, filters) }).toEqual({
        filters,
        candidate,
        passes: passes(candidate, filters),
      });
      const inCircle = filters.near === undefined || kilometresBetween(centre, location) <= radiusKm * 0.999;
      if (!passes(candidate, filters) || !inCircle) continue;
      matched++;
      const carried = new Set(petTerms(candidate).lookup);
      expect({ filters, terms: searchTerms(filters).filter((term) => carried.has(term)).length > 0 }).toEqual({
        filters,
        terms: true,
      });
    }
    expect(matched).toBeGreaterThan(100);
  });
});
