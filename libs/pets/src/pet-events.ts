import type { NewEvent } from '@app/events';
import type { StoredPet } from './pet-row';

export type PetEventType = 'pet.created' | 'pet.updated' | 'pet.deleted';

/** The event of a change of the pet, to its lister (CONTRACT 11): none for an older pet nobody listed. */
export function petEvents(type: PetEventType, stored: StoredPet): NewEvent[] {
  const { listerAccountId, pet } = stored;
  return listerAccountId === undefined ? [] : [{ recipientAccountId: listerAccountId, type, object: pet }];
}
