import { GenerateSql, Sql, sql, type SqlFragment } from '@app/database';
import { EventsRecorder } from '@app/events';
import type { PetDto } from '@app/pets';
import type { PetTerms } from '../saved-search-filters';
import { Injectable } from '@nestjs/common';

/**
 * Partitions of the pets (by id) whose changes are matched side by side, each one batch at a time across
 * all workers, so that each pet's changes are judged in their order against the state the previous batch
 * left. Every worker must count the same: a constant, not a setting. Three on two cores: with two, the cores
 * idled between a batch's statements (ADR 0066).
 */
export const MATCHER_PARTITIONS = 3;

/** Class of the advisory lock a partition's batch holds; its object is the partition. */
export const MATCHER_LOCK_CLASS = 731044207;

/**
 * Waits for the matcher's batches in flight and holds new ones off until the caller's transaction ends (the
 * batches only try their locks): what a batch did not see committed before it began, it never records.
 */
export const HOLD_MATCHER = sql`SELECT pg_advisory_xact_lock_shared(${MATCHER_LOCK_CLASS}, partition)
                                  FROM generate_series(0, ${MATCHER_PARTITIONS - 1}) AS partition`;

/** A pet as a change left it, and its terms: what a saved search is evaluated against. */
export interface PetState {
  pet: PetDto;
  terms: PetTerms;
}

/** A change of a batch that leaves a pet to judge (not a deletion), in the batch's order. */
export interface JudgedChange {
  /** Index of the change in the batch. */
  change: number;
  /** The change's event: its object is the pet the change left, which the alerts of the change carry. */
  changeId: string;
  listerAccountId: number;
  /**
   * When the change was made (the pet's `updatedAt`, to the millisecond): searches saved after it are not
   * judged, those saved within its millisecond are.
   */
  changedAt: string;
  after: PetState;
  /** The pet before the change as the matcher saw it; none when the change is the first it sees of the pet. */
  before?: PetState;
}

/** A pet state's columns in the match statement: its own terms, its earth point, its words; null when absent. */
interface StateColumns {
  own: SqlFragment;
  place: SqlFragment;
  words: SqlFragment;
}

const AFTER: StateColumns = { own: sql`c.after_own`, place: sql`c.after_place`, words: sql`c.after_words` };
const BEFORE: StateColumns = { own: sql`c.before_own`, place: sql`c.before_place`, words: sql`c.before_words` };

/**
 * The straight-line (chord) distance that the radius of the candidate search `s` spans on earthdistance's
 * earth (6,378,168 m), a hair wider for rounding. The great-circle distance `earth_distance` grows with the
 * chord, so a pet farther than this is outside the circle: `cube_distance` tells, without the SQL functions
 * `earth_distance` calls (ADR 0066), and the exact test runs only for the pets it leaves.
 */
const CHORD_OF_RADIUS = sql`2 * 6378168 * sin(s.near_radius_metres / (2 * 6378168)) * (1 + 1e-9)`;

/**
 * Whether the candidate search `s` passes a pet state (never true for an absent one): the pet carries its
 * `required` terms and one of each of its `choices`, and passes its `q` and `near` by the expressions
 * `listPets` runs (the pet's words as `pets_search_idx` holds them, libs/pets pet-search.repository's
 * SEARCH_DOCUMENT, against the query `plainto_tsquery` made of `q` when the search was saved; the earth
 * distance from the point `ll_to_earth` made of `near`).
 */
const passes = ({ own, place, words }: StateColumns) =>
  sql`(s.required <@ ${own}
       AND (s.choices IS NULL
            OR NOT EXISTS (SELECT FROM jsonb_array_elements(s.choices) AS choice WHERE NOT choice ?| ${own}))
       AND (s.near_origin IS NULL
            OR (cube_distance(s.near_origin, ${place}) <= ${CHORD_OF_RADIUS}
                AND earth_distance(s.near_origin, ${place}) <= s.near_radius_metres))
       AND (s.q_query IS NULL OR ${words} @@ s.q_query))`;

/** A saved search a change made its pet come to match: one alert, of an owner with a subscribed endpoint. */
export interface Alert {
  /** Index of the change in the batch. */
  change: number;
  savedSearchId: string;
  accountId: number;
}

