import type { PetStatus } from './pet-status';

/** What placing an order needs to know of a pet. */
export interface PetForOrder {
  status: PetStatus;
  /** The account that listed it; null for pets created before listers were recorded. */
  listerAccountId: number | null;
  /** The order that holds it, while one is `placed` or `approved`. */
  openOrderId: number | null;
}

/** An order's hold on its pet, taken only from the lister read before. */
export interface PetHold {
  petId: number;
  orderId: number;
  listerAccountId: number;
}

/**
 * What the orders need of the pets: to read the pets an order names, to hold a pet for an order, and to
 * set the status of a pet an order holds or held. Provided by the pets' own repository (PetHoldsRepository),
 * so that the orders change the `pets` table only through it; the token for Nest's injection too.
 */
export abstract class PetHolds {
  /** The pets named, by id; a pet that does not exist is absent. */
  abstract petsForOrders(petIds: number[]): Promise<Map<number, PetForOrder>>;

  /**
   * Holds each pet for its order and makes it `pending`, if it is still available, unheld and listed by
   * the lister read before. Returns the ids of the pets held.
   */
  abstract hold(holds: PetHold[]): Promise<Set<number>>;

  /**
   * Sets the status of the pet `orderId` holds, keeping the hold or releasing it; false when the order
   * holds no pet.
   */
  abstract setHeldStatus(orderId: number, petId: number, status: PetStatus, release: boolean): Promise<boolean>;

  /** Sets the status of a pet no order holds; false when it is held or gone. */
  abstract setUnheldStatus(petId: number, status: PetStatus): Promise<boolean>;
}
