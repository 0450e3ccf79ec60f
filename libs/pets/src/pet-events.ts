import type { NewEvent } from '@app/events';
import type { StoredPet } from './pet-row';

export type PetEventType = 'pet.created' | 'pet.updated' | 'pet.deleted';

/**
 * The event of a change of the pet, to its lister (CONTRACT 11): none for an older pet nobody listed. It
 * happened at the pet's `updatedAt`; a removal draws no time (pet-changes.ts), so its event takes the insert's.
 */
export function petEvents(type: PetEventType, stored: StoredPet): NewEvent[] {
  const { listerAccountId, pet } = stored;
  if (listerAccountId === undefined) return [];
  const createdAt = type === 'pet.deleted' ? undefined : pet.updatedAt;
  return [{ recipientAccountId: listerAccountId, type, object: pet, createdAt }];
}
