import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Pool } from 'pg';
import type { PetSearch, SearchPosition } from '../../libs/pets/src/pet-search.repository';
import { PetSearchRepository, searchStatements } from '../../libs/pets/src/pet-search.repository';
import { readPagesStatement } from '../../libs/pets/src/pets.repository';
import { Sql, sql, type SqlFragment } from '../../libs/database/src';
import { OrganizationsRepository } from '../../libs/organizations/src/organizations.repository';
import { suiteDatabase, SuiteDatabase, withDatabase } from '../support/database';
import { sqlOnPool } from '../support/doubles';

/** Every plan node's index names, depth first. */
function indexesOf(plan: Record<string, unknown>): string[] {
  const own = typeof plan['Index Name'] === 'string' ? [plan['Index Name']] : [];
  const children = (plan.Plans as Array<Record<string, unknown>> | undefined) ?? [];
  return [...own, ...children.flatMap(indexesOf)];
}

/** Every plan node's table names, depth first. */
function relationsOf(plan: Record<string, unknown>): string[] {
  const own = typeof plan['Relation Name'] === 'string' ? [plan['Relation Name']] : [];
  const children = (plan.Plans as Array<Record<string, unknown>> | undefined) ?? [];
  return [...own, ...children.flatMap(relationsOf)];
}

/**
 * An index serves each filter and sort. On a seeded catalogue (statistics gathered), the plan
 * PostgreSQL chooses for each search, first page and deep, reads through the index meant for it.
 */
