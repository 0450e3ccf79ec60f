import { AppError, Batcher, ForbiddenError } from '@app/core';
import { Sql } from '@app/database';
import { EventsRecorder } from '@app/events';
import { PetForOrder, PetHolds } from '@app/pets';
import { Injectable } from '@nestjs/common';
import { orderEvents } from './order-events';
import { PLACEMENT } from './order-transitions';
import { PetNotAvailableError, TooManyOpenOrdersError, UnknownPetError } from './orders.errors';
import { OrdersRepository, StoredOrder } from './orders.repository';
import { OrdersSettings } from './orders.settings';

/** One adopter's request to place an order. */
export interface Placing {
  adopterAccountId: number;
  petId: number;
  note?: string;
  /** Not counted against the open-orders cap, nor counting in it: the order an approved application places. */
  uncapped?: boolean;
}

type Decision = { listerAccountId: number } | { error: AppError };
type Outcome = { order: StoredOrder } | { error: AppError };

/**
 * Which placings of a batch may go ahead as far as their pets tell, in the batch's order: the pet
 * exists, is not the adopter's own, is available, unheld, has a lister and no earlier placing of the
 * batch took it. (The open-orders cap is counted by the INSERT itself.)
 */
export function decidePlacings(placings: Placing[], pets: Map<number, PetForOrder>): Decision[] {
  const taken = new Set<number>();
  return placings.map(({ adopterAccountId, petId }): Decision => {
    const pet = pets.get(petId);
    if (!pet) return { error: new UnknownPetError(petId) };
    if (pet.listerAccountId === adopterAccountId)
      return { error: new ForbiddenError(`Pet ${petId} is listed by your account.`) };
    if (pet.status !== PLACEMENT.pet.from || pet.openOrderId !== null || taken.has(petId))
      return { error: new PetNotAvailableError(petId) };
    // Nobody could decide an order for a pet listed before listers were recorded.
    if (pet.listerAccountId === null)
      return { error: new PetNotAvailableError(petId, 'has no lister to decide an order') };
    taken.add(petId);
    return { listerAccountId: pet.listerAccountId };
  });
}

/**
 * Each placing's outcome, in the batch's order: refused by its pet (`decisions`), by the open-orders cap
 * (the INSERT left it out of `inserted`, which has one entry per placing that went ahead), by a hold another
 * batch took first (its pet is not in `held`), or placed. A batch answers each placing apart: a refusal is
 * one placing's outcome, not the batch's failure.
 */
export function placingOutcomes(
  decisions: Decision[],
  inserted: Array<StoredOrder | undefined>,
  held: Set<number>,
  maxOpenOrders: number,
): Outcome[] {
  const orders = inserted.values();
  return decisions.map((decision) => {
    if ('error' in decision) return decision;
    const order = orders.next().value;
    if (!order) return { error: new TooManyOpenOrdersError(maxOpenOrders) };
    return held.has(order.petId) ? { order } : { error: new PetNotAvailableError(order.petId) };
  });
}

const toHold = (order: StoredOrder) => ({
  petId: order.petId,
  orderId: order.id,
  listerAccountId: order.listerAccountId,
});

/**
 * Places orders. Placings that requests make close together share one transaction, which holds their pets
 * with one statement: the change clock (`pet-changes.ts`) is then held for one commit per batch.
 */
@Injectable()
export class OrderPlacingService {
  private readonly batches = new Batcher<Placing, Outcome>((placings) => this.placeBatch(placings), 0);

  constructor(
    private readonly sql: Sql,
    private readonly orders: OrdersRepository,
    private readonly pets: PetHolds,
    private readonly settings: OrdersSettings,
    private readonly events: EventsRecorder,
  ) {}

  /** The placed order, or the placing's own refusal. */
  async place(placing: Placing): Promise<StoredOrder> {
    const outcome = await this.sql.batched(this.batches, placing);
    if ('error' in outcome) throw outcome.error;
    return outcome.order;
  }

  /**
   * Under the adopters' placing locks (so the cap counts every committed placing), decides each placing
   * by its pet, inserts the orders that may go ahead within the cap, then holds their pets: last, so the clock and the pets' rows
   * are held for the least time. A pet held meanwhile by another process's batch fails its placing
   * alone, whose order is removed again before the commit. The placed orders' `order.placed` events, to
   * both parties, commit with them.
   */
  private placeBatch(placings: Placing[]): Promise<Outcome[]> {
    return this.sql.transaction(async () => {
      const adopters = [...new Set(placings.map((placing) => placing.adopterAccountId))];
      await this.orders.lockPlacings(adopters);
      const pets = await this.pets.petsForOrders([...new Set(placings.map((placing) => placing.petId))]);
      const decisions = decidePlacings(placings, pets);
      const going = placings.flatMap((placing, index) => {
        const decision = decisions[index]!;
        return 'listerAccountId' in decision ? [{ ...placing, listerAccountId: decision.listerAccountId }] : [];
      });
      const { ORDER_HOLD_SECONDS, ORDERS_MAX_OPEN_PER_ACCOUNT } = this.settings;
      if (going.length === 0) return placingOutcomes(decisions, [], new Set(), ORDERS_MAX_OPEN_PER_ACCOUNT);
      const inserted = await this.orders.insertPlaced(going, ORDER_HOLD_SECONDS, ORDERS_MAX_OPEN_PER_ACCOUNT);
      const orders = inserted.filter((order) => order !== undefined);
      const held = orders.length > 0 ? await this.pets.hold(orders.map(toHold)) : new Set<number>();
      const unheld = orders.filter((order) => !held.has(order.petId));
      if (unheld.length > 0) await this.orders.deleteUnheld(unheld.map((order) => order.id));
      await this.events.recordAll(orders.filter((order) => held.has(order.petId)).flatMap(orderEvents));
      return placingOutcomes(decisions, inserted, held, ORDERS_MAX_OPEN_PER_ACCOUNT);
    });
  }
}
