import { sql, type SqlFragment } from '@app/database';
import type { NewEvent } from '@app/events';
import { PET_OBJECT, type StoredPet } from './pet-row';

export type PetEventType = 'pet.created' | 'pet.updated' | 'pet.deleted';

/**
 * The event of a change of the pet, to its lister: none for an older pet nobody listed. It
 * happened at the pet's `updatedAt`; a removal draws no time (pet-changes.ts), so its event takes the insert's.
 */
export function petEvents(type: PetEventType, stored: StoredPet): NewEvent[] {
  const { listerAccountId, pet } = stored;
  if (listerAccountId === undefined) return [];
  const createdAt = type === 'pet.deleted' ? undefined : pet.updatedAt;
  return [{ recipientAccountId: listerAccountId, type, object: pet, createdAt }];
}

/**
 * `petEvents` of the pets a statement has just inserted or changed, as rows for `EventsRecorder.recordedBy`:
 * `changed` names the statement's rows (`PET_COLUMNS` and `position`), and `ids[position - 1]` names each
 * event, in the batch's order (their `seq`s follow it). They happened at the pet's `updatedAt`, to the
 * millisecond as the Pet shows it.
 */
export const petEventRows = (type: Exclude<PetEventType, 'pet.deleted'>, changed: SqlFragment, ids: string[]) => sql`
  SELECT (${ids}::text[])[position::int] AS id, lister_account_id AS account_id, ${type}::text AS type,
         ${PET_OBJECT} AS object, date_trunc('milliseconds', updated_at) AS created_at
    FROM ${changed}
   WHERE lister_account_id IS NOT NULL
   ORDER BY position`;
