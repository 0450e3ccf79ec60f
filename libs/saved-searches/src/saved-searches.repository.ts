import { columnList, GenerateSql, Sql, sql, type TableRow } from '@app/database';
import { Injectable } from '@nestjs/common';
import type { SavedSearchFilters, SearchClauses } from './saved-search-filters';
import { HOLD_MATCHER } from './matching/saved-search-matching.repository';

/**
 * Class of the advisory lock a search's creation takes on its account (the object is a hash of the account
 * id), so that two creations at once cannot both find nineteen searches and make twenty-one.
 */
const SAVED_SEARCHES_CAP_LOCK_CLASS = 731_044_206;

export interface SavedSearch {
  id: string;
  accountId: number;
  name: string | null;
  query: string;
  emailAlerts: boolean;
  createdAt: Date;
}

/** What `PATCH` changes; absent members stay. */
export interface SavedSearchChanges {
  name?: string;
  emailAlerts?: boolean;
}

export interface NewSavedSearch {
  id: string;
  name?: string;
  query: string;
  emailAlerts: boolean;
  filters: SavedSearchFilters;
  terms: string[];
  clauses: SearchClauses;
}

const SAVED_SEARCH_COLUMNS = ['id', 'account_id', 'name', 'query', 'email_alerts', 'created_at'] as const;

type SavedSearchRow = Pick<TableRow<'saved_searches'>, (typeof SAVED_SEARCH_COLUMNS)[number]>;

const COLUMNS = columnList('saved_searches', SAVED_SEARCH_COLUMNS);

function toSavedSearch(row: SavedSearchRow): SavedSearch {
  return {
    id: row.id,
    accountId: Number(row.account_id),
    name: row.name,
    query: row.query,
    emailAlerts: row.email_alerts,
    createdAt: row.created_at,
  };
}

/** `saved_searches`: each account's searches, their parsed filters, the terms the matcher finds them by and the clauses it decides them by. */
@Injectable()
export class SavedSearchesRepository {
  constructor(private readonly sql: Sql) {}

  /** The new search, or undefined when the account already has `max`. */
  @GenerateSql({
    params: [
      1,
      {
        id: 'srch_1',
        name: 'Calm cats',
        query: 'categoryId=2&tag=calm',
        emailAlerts: true,
        filters: { categoryId: 2, tag: 'calm' },
        terms: ['tag=calm&categoryId=2'],
        clauses: { required: ['tag=calm', 'categoryId=2'], choices: [['status=available', 'status=pending']] },
      },
      20,
    ],
  })
  create(accountId: number, search: NewSavedSearch, max: number): Promise<SavedSearch | undefined> {
    return this.sql.transaction(async () => {
      await this.sql.query(
        sql`SELECT pg_advisory_xact_lock(${SAVED_SEARCHES_CAP_LOCK_CLASS}, hashtext(${accountId}::text))`,
      );
      // A statement of its own after the lock, so that it counts what the previous holder committed.
      const rows = await this.sql.rows<SavedSearchRow>(
        sql`INSERT INTO saved_searches (id, account_id, name, query, email_alerts, filters, terms, required, choices)
            SELECT ${search.id}, ${accountId}, ${search.name ?? null}, ${search.query}, ${search.emailAlerts}, ${JSON.stringify(search.filters)}::jsonb,
                   ${search.terms}::text[], ${search.clauses.required}::text[], ${search.clauses.choices && JSON.stringify(search.clauses.choices)}::jsonb
             WHERE (SELECT count(*) FROM saved_searches WHERE account_id = ${accountId}) < ${max}
            RETURNING ${COLUMNS}`,
      );
      return rows[0] && toSavedSearch(rows[0]);
    });
  }

  /** The account's searches, oldest first. */
  @GenerateSql({ params: [1] })
  async list(accountId: number): Promise<SavedSearch[]> {
    const rows = await this.sql.rows<SavedSearchRow>(
      sql`SELECT ${COLUMNS} FROM saved_searches WHERE account_id = ${accountId} ORDER BY created_at, id`,
    );
    return rows.map(toSavedSearch);
  }

  @GenerateSql({ params: [1, 'srch_1'] })
  async findOne(accountId: number, id: string): Promise<SavedSearch | undefined> {
    const rows = await this.sql.rows<SavedSearchRow>(
      sql`SELECT ${COLUMNS} FROM saved_searches WHERE id = ${id} AND account_id = ${accountId}`,
    );
    return rows[0] && toSavedSearch(rows[0]);
  }

  /** The changed search, or undefined when the account has none of this id. */
  @GenerateSql({ params: [1, 'srch_1', { name: 'Calm cats', emailAlerts: true }] })
  async update(accountId: number, id: string, changes: SavedSearchChanges): Promise<SavedSearch | undefined> {
    const rows = await this.sql.rows<SavedSearchRow>(
      sql`UPDATE saved_searches
             SET name = coalesce(${changes.name ?? null}, name),
                 email_alerts = coalesce(${changes.emailAlerts ?? null}::boolean, email_alerts)
           WHERE id = ${id} AND account_id = ${accountId}
       RETURNING ${COLUMNS}`,
    );
    return rows[0] && toSavedSearch(rows[0]);
  }

  /**
   * Whether it was there. A removal then waits for the matcher's batches in flight, which may have read the
   * search, so that once it has committed no alert of the search is recorded; one that removed nothing
   * waits for nothing.
   */
  @GenerateSql({ params: [1, 'srch_1'] })
  async delete(accountId: number, id: string): Promise<boolean> {
    return this.sql.transaction(async () => {
      const result = await this.sql.query(
        sql`DELETE FROM saved_searches WHERE id = ${id} AND account_id = ${accountId}`,
      );
      if (result.rowCount !== 1) return false;
      await this.sql.query(HOLD_MATCHER);
      return true;
    });
  }
}
