import { ForbiddenError } from '@app/core';
import type { Sql } from '@app/database';
import type { EventsRecorder } from '@app/events';
import type { PetHolds } from '@app/pets';
import type { InventoryRepository } from './inventory.repository';
import type { OrderExpiryScheduler } from './order-expiry.scheduler';
import type { OrderPlacingService } from './order-placing.service';
import { ORDER_TRANSITIONS } from './order-transitions';
import { InvalidOrderStateError, OrderNotFoundError, PetNotAvailableError } from './orders.errors';
import type { OrdersRepository, StoredOrder } from './orders.repository';
import { OrdersService } from './orders.service';

const ADOPTER = 10;
const LISTER = 20;
const AT = new Date('2026-06-01T12:00:00Z');

const stored = (changes: Partial<StoredOrder> = {}): StoredOrder => ({
  id: 7,
  petId: 3,
  adopterAccountId: ADOPTER,
  listerAccountId: LISTER,
  status: 'placed',
  note: null,
  cancellationReason: null,
  expiresAt: new Date(AT.getTime() + 3600_000),
  createdAt: AT,
  updatedAt: AT,
  ...changes,
});

function setUp() {
  const sql = { transaction: <T>(work: () => Promise<T>) => work() } satisfies Partial<Sql>;
  const orders = {
    transition: jest.fn(),
    findById: jest.fn(),
    expire: jest.fn(),
  } satisfies Partial<OrdersRepository>;
  const pets = {
    setHeldStatus: jest.fn(async () => true),
    setUnheldStatus: jest.fn(async () => true),
  } satisfies Partial<PetHolds>;
  const expiry = { schedule: jest.fn() } satisfies Partial<OrderExpiryScheduler>;
  const placements = { place: jest.fn(async () => stored({ note: 'Hi' })) } satisfies Partial<OrderPlacingService>;
  const events = { recordAll: jest.fn() } satisfies Partial<EventsRecorder>;
  const service = new OrdersService(
    sql as unknown as Sql,
    orders as unknown as OrdersRepository,
    pets as unknown as PetHolds,
    {} satisfies Partial<InventoryRepository> as InventoryRepository,
    placements as unknown as OrderPlacingService,
    expiry as unknown as OrderExpiryScheduler,
    events as unknown as EventsRecorder,
  );
  return { service, orders, pets, expiry, placements, events };
}