/**
 * The matcher's statements: the saved searches a batch's changes make their pets come to match, and
 * `saved_search_pet_states`, each pet as the last change the matcher judged left it (the "before" of its
 * next change).
 */
@Injectable()
export class SavedSearchMatchingRepository {
  constructor(
    private readonly sql: Sql,
    private readonly events: EventsRecorder,
  ) {}

  /** Takes a partition's lock for the caller's transaction, unless another batch of it holds it. */
  @GenerateSql({ params: [0] })
  async lockPartition(partition: number): Promise<boolean> {
    const [row] = await this.sql.rows<{ locked: boolean }>(
      sql`SELECT pg_try_advisory_xact_lock(${MATCHER_LOCK_CLASS}, ${partition}) AS locked`,
    );
    return row!.locked;
  }

  /** The pets as the matcher last left them, by id; a pet it has not seen, or saw deleted, is absent. */
  @GenerateSql({ params: [[1, 2]] })
  async states(petIds: readonly number[]): Promise<Map<number, PetDto>> {
    const rows = await this.sql.rows<{ pet_id: string; pet: PetDto }>(
      sql`SELECT pet_id, pet FROM saved_search_pet_states WHERE pet_id = ANY(${petIds}::bigint[])`,
    );
    return new Map(rows.map((row) => [Number(row.pet_id), row.pet]));
  }

  /** Keeps each pet as its last change left it, or forgets it when the change deleted it. */
  @GenerateSql({ params: [[{ id: 1, name: 'Rex' }], [2]] })
  async keepStates(pets: readonly PetDto[], deletedPetIds: readonly number[]): Promise<void> {
    await this.sql.query(
      sql`WITH kept AS (
            INSERT INTO saved_search_pet_states (pet_id, pet)
            SELECT (pet ->> 'id')::bigint, pet FROM unnest(${pets.map((pet) => JSON.stringify(pet))}::jsonb[]) AS pet
            ON CONFLICT (pet_id) DO UPDATE SET pet = excluded.pet)
          DELETE FROM saved_search_pet_states WHERE pet_id = ANY(${deletedPetIds}::bigint[])`,
    );
  }

