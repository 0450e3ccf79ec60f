import { SharedReads } from '@app/core';
import { GenerateSql, Sql, sql, SqlFragment } from '@app/database';
import { Injectable } from '@nestjs/common';
import type { PetSort, Point } from './dto/list-pets-query.dto';
import type { PetAsStored } from './pet-photo-urls';
import { PET_COLUMNS, PetRow, toPet } from './pet-row';
import type { PetAgeGroup, PetCoat, PetCompanion, PetSex, PetSize, PetStatus } from './pet-status';

/**
 * The words `q` searches, kept by a trigger from name, breed and description (migration
 * 1797300000000-pet-search-document) and indexed by `pets_search_document_idx`: a walk along the primary key
 * checks each pet against its stored words rather than parse its text again (ADR 0060).
 */
const SEARCH_DOCUMENT = sql`search_document`;

/** A pet's place, as `pets_location_idx` holds it. */
const PLACE = sql`ll_to_earth(latitude, longitude)`;

/** Per sort: the order of a page, and the key a cursor carries to resume after its last pet. */
const ORDERS: Record<PetSort, { orderBy: SqlFragment; key: SqlFragment }> = {
  id: { orderBy: sql`id`, key: sql`id::text` },
  '-createdAt': {
    orderBy: sql`created_at DESC, id DESC`,
    key: sql`to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`,
  },
  updatedAt: {
    orderBy: sql`updated_at, id`,
    key: sql`to_char(updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`,
  },
  // Over `nearestFirst`, which gives each pet its `chord`.
  distance: { orderBy: sql`chord, id`, key: sql`chord::text` },
};

/** A condition that an absent (null) value turns off. */
const unlessNull = (value: unknown, type: SqlFragment, condition: SqlFragment) =>
  sql`(${value ?? null}::${type} IS NULL OR ${condition})`;
const TEXT = sql`text`;
const BIGINT = sql`bigint`;
const BOOLEAN = sql`boolean`;

/** `houseTrained=false` keeps pets marked false: a pet of whom nothing is known matches neither value. */
const flag = (value: boolean | undefined, column: string) =>
  unlessNull(value, BOOLEAN, sql`${sql.identifier(column)} = ${value ?? null}::boolean`);

/** `goodWith=cats` keeps pets good with cats (their index holds only those). */
const goodWith = (search: PetSearch, companion: PetCompanion, column: string) =>
  unlessNull(search.goodWith?.includes(companion) || undefined, BOOLEAN, sql.identifier(column));

/**
 * The fragments of a search's statements, each carrying its own values. Each filter is a condition that an
 * absent (null) value turns off. Statements are planned for each call's values (`plan_cache_mode`), and the
 * planner folds a null value's condition away, so each call is planned as if it had only its own filters,
 * and takes the index that serves them; and a statement's text depends only on its sort, on whether it
 * walks and, by id, on whether it has words, never on which other filters a search has.
 */
