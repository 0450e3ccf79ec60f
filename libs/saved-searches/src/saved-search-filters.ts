import { degreeBounds, DEFAULT_RADIUS_KM, ListPetsQueryDto, parsePoint, PetDto } from '@app/pets';

/** The `GET /v1/pets` parameters a saved search takes: every filter, no paging, sort or walk. */
type FilterParameter =
  | 'categoryId'
  | 'tag'
  | 'near'
  | 'radiusKm'
  | 'ageGroup'
  | 'size'
  | 'sex'
  | 'status'
  | 'q'
  | 'organizationId'
  | 'coat'
  | 'color'
  | 'goodWith'
  | 'houseTrained'
  | 'spayedNeutered'
  | 'specialNeeds';

/** A saved search's filters, as ListPetsQueryDto validated them: what is stored and matched. */
export type SavedSearchFilters = Partial<Pick<ListPetsQueryDto, FilterParameter>>;

/** The parameters of `GET /v1/pets` a saved search refuses: they page, order or walk, and alert about nothing. */
export const REFUSED_PARAMETERS = ['cursor', 'limit', 'sort', 'listedBy', 'updatedSince', 'externalId'] as const;

/**
 * How one parameter prunes and decides. A pet matching a search matches each of its filters, so it carries
 * at least one of each pruning filter's `terms`: the matcher looks searches up by the pet's terms
 * (`petTerms`) and evaluates only those it finds.
 */
interface FilterPredicate<P extends FilterParameter> {
  /** The terms one of which every pet passing this filter carries; undefined: too many to prune by. */
  terms?(value: NonNullable<SavedSearchFilters[P]>, filters: SavedSearchFilters): string[] | undefined;
  /** The pet's terms for this filter: a search's term it lacks rules the search out. */
  petTerms?(pet: PetDto): string[];
  /**
   * How the filter decides: `terms`, the pet passes when it carries one of them; `clauses`, when it carries
   * one term of each clause; `database`, PostgreSQL decides with the very expressions `listPets` runs (the
   * text configuration, the earth's distance). SavedSearchMatchingRepository.recordAlerts applies
   * all three.
   */
  decides: 'terms' | { clauses(value: NonNullable<SavedSearchFilters[P]>): string[][] } | 'database';
}

const term = (parameter: string, value: unknown) => `${parameter}=${String(value)}`;

/** A filter on one field equal to one value: its term is the value, the pet's is its own. */
function equality<P extends FilterParameter>(field: keyof PetDto & P): FilterPredicate<P> {
  return {
    terms: (value) => [term(field, value)],
    petTerms: (pet) => (pet[field] === undefined ? [] : [term(field, pet[field])]),
    decides: 'terms',
  };
}

/** A filter on one of `attributes`' flags: an unknown flag (absent) matches neither `true` nor `false`. */
function attribute<P extends 'houseTrained' | 'spayedNeutered' | 'specialNeeds'>(flag: P): FilterPredicate<P> {
  return {
    terms: (value) => [term(flag, value)],
    petTerms: (pet) => {
      const value = pet.attributes?.[flag];
      return value === undefined || value === null ? [] : [term(flag, value)];
    },
    decides: 'terms',
  };
}

/**
 * The grids `near` prunes by, finest first: cells of a quarter of a degree (about 28 km north to south), and
 * of a degree. A pet carries its cell of each; a circle is filed under the cells of the finest grid it
 * overlaps few enough of, so that a search within 10 km is not evaluated against every pet of a degree's
 * cell (most candidates of the one-degree grid were outside the circle). `cell` is the one-degree grid's
 * name since searches were first filed under it: those saved before the finer grid still match.
 */
const GRIDS = [
  { name: 'cell4', perDegree: 4 },
  { name: 'cell', perDegree: 1 },
] as const;
/** A circle spread over more cells than this of every grid (hundreds of kilometres wide) prunes by its other filters. */
const MAX_CELLS = 64;

