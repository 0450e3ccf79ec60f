import { ForbiddenError } from '@app/core';
import type { Sql, StatementBatcher } from '@app/database';
import type { EventsRecorder } from '@app/events';
import type { PetForOrder, PetHolds } from '@app/pets';
import { decidePlacings, OrderPlacingService, Placing } from './order-placing.service';
import { PetNotAvailableError, TooManyOpenOrdersError, UnknownPetError } from './orders.errors';
import type { OrdersRepository, StoredOrder } from './orders.repository';
import { OrdersSettings } from './orders.settings';

const LISTER = 20;
const available: PetForOrder = { status: 'available', listerAccountId: LISTER, openOrderId: null };

describe('decidePlacings', () => {
  const decide = (placings: Placing[], pets: Record<number, PetForOrder>) =>
    decidePlacings(placings, new Map(Object.entries(pets).map(([id, pet]) => [Number(id), pet])));
  const errorOf = (decision: object) => ('error' in decision ? decision.error : undefined);

  it('lets a placing of an available pet listed by another account go ahead, naming its lister', () => {
    expect(decide([{ adopterAccountId: 1, petId: 5 }], { 5: available })).toEqual([{ listerAccountId: LISTER }]);
  });

  it.each([
    ['an unknown pet', {}, UnknownPetError],
    ['the adopter’s own pet', { 5: { ...available, listerAccountId: 1 } }, ForbiddenError],
    ['a pending pet', { 5: { ...available, status: 'pending' as const } }, PetNotAvailableError],
    ['a held pet', { 5: { ...available, openOrderId: 9 } }, PetNotAvailableError],
    ['a pet without a lister', { 5: { ...available, listerAccountId: null } }, PetNotAvailableError],
  ])('refuses %s', (_case, pets, error) => {
    expect(errorOf(decide([{ adopterAccountId: 1, petId: 5 }], pets)[0]!)).toBeInstanceOf(error);
  });

  it('lets only the first of a batch’s placings for one pet go ahead', () => {
    const decisions = decide(
      [
        { adopterAccountId: 1, petId: 5 },
        { adopterAccountId: 2, petId: 5 },
      ],
      { 5: available },
    );
    expect(decisions[0]).toEqual({ listerAccountId: LISTER });
    expect(errorOf(decisions[1]!)).toBeInstanceOf(PetNotAvailableError);
  });
});

describe('OrderPlacingService', () => {
  const order = (id: number, petId: number): StoredOrder => ({
    id,
    petId,
    adopterAccountId: 1,
    listerAccountId: LISTER,
    status: 'placed',
    note: null,
    cancellationReason: null,
    expiresAt: new Date(),
    createdAt: new Date(),
    updatedAt: new Date(),
  });

  function setUp() {
    const sql = {
      transaction: <T>(work: () => Promise<T>) => work(),
      batched: <T, R>(batcher: StatementBatcher<T, R>, item: T) => batcher.add(item),
    } satisfies Partial<Sql>;
    const orders = {
      lockPlacings: jest.fn(),
      insertPlaced: jest.fn(async (placings: Placing[]): Promise<Array<StoredOrder | undefined>> =>
        placings.map((p, i) => order(100 + i, p.petId)),
      ),
      deleteUnheld: jest.fn(),
    } satisfies Partial<OrdersRepository>;
    const pets = {
      petsForOrders: jest.fn(async () => new Map([5, 6, 7].map((id) => [id, available]))),
      hold: jest.fn(async (holds: Array<{ petId: number }>) => new Set(holds.map((hold) => hold.petId))),
    } satisfies Partial<PetHolds>;
    const events = { recordAll: jest.fn() } satisfies Partial<EventsRecorder>;
    const placements = new OrderPlacingService(
      sql as unknown as Sql,
      orders as unknown as OrdersRepository,
      pets as unknown as PetHolds,
      new OrdersSettings(),
      events as unknown as EventsRecorder,
    );
    return { placements, orders, pets, events };
  }

  it('places the placings made together in one batch, each getting its own order or refusal', async () => {
    const { placements, orders, pets } = setUp();
    const outcomes = await Promise.allSettled([
      placements.place({ adopterAccountId: 1, petId: 5 }),
      placements.place({ adopterAccountId: 2, petId: 99 }),
      placements.place({ adopterAccountId: 2, petId: 6 }),
    ]);
    expect(outcomes[0]).toMatchObject({ status: 'fulfilled', value: { id: 100, petId: 5 } });
    expect(outcomes[1]).toMatchObject({ status: 'rejected', reason: expect.any(UnknownPetError) });
    expect(outcomes[2]).toMatchObject({ status: 'fulfilled', value: { id: 101, petId: 6 } });
    expect(orders.lockPlacings).toHaveBeenCalledTimes(1);
    expect(orders.lockPlacings).toHaveBeenCalledWith([1, 2]);
    expect(pets.hold).toHaveBeenCalledWith([
      { petId: 5, orderId: 100, listerAccountId: LISTER },
      { petId: 6, orderId: 101, listerAccountId: LISTER },
    ]);
    expect(orders.deleteUnheld).not.toHaveBeenCalled();
  });

  it('removes the order of a pet another batch held first, and refuses that placing alone', async () => {
    const { placements, orders, pets, events } = setUp();
    pets.hold.mockResolvedValue(new Set([7]));
    const outcomes = await Promise.allSettled([
      placements.place({ adopterAccountId: 1, petId: 5 }),
      placements.place({ adopterAccountId: 2, petId: 7 }),
    ]);
    expect(outcomes[0]).toMatchObject({ status: 'rejected', reason: expect.any(PetNotAvailableError) });
    expect(outcomes[1]).toMatchObject({ status: 'fulfilled', value: { petId: 7 } });
    expect(orders.deleteUnheld).toHaveBeenCalledWith([100]);
    // Only the order placed is told, to both parties.
    expect(events.recordAll).toHaveBeenCalledWith([
      expect.objectContaining({
        recipientAccountId: 1,
        type: 'order.placed',
        object: expect.objectContaining({ petId: 7 }),
      }),
      expect.objectContaining({ recipientAccountId: LISTER, type: 'order.placed' }),
    ]);
  });

  it('refuses the placings the INSERT left out for the cap with too_many_open_orders', async () => {
    const { placements, orders, pets } = setUp();
    orders.insertPlaced.mockResolvedValue([order(100, 5), undefined]);
    const outcomes = await Promise.allSettled([
      placements.place({ adopterAccountId: 1, petId: 5 }),
      placements.place({ adopterAccountId: 1, petId: 6 }),
    ]);
    expect(outcomes[0]).toMatchObject({ status: 'fulfilled', value: { id: 100 } });
    expect(outcomes[1]).toMatchObject({ status: 'rejected', reason: expect.any(TooManyOpenOrdersError) });
    expect(orders.insertPlaced).toHaveBeenCalledWith(
      [expect.objectContaining({ petId: 5 }), expect.objectContaining({ petId: 6 })],
      172_800,
      3,
    );
    expect(pets.hold).toHaveBeenCalledWith([{ petId: 5, orderId: 100, listerAccountId: LISTER }]);
  });

  it('holds nothing when no placing of the batch may go ahead', async () => {
    const { placements, orders, pets } = setUp();
    await expect(placements.place({ adopterAccountId: 1, petId: 99 })).rejects.toBeInstanceOf(UnknownPetError);
    expect(orders.insertPlaced).not.toHaveBeenCalled();
    expect(pets.hold).not.toHaveBeenCalled();
  });
});