  /**
   * The saved searches each change makes its pet come to match, found and recorded in one statement. A
   * change's candidates are the searches filed under one of its terms (the GIN index on `terms`, one lookup
   * per change), saved before the change and not by its lister; each is evaluated against the pet after the
   * change and, when there is one, before it, and alerts when it passes the first and not the second: so a
   * pet that keeps matching alerts once, and one that stops matching and matches again alerts again. Each
   * pet state's terms, earth point and words are computed once, not per candidate. The alerts of owners
   * without a subscribed endpoint are recorded by the statement (`EventsRecorder.alertsRecordedBy`, one narrow
   * row each); the others, few, are returned, to be recorded as events the dispatcher delivers. The pets that
   * came to match a search with email alerts are kept for its next digest (`saved_search_email_matches`).
   */
  @GenerateSql({
    params: [
      [
        {
          change: 0,
          changeId: 'evt_1',
          listerAccountId: 1,
          changedAt: '2026-01-01T00:00:00.000Z',
          after: {
            pet: { id: 1, name: 'Rex', categoryId: 1, status: 'available', sex: 'male' },
            terms: { own: ['categoryId=1', 'status=available'], lookup: ['*', 'categoryId=1', 'status=available'] },
          },
          before: {
            pet: { id: 1, name: 'Rex', categoryId: 1, status: 'pending', sex: 'male' },
            terms: { own: ['categoryId=1', 'status=pending'], lookup: ['*', 'categoryId=1', 'status=pending'] },
          },
        },
      ],
    ],
  })
  async recordAlerts(changes: readonly JudgedChange[]): Promise<Alert[]> {
    const states = changes.flatMap(({ after, before }) => (before ? [after, before] : [after]));
    const own = states.flatMap((state, index) => state.terms.own.map((term) => ({ state: index + 1, term })));
    const lookup = changes.flatMap(({ change, after }) => after.terms.lookup.map((term) => ({ change, term })));
    // Each change's states by their position in `states` (1-based, as WITH ORDINALITY counts).
    let position = 0;
    const positions = changes.map(({ before }) => {
      const after = ++position;
      return { after, before: before ? ++position : null };
    });
    const rows = await this.sql.rows<{ change: number; saved_search_id: string; account_id: string }>(
      sql`WITH states AS MATERIALIZED (
            SELECT s.state, coalesce(o.own, '{}') AS own, ll_to_earth(s.latitude, s.longitude) AS place,
                   to_tsvector('pet_search'::regconfig, s.name || ' ' || coalesce(s.breed, '') || ' ' || coalesce(s.description, '')) AS words
              FROM unnest(${states.map((state) => state.pet.name)}::text[],
                          ${states.map((state) => state.pet.breed ?? null)}::text[],
                          ${states.map((state) => state.pet.description ?? null)}::text[],
                          ${states.map((state) => state.pet.location?.latitude ?? null)}::float8[],
                          ${states.map((state) => state.pet.location?.longitude ?? null)}::float8[])
                   WITH ORDINALITY AS s (name, breed, description, latitude, longitude, state)
              LEFT JOIN (SELECT o.state, array_agg(o.term) AS own
                           FROM unnest(${own.map((o) => o.state)}::int[], ${own.map((o) => o.term)}::text[]) AS o (state, term)
                          GROUP BY o.state) o ON o.state = s.state),
          judged AS MATERIALIZED (
            SELECT c.change, c.change_id, c.lister, c.changed_at, c.pet_id, c.pet_name, l.lookup,
                   a.own AS after_own, a.place AS after_place, a.words AS after_words,
                   b.own AS before_own, b.place AS before_place, b.words AS before_words
              FROM unnest(${changes.map((c) => c.change)}::int[], ${changes.map((c) => c.changeId)}::text[],
                          ${changes.map((c) => c.listerAccountId)}::bigint[], ${changes.map((c) => c.changedAt)}::timestamptz[],
                          ${positions.map((p) => p.after)}::int[], ${positions.map((p) => p.before)}::int[],
                          ${changes.map((c) => c.after.pet.id)}::bigint[], ${changes.map((c) => c.after.pet.name)}::text[])
                   AS c (change, change_id, lister, changed_at, after_state, before_state, pet_id, pet_name)
              JOIN states a ON a.state = c.after_state
              LEFT JOIN states b ON b.state = c.before_state
              JOIN (SELECT l.change, array_agg(l.term) AS lookup
                      FROM unnest(${lookup.map((l) => l.change)}::int[], ${lookup.map((l) => l.term)}::text[]) AS l (change, term)
                     GROUP BY l.change) l ON l.change = c.change),
          matched AS MATERIALIZED (
            SELECT c.change, c.change_id, c.pet_id, c.pet_name, s.id AS saved_search_id, s.account_id, s.email_alerts
              FROM judged c
             CROSS JOIN LATERAL (
                   SELECT * FROM saved_searches s
                    WHERE s.terms && c.lookup AND s.account_id <> c.lister
                      AND date_trunc('milliseconds', s.created_at) <= c.changed_at) s
             WHERE ${passes(AFTER)} AND NOT coalesce(${passes(BEFORE)}, false)),
          emailed AS (
            INSERT INTO saved_search_email_matches (saved_search_id, pet_id, pet_name)
            SELECT saved_search_id, pet_id, pet_name FROM matched WHERE email_alerts
            ON CONFLICT (saved_search_id, pet_id) DO NOTHING),
          subscribed AS MATERIALIZED (
            ${this.events.subscribedRecipients('saved_search.matched', sql`SELECT account_id FROM matched`)}),
          recorded AS (
            ${this.events.alertsRecordedBy(
              sql`SELECT account_id, change_id, saved_search_id FROM matched
                   WHERE account_id NOT IN (SELECT account_id FROM subscribed) ORDER BY change`,
            )})
          SELECT change, saved_search_id, account_id FROM matched
           WHERE account_id IN (SELECT account_id FROM subscribed)
           ORDER BY change, saved_search_id`,
    );
    return rows.map((row) => ({
      change: row.change,
      savedSearchId: row.saved_search_id,
      accountId: Number(row.account_id),
    }));
  }
}