type Grid = (typeof GRIDS)[number];

/** The cell of `grid` in row `row` and column `column`, counted in cells from the equator and the meridian. */
const cell = (grid: Grid, row: number, column: number) => term(grid.name, `${row}:${column}`);

const cellOf = (grid: Grid, latitude: number, longitude: number) =>
  cell(grid, Math.floor(latitude * grid.perDegree), Math.floor(longitude * grid.perDegree));

/**
 * The cells of the finest grid of which the circle's bounding box in degrees (degreeBounds errs wide)
 * overlaps at most MAX_CELLS; none past a pole or the antimeridian, or when every grid's are too many.
 */
function cellsAround(near: string, radiusKm: number): string[] | undefined {
  const [south, north, west, east] = degreeBounds(parsePoint(near), radiusKm * 1000);
  if (west === null || east === null) return undefined;
  for (const grid of GRIDS) {
    const [firstRow, lastRow] = [Math.floor(south * grid.perDegree), Math.floor(north * grid.perDegree)];
    const [firstColumn, lastColumn] = [Math.floor(west * grid.perDegree), Math.floor(east * grid.perDegree)];
    if ((lastRow - firstRow + 1) * (lastColumn - firstColumn + 1) > MAX_CELLS) continue;
    const cells: string[] = [];
    for (let row = firstRow; row <= lastRow; row++) {
      for (let column = firstColumn; column <= lastColumn; column++) cells.push(cell(grid, row, column));
    }
    return cells;
  }
  return undefined;
}

/**
 * One entry per parameter a saved search takes: how it prunes the searches a pet change is evaluated
 * against, and how it decides. Entries are in the order a search picks its pruning filters: the rarest
 * values first (a tag, a place, a category before a status most pets share). A new filter of `listPets` is
 * an entry here (and its parameter in FilterParameter).
 */
const FILTER_PREDICATES: { [P in FilterParameter]: FilterPredicate<P> } = {
  tag: {
    terms: (tag) => [term('tag', tag)],
    petTerms: (pet) => (pet.tags ?? []).map((tag) => term('tag', tag)),
    decides: 'terms',
  },
  near: {
    terms: (near, filters) => cellsAround(near, filters.radiusKm ?? DEFAULT_RADIUS_KM),
    petTerms: ({ location }) =>
      location ? GRIDS.map((grid) => cellOf(grid, location.latitude, location.longitude)) : [],
    decides: 'database',
  },
  organizationId: equality('organizationId'),
  color: {
    terms: (color) => [term('color', color.toLowerCase())],
    petTerms: (pet) => (pet.colors ?? []).map((color) => term('color', color.toLowerCase())),
    decides: 'terms',
  },
  coat: equality('coat'),
  categoryId: equality('categoryId'),
  ageGroup: equality('ageGroup'),
  size: equality('size'),
  sex: equality('sex'),
  goodWith: {
    terms: (companions) => [term('goodWith', companions[0])],
    petTerms: (pet) =>
      Object.entries(pet.environment ?? {}).flatMap(([companion, good]) =>
        good === true ? [term('goodWith', companion)] : [],
      ),
    // Good with every companion named: a clause each.
    decides: { clauses: (companions) => companions.map((companion) => [term('goodWith', companion)]) },
  },
  houseTrained: attribute('houseTrained'),
  spayedNeutered: attribute('spayedNeutered'),
  specialNeeds: attribute('specialNeeds'),
  status: {
    terms: (statuses) => statuses.map((status) => term('status', status)),
    petTerms: (pet) => [term('status', pet.status)],
    decides: 'terms',
  },
  // Decided with `near`.
  radiusKm: { decides: 'database' },
  q: { decides: 'database' },
};

const PARAMETERS = Object.keys(FILTER_PREDICATES) as FilterParameter[];

