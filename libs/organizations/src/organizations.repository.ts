import { SharedReads } from '@app/core';
import { GenerateSql, Sql, sql, SqlFragment } from '@app/database';
import { Injectable } from '@nestjs/common';
import type { OrganizationSort } from './dto/list-organizations-query.dto';
import type { OrganizationDto, OrganizationProfileDto } from './dto/organization.dto';

/**
 * The words `q` searches, as `organizations_search_idx` holds them (migration 1796500000000-organizations):
 * the same expression to the letter, or the index would not serve the search.
 */
const SEARCH_DOCUMENT = sql`to_tsvector('pet_search'::regconfig, name || ' ' || coalesce(address ->> 'city', '') || ' ' || coalesce(description, ''))`;

/** The profile's version, its ETag: `updated_at` in microseconds, which every change moves forward. */
const VERSION = sql`(extract(epoch FROM updated_at) * 1000000)::bigint`;

/** A change's time: never before the last one, so that each version is new even if the clock stepped back. */
const CHANGED_AT = sql`greatest(clock_timestamp(), updated_at + interval '1 microsecond')`;

/**
 * `ll_to_earth(latitude, longitude)` written out as the trigger that stores each organisation's `place` writes
 * it (migration 1797420000000-organization-stored-place): the same doubles, without earthdistance's SQL
 * functions, which the planner would inline anew at each place the point is used (ADR 0059).
 */
const earthPoint = (latitude: SqlFragment, longitude: SqlFragment) =>
  sql`cube(cube(cube(6378168::float8 * cos(radians(${latitude})) * cos(radians(${longitude}))),
  6378168::float8 * cos(radians(${latitude})) * sin(radians(${longitude}))), 6378168::float8 * sin(radians(${latitude})))`;

/** Where an organisation is: stored, and indexed by `organizations_stored_place_idx` (ADR 0063). */
const PLACE = sql`place`;

/** `sec_to_gc(chord)`, the great-circle distance of a chord, written out: asin(1) is the half circle it caps at. */
const arc = (chord: SqlFragment) => sql`2 * 6378168::float8 * asin(least(${chord} / (2 * 6378168::float8), 1))`;

/**
 * `gc_to_sec(distance)`, the chord of a great-circle distance, written out: its other cases are distances
 * below zero and beyond half the earth, which `radiusKm` (at most 500) never is.
 */
const chordOf = (distance: SqlFragment) => sql`2 * 6378168::float8 * sin(${distance} / (2 * 6378168::float8))`;

/** The profile's columns, in the order `profileValues` gives them. */
const PROFILE_COLUMNS = sql`name, description, email, phone, website, adoption_policy, adoption_url, address, latitude,
  longitude, hours, social_media`;

function profileValues(profile: OrganizationProfileDto): SqlFragment {
  const json = (value: object | undefined) => (value === undefined ? null : JSON.stringify(value));
  return sql`${profile.name}, ${profile.description ?? null}, ${profile.email ?? null}, ${profile.phone ?? null},
    ${profile.website ?? null}, ${profile.adoptionPolicy ?? null}, ${profile.adoptionUrl ?? null},
    ${json(profile.address)}::jsonb, ${profile.location?.latitude ?? null}::float8,
    ${profile.location?.longitude ?? null}::float8, ${json(profile.hours)}::jsonb, ${json(profile.socialMedia)}::jsonb`;
}

interface OrganizationRow {
  id: string;
  name: string;
  description: string | null;
  email: string | null;
  phone: string | null;
  website: string | null;
  adoption_policy: string | null;
  adoption_url: string | null;
  address: OrganizationDto['address'] | null;
  latitude: number | null;
  longitude: number | null;
  hours: OrganizationDto['hours'] | null;
  social_media: OrganizationDto['socialMedia'] | null;
  created_at: Date;
  updated_at: Date;
  version: string;
  /** available, pending and sold; null while none of its pets was ever counted. */
  animal_counts: [string, string, string] | null;
  sort_key: string;
  distance_km: string | null;
}

function animalCounts(counts: OrganizationRow['animal_counts']): OrganizationDto['animalCounts'] {
  const [available, pending, sold] = counts ?? [0, 0, 0];
  return { available: Number(available), pending: Number(pending), sold: Number(sold) };
}

