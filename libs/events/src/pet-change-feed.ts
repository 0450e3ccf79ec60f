/** A pet event as the saved-search matcher reads it: its lister and the pet right after the change. */
export interface PetChangeEvent {
  id: string;
  seq: number;
  listerAccountId: number;
  type: 'pet.created' | 'pet.updated' | 'pet.deleted';
  pet: Record<string, unknown>;
}

/**
 * The outbox as the saved-search matcher reads it, its second reader beside the dispatcher: the pet changes
 * not matched yet, claimed in the caller's transaction. Provided by the events' own repository, so that
 * only it writes `events`; the token for Nest's injection too.
 */
export abstract class PetChangeFeed {
  /**
   * Claims up to `limit` pet events not matched yet, oldest first, of the pets of `partition` (pet id
   * modulo `partitions`), and marks them matched.
   */
  abstract claimUnmatchedPetEvents(limit: number, partition: number, partitions: number): Promise<PetChangeEvent[]>;
}