describe('the plans of searches', () => {
  let database: SuiteDatabase;
  const deep = { id: 36_000 };

  beforeAll(async () => {
    database = await suiteDatabase('pets_plans');
    await withDatabase(async (client) => {
      await client.query(readFileSync(join(__dirname, '..', 'support', 'seeded-search-catalogue.sql'), 'utf8'));
    }, database.url);
  }, 180_000);
  afterAll(() => database.drop());

  /** The plans of a search's statements: a walk's and its find's, or the one. */
  const plans = (search: Partial<PetSearch>) =>
    withDatabase(async (client) => {
      await client.query('SET plan_cache_mode = force_custom_plan');
      const { first, whenShort } = searchStatements({ radiusKm: 50, sort: 'id', limit: 20, ...search });
      const planned: Array<Record<string, unknown>> = [];
      for (const statement of whenShort ? [first, whenShort] : [first]) {
        const { rows } = await client.query(`EXPLAIN (FORMAT JSON) ${statement.text}`, [...statement.values]);
        planned.push((rows[0]['QUERY PLAN'] as Array<{ Plan: Record<string, unknown> }>)[0]!.Plan);
      }
      return planned;
    }, database.url);

  // A value a sizeable share of pets carry is read along the primary key, whose order is the page's: a
  // page reads about `limit` divided by that share, as deep as it goes. A rare one takes its own index.
  it.each<[string, Partial<PetSearch>, string]>([
    ['a category', { categoryId: 7 }, 'pets_pkey'],
    ['a tag', { tag: 'tag17' }, 'pets_tags_idx'],
    ['a rare word', { q: 'zebra' }, 'pets_search_document_idx'],
    ['a common word', { q: 'friendly' }, 'pets_pkey'],
    ['a deep page of a common word', { q: 'friendly', after: deep }, 'pets_pkey'],
    ['listedBy', { listerAccountId: 42 }, 'pets_lister_account_id_id_idx'],
    [
      'updatedSince, recent',
      { updatedSince: new Date(Date.now() - 3_600_000).toISOString() },
      'pets_updated_at_id_idx',
    ],
    ['near, 10 km', { near: { latitude: 40, longitude: 5 }, radiusKm: 10 }, 'pets_location_idx'],
    ['sort=-createdAt', { sort: '-createdAt' }, 'pets_created_at_id_idx'],
    ['sort=updatedAt', { sort: 'updatedAt' }, 'pets_updated_at_id_idx'],
    ['sort=distance', { sort: 'distance', near: { latitude: 40, longitude: 5 }, radiusKm: 500 }, 'pets_location_idx'],
    ['a deep page of a category', { categoryId: 3, after: deep }, 'pets_pkey'],
    ['a deep page of a sex', { sex: 'female', after: deep }, 'pets_pkey'],
    ['a deep page of a size', { size: 'large', after: deep }, 'pets_pkey'],
    ['a deep page of an age group', { ageGroup: 'baby', after: deep }, 'pets_pkey'],
    // The adoption-grade record's filters, first page and deep.
    ['an organisation', { organizationId: 'org_seed7' }, 'pets_organization_id_id_idx'],
    ['a deep page of an organisation', { organizationId: 'org_seed7', after: deep }, 'pets_organization_id_id_idx'],
    ['goodWith', { goodWith: ['cats'] }, 'pets_good_with_cats_id_idx'],
    ['a deep page of goodWith', { goodWith: ['children', 'dogs'], after: deep }, 'pets_good_with'],
    ['houseTrained', { houseTrained: true }, 'pets_pkey'],
    ['a deep page of spayedNeutered', { spayedNeutered: false, after: deep }, 'pets_pkey'],
    ['specialNeeds, rare', { specialNeeds: true }, 'pets_special_needs_id_idx'],
    ['a deep page of specialNeeds, rare', { specialNeeds: true, after: deep }, 'pets_special_needs_id_idx'],
    ['a coat', { coat: 'wire' }, 'pets_pkey'],
    ['a rare coat', { coat: 'hairless' }, 'pets_coat_id_idx'],
    ['a deep page of a rare coat', { coat: 'hairless', after: deep }, 'pets_coat_id_idx'],
    ['a colour', { color: 'black' }, 'pets_pkey'],
    ['a rare colour', { color: 'SHADE17' }, 'pets_colors_idx'],
    ['an external id', { listerAccountId: 8, externalId: 'ext-7' }, 'pets_lister_external_id_key'],
  ])('reads %s through an index', async (_case, search, index) => {
    const roots = await plans(search);
    const indexes = roots.flatMap(indexesOf);
    expect(JSON.stringify(roots)).not.toContain('Seq Scan');
    expect(indexes.some((name) => name.startsWith(index))).toBe(true);
  });

  it('answers a walk that falls short with the find: every pet in a sparse circle, in id order, page by page', async () => {
    // The seeded places lie on a sparse lattice (seeded-search-catalogue.sql): a walk of 2,000 pets by id meets
    // about six in this circle, fewer than a page, so the find answers each page.
    const near = { latitude: 35.07, longitude: -4.93 };
    const inCircle = await withDatabase(async (client) => {
      const statement = sql`SELECT id FROM pets
         WHERE earth_distance(ll_to_earth(${near.latitude}, ${near.longitude}), ll_to_earth(latitude, longitude)) <= 10000
         ORDER BY id`;
      const { rows } = await client.query<{ id: string }>(statement.text, [...statement.values]);
      return rows.map((row) => Number(row.id));
    }, database.url);
    expect(inCircle.length).toBeGreaterThan(40);
    const pool = new Pool({ connectionString: database.url, max: 1 });
    try {
      const repository = new PetSearchRepository(sqlOnPool(pool));
      const seen: number[] = [];
      let after: SearchPosition | undefined;
      do {
        const page = await repository.search({ near, radiusKm: 10, sort: 'id', limit: 20, after });
        seen.push(...page.pets.map((pet) => pet.id));
        after = page.next;
      } while (after);
      expect(seen).toEqual(inCircle);
    } finally {
      await pool.end();
    }
  });

  it('reads a deep page of one status, in a batch of pages, through the (status, id) index', async () => {
    const root = await withDatabase(async (client) => {
      const statement = readPagesStatement([{ status: 'pending', afterId: deep.id, limit: 20 }]);
      const { rows } = await client.query(`EXPLAIN (FORMAT JSON) ${statement.text}`, [...statement.values]);
      return (rows[0]['QUERY PLAN'] as Array<{ Plan: Record<string, unknown> }>)[0]!.Plan;
    }, database.url);
    expect(indexesOf(root)).toContain('pets_status_id_idx');
  });

  it('finds organisations near a point through the index of their stored places, and reads their counts', async () => {
    let statement: SqlFragment | undefined;
    const record = (fragment: SqlFragment) => {
      statement = fragment;
      return Promise.resolve([]);
    };
    const sql = {
      readShared: <R>(_reads: unknown, _key: string, _mayLag: boolean, read: () => Promise<R>) => read(),
      rows: record,
      rowsMayLag: record,
    } satisfies Partial<Sql>;
    await new OrganizationsRepository(sql as unknown as Sql).search({
      near: { latitude: 40, longitude: 5 },
      radiusKm: 25,
      sort: 'name',
      limit: 20,
    });
    const root = await withDatabase(async (client) => {
      // A hundred organisations are read faster whole: only the index is in question here.
      await client.query('SET enable_seqscan = off');
      const { rows } = await client.query(`EXPLAIN (FORMAT JSON) ${statement!.text}`, [...statement!.values]);
      return (rows[0]['QUERY PLAN'] as Array<{ Plan: Record<string, unknown> }>)[0]!.Plan;
    }, database.url);
    expect(indexesOf(root)).toContain('organizations_stored_place_idx');
    // Their animals are counted already: the page reads one row of counts per organisation, and no pet.
    expect(relationsOf(root)).toContain('organization_animal_counts');
    expect(relationsOf(root)).not.toContain('pets');
    expect(indexesOf(root)).toContain('organization_animal_counts_pkey');
  });
});
