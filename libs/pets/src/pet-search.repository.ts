import { SharedReads } from '@app/core';
import { Sql } from '@app/database';
import { Injectable } from '@nestjs/common';
import type { PetSort, Point } from './dto/list-pets-query.dto';
import type { PetDto } from './dto/pet.dto';
import { PET_COLUMNS, PetRow, toPet } from './pet-row';
import type { PetAgeGroup, PetSex, PetSize, PetStatus } from './pet-status';

/**
 * The words `q` searches, as the index `pets_search_idx` holds them (migration 1795500100000-pet-search):
 * the same expression to the letter, or the index would not serve the search.
 */
const SEARCH_DOCUMENT = `to_tsvector('pet_search'::regconfig, name || ' ' || coalesce(breed, '') || ' ' || coalesce(description, ''))`;

/** The point of `near`, as earthdistance places it, and a pet's place, as `pets_location_idx` holds it. */
const ORIGIN = 'll_to_earth($10::float8, $11::float8)';
const PLACE = 'll_to_earth(latitude, longitude)';
/** Straight-line distance through the earth: what the GiST index orders by, and as monotone as the arc. */
const CHORD = `(${PLACE} <-> ${ORIGIN})`;

/** Whether a pet lies within `radiusKm` of `near`. */
const IN_CIRCLE = `earth_distance(${ORIGIN}, ${PLACE}) <= $12::float8`;
/**
 * The same, first within the bounds in degrees around the circle ($16 to $19, `degreeBounds`): two cheap
 * comparisons that spare most pets the exact distance. Only the statements of `near` take these bounds.
 */
const WITHIN_RADIUS = `latitude BETWEEN $16::float8 AND $17::float8
  AND ($18::float8 IS NULL OR longitude BETWEEN $18::float8 AND $19::float8)
  AND ${IN_CIRCLE}`;
/** The cube around that circle: what `pets_location_idx` can find. */
const IN_BOX = `earth_box(${ORIGIN}, $12::float8) @> ${PLACE}`;

/**
 * Each filter is a condition that an absent (null) parameter turns off. Statements are planned for each
 * call's values (`plan_cache_mode`), and the planner folds a null parameter's condition away, so each
 * call is planned as if it had only its own filters, and takes the index that serves them.
 */
const VALUE_FILTERS = `
      ($1::text[] IS NULL OR status = ANY ($1::text[]))
  AND ($2::bigint IS NULL OR category_id = $2::bigint)
  AND ($3::text IS NULL OR sex = $3::text)
  AND ($4::text IS NULL OR age_group = $4::text)
  AND ($5::text IS NULL OR size = $5::text)
  AND ($6::text IS NULL OR tags @> ARRAY[$6::text])
  AND ($7::text IS NULL OR ${SEARCH_DOCUMENT} @@ plainto_tsquery('pet_search'::regconfig, $7::text))
  AND ($8::bigint IS NULL OR lister_account_id = $8::bigint)`;
const UPDATED_SINCE = `($9::timestamptz IS NULL OR updated_at >= $9::timestamptz)`;
const FILTERS_BUT_NEAR = `${VALUE_FILTERS} AND ${UPDATED_SINCE}`;
/** Every filter, `near` too, for the statements of searches without it: its condition folds away. */
const FILTERS = `${FILTERS_BUT_NEAR} AND ($10::float8 IS NULL OR (${IN_BOX} AND ${IN_CIRCLE}))`;

/** Per sort: the keyset condition after the previous page's last pet ($13 its key, $14 its id), and the order. */
const ORDERS: Record<PetSort, { after: string; orderBy: string; key: string }> = {
  // The id is its own key: $13 and $14 are the same.
  id: { after: 'id > coalesce($13::bigint, $14::bigint)', orderBy: 'id', key: 'id::text' },
  '-createdAt': {
    after: '($13::timestamptz IS NULL OR (created_at, id) < ($13::timestamptz, $14::bigint))',
    orderBy: 'created_at DESC, id DESC',
    key: `to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`,
  },
  updatedAt: {
    after: '($13::timestamptz IS NULL OR (updated_at, id) > ($13::timestamptz, $14::bigint))',
    orderBy: 'updated_at, id',
    key: `to_char(updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`,
  },
  // Over NEAREST_FIRST, which gives each pet its `chord`.
  distance: {
    after: `($13::float8 IS NULL OR (chord, id) > ($13::float8, $14::bigint))`,
    orderBy: 'chord, id',
    key: 'chord::text',
  },
};

/**
 * Pets within the radius, nearest first, as the location index hands them out (a KNN scan): the page's
 * sort by `(chord, id)` then only orders pets at the same place by id, and stops at the page's end. The
 * box condition is left out: with it the planner would read the whole circle and sort it.
 */
const NEAREST_FIRST = `(SELECT *, ${CHORD} AS chord FROM pets WHERE ${FILTERS_BUT_NEAR} AND ${WITHIN_RADIUS}
                         ORDER BY ${CHORD}) AS pets`;

const DISTANCE_KM = `CASE WHEN $10::float8 IS NOT NULL
                            THEN round((earth_distance(${ORIGIN}, ${PLACE}) / 1000)::numeric, 1) END`;

/** A page of `source`'s pets that pass `where`, in the sort's order, with its key and distance. */
function page(sort: PetSort, source: string, where: string): string {
  const { orderBy, key } = ORDERS[sort];
  return `SELECT ${PET_COLUMNS}, ${key} AS sort_key, ${DISTANCE_KM} AS distance_km
            FROM ${source} WHERE ${where} ORDER BY ${orderBy} LIMIT $15`;
}

