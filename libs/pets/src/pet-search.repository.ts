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

/**
 * Each filter is a condition that an absent (null) parameter turns off. Statements are planned for each
 * call's values (`plan_cache_mode`), and the planner folds a null parameter's condition away, so each
 * call is planned as if it had only its own filters, and takes the index that serves them.
 */
const FILTERS = `
      ($1::text[] IS NULL OR status = ANY ($1::text[]))
  AND ($2::bigint IS NULL OR category_id = $2::bigint)
  AND ($3::text IS NULL OR sex = $3::text)
  AND ($4::text IS NULL OR age_group = $4::text)
  AND ($5::text IS NULL OR size = $5::text)
  AND ($6::text IS NULL OR tags @> ARRAY[$6::text])
  AND ($7::text IS NULL OR ${SEARCH_DOCUMENT} @@ plainto_tsquery('pet_search'::regconfig, $7::text))
  AND ($8::bigint IS NULL OR lister_account_id = $8::bigint)
  AND ($9::timestamptz IS NULL OR updated_at >= $9::timestamptz)
  AND ($10::float8 IS NULL OR (earth_box(${ORIGIN}, $12::float8) @> ${PLACE}
                               AND earth_distance(${ORIGIN}, ${PLACE}) <= $12::float8))`;

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
  distance: {
    after: `($13::float8 IS NULL OR (${CHORD}, id) > ($13::float8, $14::bigint))`,
    orderBy: `${CHORD}, id`,
    key: `(${CHORD})::text`,
  },
};

/** The statement of a search in this sort; its parameters are those `PetSearchRepository.search` binds. */
export function searchStatement(sort: PetSort): string {
  const { after, orderBy, key } = ORDERS[sort];
  return `
    SELECT ${PET_COLUMNS}, ${key} AS sort_key,
           CASE WHEN $10::float8 IS NOT NULL THEN round((earth_distance(${ORIGIN}, ${PLACE}) / 1000)::numeric, 1) END
             AS distance_km
      FROM pets
     WHERE ${FILTERS}
       AND ${after}
     ORDER BY ${orderBy}
     LIMIT $15`;
}

const STATEMENTS = Object.fromEntries(
  Object.keys(ORDERS).map((sort) => [sort, searchStatement(sort as PetSort)]),
) as Record<PetSort, string>;

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
  ];
}

/** Finding animals (CONTRACT 9): one statement per sort, keyset-paginated, each filter served by its index. */
@Injectable()
export class PetSearchRepository {
  constructor(private readonly sql: Sql) {}

  async search(search: PetSearch): Promise<SearchPage> {
    const rows = await this.sql.rows<PetRow & { sort_key: string; distance_km: string | null }>(
      STATEMENTS[search.sort],
      searchParameters(search),
    );
    const pageRows = rows.slice(0, search.limit);
    const pets = pageRows.map((row) => {
      const pet = toPet(row);
      if (row.distance_km !== null) pet.distanceKm = Number(row.distance_km);
      return pet;
    });
    const last = pageRows.at(-1);
    return {
      pets,
      next: rows.length > search.limit && last ? { key: last.sort_key, id: Number(last.id) } : undefined,
    };
  }

  async categoryExists(categoryId: number): Promise<boolean> {
    const rows = await this.sql.rows('SELECT 1 FROM categories WHERE id = $1', [categoryId]);
    return rows.length > 0;
  }
}