function fragments(search: PetSearch) {
  const { near } = search;
  const radiusMetres = search.radiusKm * 1000;
  const origin = sql`ll_to_earth(${near?.latitude ?? null}::float8, ${near?.longitude ?? null}::float8)`;
  /** Straight-line distance through the earth: what the GiST index orders by, and as monotone as the arc. */
  const chord = sql`(${PLACE} <-> ${origin})`;
  /** Whether a pet lies within `radiusKm` of `near`. */
  const inCircle = sql`earth_distance(${origin}, ${PLACE}) <= ${radiusMetres}::float8`;
  const [south, north, west, east] = near ? degreeBounds(near, radiusMetres) : [null, null, null, null];
  const values = sql`${unlessNull(search.statuses, sql`text[]`, sql`status = ANY (${search.statuses ?? null}::text[])`)}
  AND ${unlessNull(search.categoryId, BIGINT, sql`category_id = ${search.categoryId ?? null}::bigint`)}
  AND ${unlessNull(search.sex, TEXT, sql`sex = ${search.sex ?? null}::text`)}
  AND ${unlessNull(search.ageGroup, TEXT, sql`age_group = ${search.ageGroup ?? null}::text`)}
  AND ${unlessNull(search.size, TEXT, sql`size = ${search.size ?? null}::text`)}
  AND ${unlessNull(search.tag, TEXT, sql`tags @> ARRAY[${search.tag ?? null}::text]`)}
  AND ${unlessNull(search.q, TEXT, sql`${SEARCH_DOCUMENT} @@ plainto_tsquery('pet_search'::regconfig, ${search.q ?? null}::text)`)}
  AND ${unlessNull(search.listerAccountId, BIGINT, sql`lister_account_id = ${search.listerAccountId ?? null}::bigint`)}
  AND ${goodWith(search, 'children', 'good_with_children')}
  AND ${goodWith(search, 'dogs', 'good_with_dogs')}
  AND ${goodWith(search, 'cats', 'good_with_cats')}
  AND ${flag(search.houseTrained, 'house_trained')}
  AND ${flag(search.spayedNeutered, 'spayed_neutered')}
  AND ${flag(search.specialNeeds, 'special_needs')}
  AND ${unlessNull(search.coat, TEXT, sql`coat = ${search.coat ?? null}::text`)}
  AND ${unlessNull(
    search.color,
    TEXT,
    // The colours as stored lower-cased (migration 1797410000000-stored-lowered-colours), indexed by `pets_colors_idx`.
    sql`colors_lowered @> ARRAY[lower(${search.color ?? null}::text)]`,
  )}
  AND ${unlessNull(search.organizationId, TEXT, sql`organization_id = ${search.organizationId ?? null}::text`)}
  AND ${unlessNull(search.externalId, TEXT, sql`external_id = ${search.externalId ?? null}::text`)}`;
  const updatedSince = unlessNull(
    search.updatedSince,
    sql`timestamptz`,
    sql`updated_at >= ${search.updatedSince ?? null}::timestamptz`,
  );
  const key = search.after?.key ?? null;
  const id = search.after?.id ?? 0;
  /** Per sort: the keyset condition after the previous page's last pet. */
  const after: Record<PetSort, SqlFragment> = {
    // With words, the planner is not shown the cursor (it is an InitPlan's): knowing how few ids follow a deep
    // one, it would intersect a rare word's few pets with the primary key's range of every id after it (ADR 0060).
    id: search.q === undefined ? sql`id > ${id}::bigint` : sql`id > (SELECT ${id}::bigint)`,
    '-createdAt': unlessNull(key, sql`timestamptz`, sql`(created_at, id) < (${key}::timestamptz, ${id}::bigint)`),
    updatedAt: unlessNull(key, sql`timestamptz`, sql`(updated_at, id) > (${key}::timestamptz, ${id}::bigint)`),
    distance: unlessNull(key, sql`float8`, sql`(chord, id) > (${key}::float8, ${id}::bigint)`),
  };
  return {
    values,
    updatedSince,
    /** Every filter but `near`, which only the statements of `near` (and of the distance sort) take. */
    filtersButNear: sql`${values} AND ${updatedSince}`,
    chord,
    /**
     * Within the circle, first within the bounds in degrees around it (`degreeBounds`): two cheap
     * comparisons that spare most pets the exact distance.
     */
    withinRadius: sql`latitude BETWEEN ${south}::float8 AND ${north}::float8
      AND (${west}::float8 IS NULL OR longitude BETWEEN ${west}::float8 AND ${east}::float8)
      AND ${inCircle}`,
    /** The cube around that circle: what `pets_location_idx` can find. */
    inBox: sql`earth_box(${origin}, ${radiusMetres}::float8) @> ${PLACE}`,
    distanceKm: sql`CASE WHEN ${near?.latitude ?? null}::float8 IS NOT NULL
                           THEN round((earth_distance(${origin}, ${PLACE}) / 1000)::numeric, 1) END`,
    after: after[search.sort],
    // One row beyond the page tells whether another page follows.
    rowCount: search.limit + 1,
  };
}

type Fragments = ReturnType<typeof fragments>;

/** A page of `source`'s pets that pass `where`, in the sort's order, with its key and distance. */
function page(sort: PetSort, f: Fragments, source: SqlFragment, where: SqlFragment): SqlFragment {
  const { orderBy, key } = ORDERS[sort];
  return sql`SELECT ${PET_COLUMNS}, ${key} AS sort_key, ${f.distanceKm} AS distance_km
            FROM ${source} WHERE ${where} ORDER BY ${orderBy} LIMIT ${f.rowCount}`;
}

/** How many pets a walk in the sort's order reads, looking for a page, before it gives up (WALKS). */
const WALK_ROWS = 2000;

