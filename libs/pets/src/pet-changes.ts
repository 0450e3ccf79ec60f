import { sql } from '@app/database';

/**
 * The change clock: how every statement that changes a pet sets `updated_at`. It is the one rule for the
 * whole of libs/pets (PetsRepository's inserts and PATCH, PetHoldsRepository's status changes through
 * orders). docs/search.md ("The updatedAt walk") describes it for readers of the API.
 *
 * A walk sorted by `updatedAt` pages by `(updated_at, id)`. It skips nothing only if every change that
 * commits after a reader saw a given `updated_at` carries a later one. So a change draws its time from the
 * one row of `pet_change_clock`. The changing transaction then holds that row's lock until it commits. The
 * next change, on any process, waits for that commit before it draws its own time. Its time is strictly
 * later: one microsecond at least, even if the server's clock stepped back. So times are in commit order.
 *
 * A statement draws one time for every pet it changes (a batch of inserts, of PATCHes, of holds). It changes
 * a pet once at most. So each change of a pet has a time of its own, and `updated_at` also serves as the
 * pet's version (its ETag). Pets changed by one statement share a time, and a walk orders them by id.
 *
 * Rules for a statement that changes a pet:
 * - Join `PET_CHANGE` and set `updated_at` from it, never from now() or a parameter:
 *   `WITH ${PET_CHANGE} UPDATE pets SET …, updated_at = pet_change.changed_at FROM pet_change WHERE …`.
 * - Draw the time before the transaction locks any pet row. Joining it in the first statement that touches
 *   pets does this. Then every changing transaction takes the clock first, and none holds a pet that another
 *   waits for while it waits for the clock. So a statement may lock several pets in any order. (A DELETE
 *   holds a pet too, but it waits for nothing else.)
 * - Draw ids (`nextval`) only from rows joined to `pet_change`. They are then drawn under the clock, so ids
 *   are in commit order too (pets.repository.ts, inserting pets).
 * - Commit promptly, since every change of every pet waits while the clock is held. So changes that
 *   requests make close together share one statement or one transaction, and hold the clock for one commit
 *   per batch. PetsRepository's batched inserts and PATCHes are one statement each, their events included,
 *   run as a transaction of their own: the clock is held from execution to the commit's flush, across no
 *   round trip. The orders' batched placings share one transaction.
 * A removal (DELETE) draws no time: a removed pet is in no walk.
 */
export const PET_CHANGE = sql`pet_change AS (
    UPDATE pet_change_clock SET changed_at = greatest(clock_timestamp(), changed_at + interval '1 microsecond')
    RETURNING changed_at
  )`;

/**
 * Takes the clock until the transaction commits, without drawing a time, in a statement of its own. The
 * transaction's next statements then read with a snapshot taken under the clock. They see every pet
 * committed before, and no pet can be added or changed until the commit. Giving an account's pets its
 * organisation needs this.
 */
export const HOLD_PET_CHANGES = sql`SELECT FROM pet_change_clock FOR NO KEY UPDATE`;
