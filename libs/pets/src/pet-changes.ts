import { sql } from '@app/database';

/**
 * How every statement that changes a pet sets `updated_at`: the one rule for the whole of libs/pets
 * (PetsRepository's inserts and PATCH, PetHoldsRepository's status changes through orders).
 *
 * A walk sorted by `updatedAt` pages by `(updated_at, id)`. It skips nothing only if a change that commits
 * after a reader has seen a given `updated_at` carries a later one. So the time of a change is drawn from
 * the one row of `pet_change_clock`, whose row lock the changing transaction then holds until it commits:
 * the next change, on any process, waits for that commit before drawing its own time, which is strictly
 * later (one microsecond at least, even if the server's clock stepped back). Times are thus in commit
 * order. A statement draws one time for every pet it changes (a batch of inserts, of PATCHes, of holds), and
 * changes a pet once at most, so each change of a pet gets a time of its own: `updated_at` also serves as the
 * pet's version (its ETag). Pets changed by one statement share a time, and a walk orders them by id.
 *
 * Rules for a statement that changes a pet:
 * - Join `PET_CHANGE` (`WITH ${PET_CHANGE} UPDATE pets SET …, updated_at = pet_change.changed_at
 *   FROM pet_change WHERE …`) and set `updated_at` from it, never from now() or a parameter.
 * - Draw the time before locking any pet row in the transaction (joining it in the first statement that
 *   touches pets does this): every changing transaction then takes the clock first, and none can hold a
 *   pet another waits for while waiting for the clock itself. So a statement that changes several pets
 *   may lock them in any order: no other change holds a pet meanwhile (a DELETE holds one, and waits for
 *   no other).
 * - Draw ids (`nextval`) only from rows joined to `pet_change`: they are then drawn once the clock is held, so
 *   ids too are in commit order (pets.repository.ts, inserting pets).
 * - Commit promptly: every change of every pet waits while the clock is held. Changes that requests make
 *   close together therefore share one statement (PetsRepository's batched inserts and PATCHes, which record
 *   their events in that statement and run as a transaction of their own, so that the clock is held from
 *   PostgreSQL's execution to the commit's flush and across no round trip) or one transaction (the orders'
 *   batched placings): the clock is held for one commit per batch rather than per change.
 * A removal (DELETE) draws no time: a removed pet is in no walk.
 */
export const PET_CHANGE = sql`pet_change AS (
    UPDATE pet_change_clock SET changed_at = greatest(clock_timestamp(), changed_at + interval '1 microsecond')
    RETURNING changed_at
  )`;

/**
 * Takes the clock until the transaction commits without drawing a time, in a statement of its own: the
 * transaction's next statements read with a snapshot taken once it is held, so they see every pet committed
 * before and no pet can be added or changed until it commits (giving an account's pets its organisation).
 */
export const HOLD_PET_CHANGES = sql`SELECT FROM pet_change_clock FOR NO KEY UPDATE`;