/**
 * A search whose filters the planner misjudges, in an order other than distance: `near` (the location
 * index has no statistics, and the planner would read every pet in the circle to sort them: 35,000 in
 * 10 km of a city), or `updatedSince` by id or creation (the planner takes changes to be spread over the
 * catalogue, when most are among the newest pets, and walks all the older ones). The walk reads the sort's
 * own index for `WALK_ROWS` pets and keeps those that pass; only when that falls short of a page does the
 * find run, which reaches all the matching pets through the filters' own indexes and sorts them. They are
 * two statements (ADR 0064): planning the find costs PostgreSQL more than running the walk, so a search
 * the walk answers plans only the walk.
 */
function walkStatements(sort: Exclude<PetSort, 'distance'>, near: boolean, f: Fragments): SearchStatements {
  const { orderBy } = ORDERS[sort];
  // Walking by updatedAt, `updatedSince` is where the walk starts.
  const walkedFilters = sort === 'updatedAt' ? f.filtersButNear : f.values;
  const walked = sql`(SELECT * FROM pets WHERE ${walkedFilters} AND ${f.after}
                    ORDER BY ${orderBy} LIMIT ${WALK_ROWS}) AS pets`;
  const passing = near ? sql`${f.updatedSince} AND ${f.withinRadius}` : f.updatedSince;
  const matching = near ? sql`${f.filtersButNear} AND ${f.inBox} AND ${f.withinRadius}` : f.filtersButNear;
  // OFFSET 0 keeps the planner from folding the subquery into the sorted page, so that it finds all
  // matches the cheapest way rather than walk the sort's index again.
  const matched = sql`(SELECT * FROM pets WHERE ${matching} AND ${f.after} OFFSET 0) AS pets`;
  return { first: page(sort, f, walked, passing), whenShort: page(sort, f, matched, sql`true`) };
}

/**
 * Pets within the radius, nearest first, as the location index hands them out (a KNN scan): the page's
 * sort by `(chord, id)` then only orders pets at the same place by id, and stops at the page's end. The
 * box condition is left out: with it the planner would read the whole circle and sort it.
 */
const nearestFirst = (f: Fragments) =>
  sql`(SELECT *, ${f.chord} AS chord FROM pets WHERE ${f.filtersButNear} AND ${f.withinRadius}
        ORDER BY ${f.chord}) AS pets`;

/** Which statement serves a search: by its sort, and whether it walks (with `near`, or not). */
function statementKind({ sort, near, updatedSince }: Pick<PetSearch, 'sort' | 'near' | 'updatedSince'>) {
  if (near) return 'near';
  return updatedSince !== undefined && sort !== 'updatedAt' ? 'since' : 'plain';
}

/** The statements of a search, with their values: one, or a walk and the find it falls back on. */
export interface SearchStatements {
  /** The page, or (for a search that walks) the walk's. */
  readonly first: SqlFragment;
  /** Run when `first` returns no more than a page's pets: the find of every match (`walkStatements`). */
  readonly whenShort?: SqlFragment;
}

export function searchStatements(search: PetSearch): SearchStatements {
  const f = fragments(search);
  const { sort } = search;
  if (sort === 'distance') return { first: page(sort, f, nearestFirst(f), f.after) };
  const kind = statementKind(search);
  if (kind === 'plain') return { first: page(sort, f, sql`pets`, sql`${f.filtersButNear} AND ${f.after}`) };
  return walkStatements(sort, kind === 'near', f);
}

/** Where a page begins: after the pet with this id and sort key (a time, or a distance). */
export interface SearchPosition {
  key?: string;
  id: number;
}

/** A search of the catalogue: every filter optional, one sort, a page. */
export interface PetSearch {
  statuses?: PetStatus[];
  categoryId?: number;
  sex?: PetSex;
  ageGroup?: PetAgeGroup;
  size?: PetSize;
  tag?: string;
  q?: string;
  listerAccountId?: number;
  goodWith?: PetCompanion[];
  houseTrained?: boolean;
  spayedNeutered?: boolean;
  specialNeeds?: boolean;
  coat?: PetCoat;
  color?: string;
  organizationId?: string;
  externalId?: string;
  updatedSince?: string;
  near?: Point;
  radiusKm: number;
  sort: PetSort;
  after?: SearchPosition;
  limit: number;
}

export interface SearchPage {
  pets: PetAsStored[];
  /** Where the next page begins, when one follows. */
  next?: SearchPosition;
}

/** Metres in a degree of latitude, or of longitude at the equator, rounded down: bounds err on the wide side. */
const METRES_PER_DEGREE = 110_000;

