import { Sql } from '@app/database';
import { EventsRecorder } from '@app/events';
import { PetHolds } from '@app/pets';
import { Injectable, Logger, Optional } from '@nestjs/common';
import type { NewOrderDto, OrderDto } from './dto/order.dto';
import { Inventory, InventoryRepository } from './inventory.repository';
import { orderEvents } from './order-events';
import { OrderExpiryScheduler } from './order-expiry.scheduler';
import { OrderFollower } from './order-follower';
import { OrderPlacingService } from './order-placing.service';
import { decideTransition, ORDER_TRANSITIONS, OrderOperation, OrderRole, PetChange } from './order-transitions';
import { roleOf, toOrderDto } from './order-view';
import { InvalidOrderStateError, OrderNotFoundError } from './orders.errors';
import { OrderListing, OrdersRepository, StoredOrder } from './orders.repository';

export interface OrderPage {
  orders: OrderDto[];
  /** Id of the last order returned, when older ones follow. */
  lastId?: number;
}

/**
 * The store's rules. Each change of an order and the change of its pet are one transaction; the
 * order's guarded UPDATE comes first and locks it, so transitions of one order run one after the other.
 */
@Injectable()
export class OrdersService {
  private readonly logger = new Logger(OrdersService.name);

  constructor(
    private readonly sql: Sql,
    private readonly orders: OrdersRepository,
    private readonly pets: PetHolds,
    private readonly inventory: InventoryRepository,
    private readonly placements: OrderPlacingService,
    private readonly expiry: OrderExpiryScheduler,
    private readonly events: EventsRecorder,
    @Optional() private readonly follower?: OrderFollower,
  ) {}

  async place(adopterAccountId: number, order: NewOrderDto): Promise<OrderDto> {
    const placed = await this.placements.place({ adopterAccountId, petId: order.petId, note: order.note });
    this.scheduleExpiry(placed);
    return toOrderDto(placed, 'adopter');
  }

  /**
   * Places the order an approved application asks for its applicant, in the caller's transaction: no
   * note, and outside the adopter's open-orders cap. Refused as any placing is when the pet is not
   * available (`pet_not_available`).
   */
  async placeForApplication(adopterAccountId: number, petId: number): Promise<OrderDto> {
    const placed = await this.placements.place({ adopterAccountId, petId, uncapped: true });
    this.scheduleExpiry(placed);
    return toOrderDto(placed, 'adopter');
  }

  async get(accountId: number, orderId: number): Promise<OrderDto> {
    const { order, role } = await this.findForParty(accountId, orderId);
    return toOrderDto(order, role);
  }

  async list(accountId: number, listing: OrderListing): Promise<OrderPage> {
    const rows = await this.orders.list(accountId, listing);
    const orders = rows.slice(0, listing.limit).map((order) => toOrderDto(order, roleOf(order, accountId)!));
    return { orders, lastId: rows.length > listing.limit ? orders[orders.length - 1]!.id : undefined };
  }

  readInventory(): Promise<Inventory> {
    return this.inventory.read();
  }

  /**
   * A party's transition of an order (`ORDER_TRANSITIONS`). When the guarded
   * UPDATE changes nothing, the order as it is now says why: a stranger's (404), a party the
   * transition does not allow (403), the state already reached (200, unchanged), or another state (409).
   */
  transition(operation: Exclude<OrderOperation, 'expire'>, accountId: number, orderId: number, reason?: string) {
    const transition = ORDER_TRANSITIONS[operation];
    return this.sql.transaction(async (): Promise<OrderDto> => {
      const cancelReason = transition.to === 'cancelled' ? (reason ?? 'requested') : reason;
      const changed = await this.orders.transition(orderId, accountId, transition, cancelReason);
      if (changed) {
        await this.changed(changed, transition.pet);
        return toOrderDto(changed, roleOf(changed, accountId)!);
      }
      const { order, role } = await this.findForParty(accountId, orderId);
      if (decideTransition(transition, order.status, role) === 'unchanged') return toOrderDto(order, role);
      // Not reached: states only move forward, so a state the UPDATE refused is refused here too.
      throw new InvalidOrderStateError(operation, order.status);
    });
  }

  /**
   * Cancels a placed order whose hold ran out, and frees its pet. Returns when the hold runs out if it
   * has not yet (a job that ran early), else nothing: expired now, or no longer placed.
   */
  expire(orderId: number): Promise<Date | undefined> {
    return this.sql.transaction(async () => {
      const expired = await this.orders.expire(orderId);
      if (expired) {
        await this.changed(expired, ORDER_TRANSITIONS.expire.pet);
        return undefined;
      }
      const order = await this.orders.findById(orderId);
      return order?.status === 'placed' ? order.expiresAt! : undefined;
    });
  }

  /**
   * Cancels up to `limit` open orders of a deleted account (`account_deleted`), each with its events, its pet
   * freed and its application closed, as a party's cancellation does; returns how many it cancelled.
   */
  cancelOpenOf(accountId: number, limit: number): Promise<number> {
    return this.sql.transaction(async () => {
      const cancelled = await this.orders.cancelOpenOf(accountId, limit);
      for (const order of cancelled) await this.changed(order, ORDER_TRANSITIONS.cancel.pet);
      return cancelled.length;
    });
  }

  /** Ids of placed orders whose hold ran out. */
  findExpired(limit: number): Promise<number[]> {
    return this.orders.findExpired(limit);
  }

  private async findForParty(accountId: number, orderId: number): Promise<{ order: StoredOrder; role: OrderRole }> {
    const order = await this.orders.findById(orderId);
    const role = order && roleOf(order, accountId);
    if (!order || !role) throw new OrderNotFoundError(orderId);
    return { order, role };
  }

  private scheduleExpiry(placed: StoredOrder): void {
    // The answer does not wait for Redis: a hold whose job is late or lost is the sweep's.
    void this.expiry.schedule(placed.id, placed.expiresAt!);
  }

  /** What follows a transition, in its transaction: its events, its pet's change, then its follower's. */
  private async changed(order: StoredOrder, change: PetChange): Promise<void> {
    await this.events.recordAll(orderEvents(order));
    await this.changePet(order, change);
    await this.follower?.orderChanged({ id: order.id, petId: order.petId, status: order.status });
  }

  private async changePet(order: StoredOrder, change: PetChange): Promise<void> {
    if (change.hold === 'unheld') {
      // Removed from the catalogue, or held by a later order since the delivery: the pet stays as it is.
      await this.pets.setUnheldStatus(order.petId, change.status);
      return;
    }
    const changed = await this.pets.setHeldStatus(order.id, order.petId, change.status, change.hold === 'release');
    // The catalogue refuses to change or remove a held pet, so an open order always finds its pet.
    if (!changed) this.logger.warn({ orderId: order.id, petId: order.petId }, 'an open order did not hold its pet');
  }
}