/** The Organization as clients see it: fields never set are left out, and the account is never shown. */
function toOrganization(row: OrganizationRow): OrganizationDto {
  const organization: OrganizationDto = {
    id: row.id,
    name: row.name,
    animalCounts: animalCounts(row.animal_counts),
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
  const optional = {
    description: row.description,
    email: row.email,
    phone: row.phone,
    website: row.website,
    adoptionPolicy: row.adoption_policy,
    adoptionUrl: row.adoption_url,
    address: row.address,
    hours: row.hours,
    socialMedia: row.social_media,
  };
  for (const [field, value] of Object.entries(optional))
    if (value !== null) Object.assign(organization, { [field]: value });
  if (row.latitude !== null && row.longitude !== null) {
    organization.location = { latitude: row.latitude, longitude: row.longitude };
  }
  if (row.distance_km !== null) organization.distanceKm = Number(row.distance_km);
  return organization;
}

/** An organisation with its version (its ETag). */
export interface StoredOrganization {
  organization: OrganizationDto;
  version: string;
}

/** Where a page begins: after the organisation with this id and sort key (a name, a time or a distance). */
export interface OrganizationPosition {
  key: string;
  id: string;
}

export interface OrganizationSearch {
  q?: string;
  near?: { latitude: number; longitude: number };
  radiusKm: number;
  country?: string;
  sort: OrganizationSort;
  after?: OrganizationPosition;
  limit: number;
}

export interface OrganizationPage {
  organizations: OrganizationDto[];
  next?: OrganizationPosition;
}

/** Per sort: the page's order over the page's own columns, its cursor's key, and the keyset condition. */
function order(sort: OrganizationSort, after: OrganizationPosition | undefined) {
  const key = after?.key ?? null;
  const id = after?.id ?? null;
  const unlessFirst = (condition: SqlFragment) => sql`(${id}::text IS NULL OR ${condition})`;
  switch (sort) {
    case 'name':
      return {
        orderBy: sql`name, id`,
        key: sql`name`,
        after: unlessFirst(sql`(name, id) > (${key}::text, ${id}::text)`),
      };
    case '-createdAt':
      return {
        orderBy: sql`created_at DESC, id DESC`,
        key: sql`to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`,
        after: unlessFirst(sql`(created_at, id) < (${key}::timestamptz, ${id}::text)`),
      };
    case 'distance':
      return {
        orderBy: sql`chord, id`,
        key: sql`chord::text`,
        after: unlessFirst(sql`(chord, id) > (${key}::float8, ${id}::text)`),
      };
  }
}

/**
 * The organisations of the page, each with its animals by status: the row `organization_animal_counts` keeps
 * for it, which the pets' statement triggers change in the transaction of each write (ADR 0062). An
 * organisation none of whose pets was ever counted has no row, and no animals. A subquery per organisation
 * rather than a join: the planner spends a third less on it (ADR 0063).
 */
function withCounts(page: SqlFragment, orderBy: SqlFragment): SqlFragment {
  // The row's own columns, not `page.*`: the page carries the place and the chord too, which PostgreSQL
  // would write out as text for every organisation.
  return sql`
    SELECT id, ${PROFILE_COLUMNS}, created_at, updated_at, sort_key, distance_km, ${VERSION} AS version,
           (SELECT ARRAY[counts.available, counts.pending, counts.sold] FROM organization_animal_counts counts
             WHERE counts.organization_id = page.id) AS animal_counts
      FROM (${page}) AS page
     ORDER BY ${orderBy}`;
}

/** One organisation by a condition on its row, with its counts. */
const oneWhere = (condition: SqlFragment) =>
  withCounts(
    sql`SELECT *, id AS sort_key, NULL::numeric AS distance_km FROM organizations WHERE ${condition}`,
    sql`id`,
  );

/** Organisations in PostgreSQL: one per account, the pets' `organization_id` naming it while it is published. */
@Injectable()
export class OrganizationsRepository {
  private readonly reads = new SharedReads<OrganizationPage>();

  constructor(private readonly sql: Sql) {}

  @GenerateSql({ params: [1] })
  async findOwn(accountId: number): Promise<StoredOrganization | undefined> {
    const rows = await this.sql.rows<OrganizationRow>(oneWhere(sql`account_id = ${accountId}`));
    return rows[0] && toStored(rows[0]);
  }

  @GenerateSql({ params: ['org_1'] })
  async findById(organizationId: string): Promise<StoredOrganization | undefined> {
    const rows = await this.sql.rows<OrganizationRow>(oneWhere(sql`id = ${organizationId}`));
    return rows[0] && toStored(rows[0]);
  }

  /** Publishes the account's organisation under `organizationId`; false when the account has one already. */
  @GenerateSql({ params: [1, 'org_1', { name: 'Shelter' }] })
  async insert(accountId: number, organizationId: string, profile: OrganizationProfileDto): Promise<boolean> {
    const rows = await this.sql.rows(sql`
      INSERT INTO organizations (id, account_id, ${PROFILE_COLUMNS})
      VALUES (${organizationId}, ${accountId}, ${profileValues(profile)})
      ON CONFLICT (account_id) DO NOTHING
      RETURNING id`);
    return rows.length === 1;
  }

  /** Replaces the account's profile, if it is at one of `versions` (any, when absent); false when it did not. */
  @GenerateSql({ params: [1, { name: 'Shelter' }, ['1']] })
  async replace(accountId: number, profile: OrganizationProfileDto, versions?: string[]): Promise<boolean> {
    const result = await this.sql.query(sql`
      UPDATE organizations SET (${PROFILE_COLUMNS}) = (${profileValues(profile)}), updated_at = ${CHANGED_AT}
       WHERE account_id = ${accountId}
         AND (${versions ?? null}::bigint[] IS NULL OR ${VERSION} = ANY (${versions ?? null}::bigint[]))`);
    return result.rowCount === 1;
  }

  /**
   * Locks the account's organisation until the transaction ends, and tells its id and version. The lock
   * still lets pets that name it be added (a key share), so that it never waits on an INSERT that waits on it.
   */
  @GenerateSql({ params: [1] })
  async lockOwn(accountId: number): Promise<{ id: string; version: string } | undefined> {
    const rows = await this.sql.rows<{ id: string; version: string }>(
      sql`SELECT id, ${VERSION} AS version FROM organizations WHERE account_id = ${accountId} FOR NO KEY UPDATE`,
    );
    return rows[0];
  }

  @GenerateSql({ params: ['org_1'] })
  async delete(organizationId: string): Promise<void> {
    await this.sql.query(sql`DELETE FROM organizations WHERE id = ${organizationId}`);
  }

  @GenerateSql(
    { name: 'by name', params: [{ radiusKm: 50, sort: 'name', limit: 20 }] },
    {
      name: 'words and country, newest first',
      params: [{ q: 'dogs', country: 'DE', radiusKm: 50, sort: '-createdAt', limit: 20 }],
    },
    {
      name: 'nearest first',
      params: [{ near: { latitude: 52.5, longitude: 13.4 }, radiusKm: 50, sort: 'distance', limit: 20 }],
    },
  )
  async search(search: OrganizationSearch): Promise<OrganizationPage> {
    const { near, sort, limit } = search;
    const { orderBy, key, after } = order(sort, search.after);
    const radiusMetres = search.radiusKm * 1000;
    const origin = earthPoint(sql`${near?.latitude ?? null}::float8`, sql`${near?.longitude ?? null}::float8`);
    // `earth_distance(origin, place)` and `earth_box(origin, radius)`.
    const distance = arc(sql`cube_distance(${origin}, ${PLACE})`);
    const box = sql`cube_enlarge(${origin}, ${chordOf(sql`${radiusMetres}::float8`)}, 3)`;
    const filters = sql`${unlessNull(search.q, sql`${SEARCH_DOCUMENT} @@ plainto_tsquery('pet_search'::regconfig, ${search.q ?? null}::text)`)}
      AND ${unlessNull(search.country, sql`address ->> 'country' = ${search.country ?? null}::text`)}
      AND ${unlessNull(near, sql`${box} @> ${PLACE} AND ${distance} <= ${radiusMetres}::float8`)}`;
    const distanceKm = near ? sql`round((${distance} / 1000)::numeric, 1)` : sql`NULL::numeric`;
    const matching = sql`(SELECT *, ${PLACE} <-> ${origin} AS chord FROM organizations WHERE ${filters}) AS organizations`;
    const page = sql`SELECT *, ${key} AS sort_key, ${distanceKm} AS distance_km FROM ${matching}
                      WHERE ${after} ORDER BY ${orderBy} LIMIT ${limit + 1}`;
    // The first page may lag; the next pages of a walk are read on the primary (`PetSearchRepository.search`).
    const statement = withCounts(page, orderBy);
    const mayLag = search.after === undefined;
    const read = async (): Promise<OrganizationPage> => {
      const rows = await (mayLag
        ? this.sql.rowsMayLag<OrganizationRow>(statement)
        : this.sql.rows<OrganizationRow>(statement));
      const pageRows = rows.slice(0, limit);
      const last = pageRows.at(-1);
      return {
        organizations: pageRows.map(toOrganization),
        next: rows.length > limit && last ? { key: last.sort_key, id: last.id } : undefined,
      };
    };
    // Identical searches asked for together share one read, as the pets' do (ADR 0031).
    return this.sql.readShared(this.reads, `${statement.text} ${JSON.stringify(statement.values)}`, mayLag, read);
  }
}

/** A filter's condition, or none when the search does not ask for it (a table this small needs no fixed shape). */
const unlessNull = (value: unknown, condition: SqlFragment) => (value === undefined ? sql`true` : condition);

function toStored(row: OrganizationRow): StoredOrganization {
  return { organization: toOrganization(row), version: row.version };
}
