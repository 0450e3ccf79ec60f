import type { OrderStatus } from './order-transitions';

/** An order as what follows it needs it: which it is, its pet and the status it has just reached. */
export interface FollowedOrder {
  id: number;
  petId: number;
  status: OrderStatus;
}

/**
 * What another context does when an order changes status, in the transaction of the change (after the
 * order's and its pet's). Declared here and provided by the context that follows orders, so that the store
 * names none of them; the token for Nest's injection too, optional: without a follower nothing follows.
 */
export abstract class OrderFollower {
  abstract orderChanged(order: FollowedOrder): Promise<void>;
}