/** How many pets a walk in the sort's order reads, looking for a page, before it gives up (WALKS). */
const WALK_ROWS = 2000;

/**
 * A search whose filters the planner misjudges, in an order other than distance: `near` (the location
 * index has no statistics, and the planner would read every pet in the circle to sort them: 35,000 in
 * 10 km of a city), or `updatedSince` by id or creation (the planner takes changes to be spread over the
 * catalogue, when most are among the newest pets, and walks all the older ones). The statement first
 * walks the sort's own index for `WALK_ROWS` pets and keeps those that pass; only when that falls short
 * of a page are all the matching pets found, through the filters' own indexes, and sorted.
 */
function walkStatement(sort: Exclude<PetSort, 'distance'>, near: boolean): string {
  const { after, orderBy } = ORDERS[sort];
  // Walking by updatedAt, `updatedSince` is where the walk starts.
  const walkedFilters = sort === 'updatedAt' ? FILTERS_BUT_NEAR : VALUE_FILTERS;
  const walked = `(SELECT * FROM pets WHERE ${walkedFilters} AND ${after}
                    ORDER BY ${orderBy} LIMIT ${WALK_ROWS}) AS pets`;
  const passing = near ? `${UPDATED_SINCE} AND ${WITHIN_RADIUS}` : UPDATED_SINCE;
  const matching = near ? `${FILTERS_BUT_NEAR} AND ${IN_BOX} AND ${WITHIN_RADIUS}` : FILTERS;
  // OFFSET 0 keeps the planner from folding the subquery into the sorted page, so that it finds all
  // matches the cheapest way rather than walk the sort's index again.
  const matched = `(SELECT * FROM pets WHERE ${matching} AND ${after} OFFSET 0) AS pets`;
  return `
    WITH walk AS MATERIALIZED (${page(sort, walked, passing)})
    SELECT * FROM walk WHERE (SELECT count(*) FROM walk) = $15
    UNION ALL
    SELECT * FROM (${page(sort, matched, 'true')}) AS matched
     WHERE (SELECT count(*) FROM walk) < $15`;
}

/** The statements by sort and by whether the search walks (and with `near`, or not). */
const STATEMENTS = new Map<string, string>([
  ...(['id', '-createdAt', 'updatedAt'] as const).flatMap((sort) => [
    [`${sort} plain`, page(sort, 'pets', `${FILTERS} AND ${ORDERS[sort].after}`)] as const,
    [`${sort} near`, walkStatement(sort, true)] as const,
    [`${sort} since`, walkStatement(sort, false)] as const,
  ]),
  ['distance near', page('distance', NEAREST_FIRST, ORDERS.distance.after)],
]);

/** Which of STATEMENTS serves a search. */
function statementKey({ sort, near, updatedSince }: Pick<PetSearch, 'sort' | 'near' | 'updatedSince'>): string {
  if (near) return `${sort} near`;
  return updatedSince !== undefined && sort !== 'updatedAt' ? `${sort} since` : `${sort} plain`;
}

/** The statement of a search; its parameters are those `searchParameters` gives. */
export function searchStatement(search: Pick<PetSearch, 'sort' | 'near' | 'updatedSince'>): string {
  return STATEMENTS.get(statementKey(search))!;
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
  updatedSince?: string;
  near?: Point;
  radiusKm: number;
  sort: PetSort;
  after?: SearchPosition;
  limit: number;
}

export interface SearchPage {
  pets: PetDto[];
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

/** The parameters of a search's statement, in the order it numbers them. */
export function searchParameters(search: PetSearch): unknown[] {
  return [
    search.statuses ?? null,
    search.categoryId ?? null,
    search.sex ?? null,
    search.ageGroup ?? null,
    search.size ?? null,
    search.tag ?? null,
    search.q ?? null,
    search.listerAccountId ?? null,
    search.updatedSince ?? null,
    search.near?.latitude ?? null,
    search.near?.longitude ?? null,
    search.radiusKm * 1000,
    search.after?.key ?? null,
    search.after?.id ?? 0,
    // One row beyond the page tells whether another page follows.
    search.limit + 1,
    // Only the statements of `near` number these.
    ...(search.near ? degreeBounds(search.near, search.radiusKm * 1000) : []),
  ];
}

/**
 * Finding animals (CONTRACT 9): one statement per sort, keyset-paginated, each filter served by its index.
 * Identical searches asked for close together (a site's front page, a popular query) share one statement,
 * as pages of the unfiltered list do.
 */
@Injectable()
export class PetSearchRepository {
  private readonly reads = new SharedReads<SearchPage>();

  constructor(private readonly sql: Sql) {}

  search(search: PetSearch): Promise<SearchPage> {
    const parameters = searchParameters(search);
    const statement = statementKey(search);
    // A transaction's reads see its own snapshot: never shared.
    if (this.sql.inTransaction) return this.read(statement, search.limit, parameters);
    return this.reads.read(`${statement} ${JSON.stringify(parameters)}`, () =>
      this.read(statement, search.limit, parameters),
    );
  }

  private async read(statement: string, limit: number, parameters: unknown[]): Promise<SearchPage> {
    const rows = await this.sql.rows<PetRow & { sort_key: string; distance_km: string | null }>(
      STATEMENTS.get(statement)!,
      parameters,
    );
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

  async categoryExists(categoryId: number): Promise<boolean> {
    const rows = await this.sql.rows('SELECT 1 FROM categories WHERE id = $1', [categoryId]);
    return rows.length > 0;
  }
}
