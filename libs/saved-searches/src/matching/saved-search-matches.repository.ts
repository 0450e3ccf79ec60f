import { GenerateSql, Sql, sql } from '@app/database';
import type { PetDto } from '@app/pets';
import type { PetTerms } from '../saved-search-filters';
import { Injectable } from '@nestjs/common';

/**
 * Class and object of the advisory lock a matcher's batch holds: one batch at a time across all workers, so
 * that each pet's changes are matched in their order against the match state the previous batch left.
 */
const MATCHER_LOCK = sql`731044207, 0`;

/** One change of a batch, in the batch's order: its pet as the change left it (none when deleted) and the pet's terms. */
export interface BatchChange {
  petId: number;
  listerAccountId: number;
  pet?: PetDto;
  terms?: PetTerms;
}

/** A saved search a change made its pet come to match: one alert. */
export interface Alert {
  /** Index of the change in the batch. */
  change: number;
  savedSearchId: string;
  accountId: number;
}

/** `saved_search_matches`: which saved searches each pet currently matches, so that only a new match alerts. */
@Injectable()
export class SavedSearchMatchesRepository {
  constructor(private readonly sql: Sql) {}

  /** Takes the matcher's lock for the caller's transaction, unless another worker's batch holds it. */
  @GenerateSql()
  async lockMatcher(): Promise<boolean> {
    const [row] = await this.sql.rows<{ locked: boolean }>(
      sql`SELECT pg_try_advisory_xact_lock(${MATCHER_LOCK}) AS locked`,
    );
    return row!.locked;
  }

  /**
   * Matches a batch of changes in one statement, and leaves in `saved_search_matches` what each pet's last
   * change matches. Each change's candidates are the searches filed under one of its terms (the GIN index on
   * `terms`, one lookup per change), but its lister's own; a candidate matches when the pet carries its
   * `required` terms and one of each of its `choices`, and passes its `q` and `near` by the expressions
   * `listPets` runs (the pet's words as `pets_search_idx` holds them, libs/pets pet-search.repository's
   * SEARCH_DOCUMENT, and the earth distance). An alert is a match the pet's previous change in the batch did
   * not have, or for its first, one the match state did not hold: so a pet that stops matching and matches
   * again alerts again. The batch's candidates are counted for the log and the bench.
   */
  @GenerateSql({
    params: [
      [
        {
          petId: 1,
          listerAccountId: 1,
          pet: { id: 1, name: 'Rex', categoryId: 1, status: 'available', sex: 'male' },
          terms: { own: ['categoryId=1', 'status=available'], lookup: ['*', 'categoryId=1', 'status=available'] },
        },
        { petId: 2, listerAccountId: 1 },
      ],
    ],
  })
  async match(changes: readonly BatchChange[]): Promise<{ alerts: Alert[]; candidates: number }> {
    const terms = changes.flatMap((change, index) => [
      ...(change.terms?.lookup ?? []).map((term) => ({ change: index + 1, term, own: false })),
      ...(change.terms?.own ?? []).map((term) => ({ change: index + 1, term, own: true })),
    ]);
    const rows = await this.sql.rows<{
      change: number;
      saved_search_id: string;
      account_id: string;
      candidates: string;
    }>(
      sql`WITH changes AS (
            SELECT c.change::int AS change, c.pet_id, c.lister, c.latitude, c.longitude,
                   to_tsvector('pet_search'::regconfig, c.name || ' ' || coalesce(c.breed, '') || ' ' || coalesce(c.description, '')) AS words,
                   lag(c.change::int) OVER pet AS previous, lead(c.change) OVER pet IS NULL AS last
              FROM unnest(${changes.map((change) => change.petId)}::bigint[],
                          ${changes.map((change) => change.listerAccountId)}::bigint[],
                          ${changes.map((change) => change.pet?.name ?? null)}::text[],
                          ${changes.map((change) => change.pet?.breed ?? null)}::text[],
                          ${changes.map((change) => change.pet?.description ?? null)}::text[],
                          ${changes.map((change) => change.pet?.location?.latitude ?? null)}::float8[],
                          ${changes.map((change) => change.pet?.location?.longitude ?? null)}::float8[])
                   WITH ORDINALITY AS c (pet_id, lister, name, breed, description, latitude, longitude, change)
            WINDOW pet AS (PARTITION BY c.pet_id ORDER BY c.change)),
          terms AS (
            SELECT t.change, array_agg(t.term) AS lookup, coalesce(array_agg(t.term) FILTER (WHERE t.own), '{}') AS own
              FROM unnest(${terms.map((term) => term.change)}::int[], ${terms.map((term) => term.term)}::text[],
                          ${terms.map((term) => term.own)}::bool[]) AS t (change, term, own)
             GROUP BY t.change),
          candidates AS (
            SELECT c.change, c.pet_id, c.words, c.latitude, c.longitude, t.own, s.*
              FROM changes c JOIN terms t ON t.change = c.change
             CROSS JOIN LATERAL (
                   SELECT s.id AS saved_search_id, s.account_id, s.required, s.choices,
                          s.filters ->> 'q' AS q, s.filters ->> 'near' AS near, (s.filters ->> 'radiusKm')::float8 AS radius_km
                     FROM saved_searches s
                    WHERE s.terms && t.lookup AND s.account_id <> c.lister) s),
          evaluated AS (
            SELECT change, pet_id, saved_search_id, account_id,
                   required <@ own
                   AND (choices IS NULL
                        OR NOT EXISTS (SELECT FROM jsonb_array_elements(choices) AS choice WHERE NOT choice ?| own))
                   AND (near IS NULL
                        OR earth_distance(ll_to_earth(split_part(near, ',', 1)::float8, split_part(near, ',', 2)::float8),
                                          ll_to_earth(latitude, longitude)) <= radius_km * 1000)
                   AND (q IS NULL OR words @@ plainto_tsquery('pet_search'::regconfig, q)) AS passes
              FROM candidates),
          matched AS (SELECT change, pet_id, saved_search_id, account_id FROM evaluated WHERE passes),
          ended AS (
            DELETE FROM saved_search_matches m USING changes c
             WHERE c.last AND m.pet_id = c.pet_id
               AND NOT EXISTS (SELECT FROM matched n WHERE n.change = c.change AND n.saved_search_id = m.saved_search_id)),
          begun AS (
            INSERT INTO saved_search_matches (pet_id, saved_search_id)
            SELECT n.pet_id, n.saved_search_id FROM matched n JOIN changes c ON c.change = n.change WHERE c.last
            ON CONFLICT DO NOTHING),
          alerts AS (
            SELECT n.change, n.saved_search_id, n.account_id
              FROM matched n JOIN changes c ON c.change = n.change
             WHERE NOT EXISTS (SELECT FROM matched p WHERE p.change = c.previous AND p.saved_search_id = n.saved_search_id)
               AND (c.previous IS NOT NULL
                    OR NOT EXISTS (SELECT FROM saved_search_matches m
                                    WHERE m.pet_id = n.pet_id AND m.saved_search_id = n.saved_search_id)))
          -- One row more, without an alert, carries the count of candidates.
          SELECT change, saved_search_id, account_id, NULL AS candidates FROM alerts
          UNION ALL
          SELECT NULL, NULL, NULL, count(*) FROM evaluated
          ORDER BY change, saved_search_id`,
    );
    const counted = rows.pop()!;
    return {
      alerts: rows.map((row) => ({
        change: row.change - 1,
        savedSearchId: row.saved_search_id,
        accountId: Number(row.account_id),
      })),
      candidates: Number(counted.candidates),
    };
  }
}
