/**
 * What another context does when a pet is removed from the catalogue, in the transaction of the removal.
 * Declared here and provided by the context that follows pets, so that the catalogue names none of them;
 * the token for Nest's injection too, optional: without a follower nothing follows.
 */
export abstract class PetRemovalFollower {
  abstract petRemoved(petId: number): Promise<void>;
}