/**
 * Latitudes and longitudes that hold the circle of `radiusMetres` around `near`: no longitude bounds when
 * the circle reaches a pole or crosses the antimeridian.
 */
export function degreeBounds(near: Point, radiusMetres: number): [number, number, number | null, number | null] {
  const latitudeSpan = radiusMetres / METRES_PER_DEGREE;
  const south = near.latitude - latitudeSpan;
  const north = near.latitude + latitudeSpan;
  if (south <= -90 || north >= 90) return [south, north, null, null];
  // A degree of longitude is shortest at the circle's latitude farthest from the equator.
  const widest = Math.max(Math.abs(south), Math.abs(north));
  const longitudeSpan = radiusMetres / (METRES_PER_DEGREE * Math.cos((widest * Math.PI) / 180));
  const west = near.longitude - longitudeSpan;
  const east = near.longitude + longitudeSpan;
  return west < -180 || east > 180 ? [south, north, null, null] : [south, north, west, east];
}

/**
 * Finding animals: one statement per sort, keyset-paginated, each filter served by its index.
 * Identical searches asked for close together (a site's front page, a popular query) share one statement,
 * as pages of the unfiltered list do.
 */
@Injectable()
export class PetSearchRepository {
  private readonly reads = new SharedReads<SearchPage>();

  constructor(private readonly sql: Sql) {}

  @GenerateSql(
    { name: 'by id', params: [{ radiusKm: 50, sort: 'id', limit: 20 }] },
    {
      name: 'newest first, since',
      params: [{ radiusKm: 50, sort: '-createdAt', updatedSince: '2026-01-01T00:00:00Z', limit: 20 }],
    },
    { name: 'by id, words', params: [{ radiusKm: 50, sort: 'id', q: 'calm beagle', limit: 20 }] },
    { name: 'by updatedAt', params: [{ radiusKm: 50, sort: 'updatedAt', limit: 20 }] },
    {
      name: 'by id, near',
      params: [{ radiusKm: 50, sort: 'id', near: { latitude: 52.5, longitude: 13.4 }, limit: 20 }],
    },
    {
      name: 'nearest first',
      params: [{ radiusKm: 50, sort: 'distance', near: { latitude: 52.5, longitude: 13.4 }, limit: 20 }],
    },
  )
  search(search: PetSearch): Promise<SearchPage> {
    const statements = searchStatements(search);
    // A walk's next pages are read on the primary: a replica behind the one that served the page before
    // could miss pets that page's cursor passed over. A first page may lag (Operations: read replicas).
    const mayLag = search.after === undefined;
    // The statements' texts follow from the kind and sort; the values of the last, which holds every
    // filter, tell searches of one kind apart.
    const { values } = statements.whenShort ?? statements.first;
    return this.sql.readShared(
      this.reads,
      `${search.sort} ${statementKind(search)} ${JSON.stringify(values)}`,
      mayLag,
      () => this.read(statements, search.limit, mayLag),
    );
  }

  private async read(statements: SearchStatements, limit: number, mayLag: boolean): Promise<SearchPage> {
    type Row = PetRow & { sort_key: string; distance_km: string | null };
    const run = (statement: SqlFragment) =>
      mayLag ? this.sql.rowsMayLag<Row>(statement) : this.sql.rows<Row>(statement);
    let rows = await run(statements.first);
    // Each statement answers whole from its own snapshot: a walk that falls short is set aside, not merged.
    if (statements.whenShort && rows.length <= limit) rows = await run(statements.whenShort);
    const pageRows = rows.slice(0, limit);
    const pets = pageRows.map((row) => {
      const pet = toPet(row);
      if (row.distance_km !== null) pet.distanceKm = Number(row.distance_km);
      return pet;
    });
    const last = pageRows.at(-1);
    return {
      pets,
      next: rows.length > limit && last ? { key: last.sort_key, id: Number(last.id) } : undefined,
    };
  }

  @GenerateSql({ params: [1] })
  async categoryExists(categoryId: number): Promise<boolean> {
    const rows = await this.sql.rows(sql`SELECT 1 FROM categories WHERE id = ${categoryId}`);
    return rows.length > 0;
  }

  /** Whether an organisation has this id: the `organizationId` filter refuses one that names none. */
  @GenerateSql({ params: ['org_1'] })
  async organizationExists(organizationId: string): Promise<boolean> {
    const rows = await this.sql.rows(sql`SELECT 1 FROM organizations WHERE id = ${organizationId}`);
    return rows.length > 0;
  }
}