describe('OrdersService', () => {
  it('places through the placements, then schedules the hold’s expiry', async () => {
    const { service, placements, expiry } = setUp();
    const order = await service.place(ADOPTER, { petId: 3, note: 'Hi' });
    expect(order).toMatchObject({ id: 7, status: 'placed', role: 'adopter', note: 'Hi' });
    expect(placements.place).toHaveBeenCalledWith({ adopterAccountId: ADOPTER, petId: 3, note: 'Hi' });
    expect(expiry.schedule).toHaveBeenCalledWith(7, stored().expiresAt);
  });

  it('schedules nothing for a placing refused', async () => {
    const { service, placements, expiry } = setUp();
    placements.place.mockRejectedValue(new PetNotAvailableError(3));
    await expect(service.place(ADOPTER, { petId: 3 })).rejects.toBeInstanceOf(PetNotAvailableError);
    expect(expiry.schedule).not.toHaveBeenCalled();
  });

  describe('transition', () => {
    it('records the events and changes the pet as the table says once the guarded UPDATE changed the order', async () => {
      const { service, orders, pets, events } = setUp();
      orders.transition.mockResolvedValue(stored({ status: 'approved', expiresAt: null }));
      const order = await service.transition('approve', LISTER, 7);
      expect(order).toMatchObject({ status: 'approved', role: 'lister' });
      expect(orders.transition).toHaveBeenCalledWith(7, LISTER, ORDER_TRANSITIONS.approve, undefined);
      expect(pets.setHeldStatus).toHaveBeenCalledWith(7, 3, 'sold', false);
      expect(events.recordAll).toHaveBeenCalledWith([
        {
          recipientAccountId: ADOPTER,
          type: 'order.approved',
          object: { ...order, role: 'adopter' },
          createdAt: order.updatedAt,
        },
        { recipientAccountId: LISTER, type: 'order.approved', object: order, createdAt: order.updatedAt },
      ]);
    });

    it('records requested as the reason of a cancellation without one', async () => {
      const { service, orders, pets } = setUp();
      orders.transition.mockResolvedValue(stored({ status: 'cancelled', cancellationReason: 'requested' }));
      await service.transition('cancel', ADOPTER, 7);
      expect(orders.transition).toHaveBeenCalledWith(7, ADOPTER, ORDER_TRANSITIONS.cancel, 'requested');
      expect(pets.setHeldStatus).toHaveBeenCalledWith(7, 3, 'available', true);
    });

    it('sets a returned pet’s status only if no order holds it', async () => {
      const { service, orders, pets } = setUp();
      orders.transition.mockResolvedValue(stored({ status: 'returned', expiresAt: null }));
      await service.transition('return', LISTER, 7, 'Allergies');
      expect(pets.setUnheldStatus).toHaveBeenCalledWith(3, 'available');
      expect(pets.setHeldStatus).not.toHaveBeenCalled();
    });

    it.each([
      ['a stranger', 99, stored(), OrderNotFoundError],
      ['an unknown order', LISTER, undefined, OrderNotFoundError],
      ['the adopter asking for a lister’s transition', ADOPTER, stored(), ForbiddenError],
      ['an order in another state', LISTER, stored({ status: 'cancelled' }), InvalidOrderStateError],
    ])('explains a refused UPDATE for %s', async (_case, caller, now, error) => {
      const { service, orders, pets } = setUp();
      orders.transition.mockResolvedValue(undefined);
      orders.findById.mockResolvedValue(now);
      await expect(service.transition('approve', caller, 7)).rejects.toBeInstanceOf(error);
      expect(pets.setHeldStatus).not.toHaveBeenCalled();
    });

    it('answers an order already in the asked state unchanged, with no event', async () => {
      const { service, orders, pets, events } = setUp();
      orders.transition.mockResolvedValue(undefined);
      orders.findById.mockResolvedValue(stored({ status: 'approved', expiresAt: null }));
      expect(await service.transition('approve', LISTER, 7)).toMatchObject({ status: 'approved', role: 'lister' });
      expect(pets.setHeldStatus).not.toHaveBeenCalled();
      expect(events.recordAll).not.toHaveBeenCalled();
    });
  });

  describe('expire', () => {
    it('frees the pet of an order it expired, and tells both parties it was cancelled', async () => {
      const { service, orders, pets, events } = setUp();
      orders.expire.mockResolvedValue(stored({ status: 'cancelled', cancellationReason: 'expired' }));
      expect(await service.expire(7)).toBeUndefined();
      expect(pets.setHeldStatus).toHaveBeenCalledWith(7, 3, 'available', true);
      const cancelled = expect.objectContaining({ status: 'cancelled', cancellationReason: 'expired' });
      expect(events.recordAll).toHaveBeenCalledWith([
        { recipientAccountId: ADOPTER, type: 'order.cancelled', object: cancelled, createdAt: expect.any(String) },
        { recipientAccountId: LISTER, type: 'order.cancelled', object: cancelled, createdAt: expect.any(String) },
      ]);
    });

    it('returns when the hold runs out for an order that is placed and not yet due, and nothing once decided', async () => {
      const { service, orders, pets } = setUp();
      orders.expire.mockResolvedValue(undefined);
      orders.findById.mockResolvedValueOnce(stored());
      expect(await service.expire(7)).toEqual(stored().expiresAt);
      orders.findById.mockResolvedValueOnce(stored({ status: 'approved', expiresAt: null }));
      expect(await service.expire(7)).toBeUndefined();
      expect(pets.setHeldStatus).not.toHaveBeenCalled();
    });
  });
});