/** A search's filters that prune, in FILTER_PREDICATES' order, each with its terms. */
function pruningFilters(filters: SavedSearchFilters): Array<{ parameter: FilterParameter; terms: string[] }> {
  return PARAMETERS.flatMap((parameter) => {
    const value = filters[parameter];
    const predicate = FILTER_PREDICATES[parameter] as FilterPredicate<FilterParameter>;
    const terms = value === undefined ? undefined : predicate.terms?.(value as never, filters);
    return terms ? [{ parameter, terms }] : [];
  });
}

/** What a search with no pruning filter (only `q`, or none) is filed under: every pet carries it. */
export const EVERY_PET_TERM = '*';
/** Pairs of terms a search is filed under at most; past this, its first filter's terms alone (at most MAX_CELLS). */
const MAX_TERMS = 64;
const pair = (first: string, second: string) => `${first}&${second}`;

/**
 * The terms a search is filed under: the pet must carry one of them to be evaluated against it. Two filters
 * together prune far more than either (dogs within 50 km of Berlin, not every dog or every animal near
 * Berlin), so a search is filed under the pairs of its two first pruning filters' terms, or its first
 * filter's terms when it has one, or EVERY_PET_TERM when it has none.
 */
export function searchTerms(filters: SavedSearchFilters): string[] {
  const [first, second] = pruningFilters(filters);
  if (!first) return [EVERY_PET_TERM];
  if (!second || first.terms.length * second.terms.length > MAX_TERMS) return first.terms;
  return first.terms.flatMap((a) => second.terms.map((b) => pair(a, b)));
}

/** A pet's terms: `own`, each filter's terms of the pet, and `lookup`, what searches are looked up by. */
export interface PetTerms {
  own: string[];
  /** EVERY_PET_TERM, `own`, and each pair of them in FILTER_PREDICATES' order: whatever search the pet matches is filed under one of them. */
  lookup: string[];
}

export function petTerms(pet: PetDto): PetTerms {
  const filters = PARAMETERS.flatMap((parameter) => {
    const terms = FILTER_PREDICATES[parameter].petTerms?.(pet);
    return terms && terms.length > 0 ? [{ parameter, terms }] : [];
  });
  const own = filters.flatMap(({ terms }) => terms);
  const lookup = [EVERY_PET_TERM, ...own];
  filters.forEach((first, index) => {
    for (const second of filters.slice(index + 1)) {
      for (const a of first.terms) {
        for (const b of second.terms) lookup.push(pair(a, b));
      }
    }
  });
  return { own, lookup };
}

/**
 * What a pet must carry among its own terms to pass the search's filters but `q` and `near`: every term of
 * `required` (the clauses of one term) and one term of each of `choices` (the others; null when none).
 */
export interface SearchClauses {
  required: string[];
  choices: string[][] | null;
}

export function searchClauses(filters: SavedSearchFilters): SearchClauses {
  const clauses = PARAMETERS.flatMap((parameter) => {
    const value = filters[parameter];
    const predicate = FILTER_PREDICATES[parameter] as FilterPredicate<FilterParameter>;
    if (value === undefined || predicate.decides === 'database') return [];
    return predicate.decides === 'terms'
      ? [predicate.terms!(value as never, filters)!]
      : predicate.decides.clauses(value as never);
  });
  const choices = clauses.filter((clause) => clause.length > 1);
  return {
    required: clauses.filter((clause) => clause.length === 1).map(([only]) => only!),
    choices: choices.length > 0 ? choices : null,
  };
}

/** The filters of a validated query, without the defaults of paging and sort. */
export function filtersOf(query: ListPetsQueryDto): SavedSearchFilters {
  const filters: SavedSearchFilters = Object.fromEntries(
    PARAMETERS.filter((parameter) => query[parameter] !== undefined).map((parameter) => [parameter, query[parameter]]),
  );
  // The radius `listPets` applies when none is given, stored so that the cells and the distance agree.
  if (filters.near !== undefined) filters.radiusKm ??= DEFAULT_RADIUS_KM;
  return filters;
}
