import { ForbiddenError } from '@app/core';
import type { PetForOrder } from '@app/pets';
import { decidePlacings, Placing, placingOutcomes } from './order-placing.service';
import { PetNotAvailableError, TooManyOpenOrdersError, UnknownPetError } from './orders.errors';
import type { StoredOrder } from './orders.repository';

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

describe('placingOutcomes', () => {
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
  const going = { listerAccountId: LISTER };
  const outcomeOf = (outcome: { order: StoredOrder } | { error: Error }) =>
    'order' in outcome ? outcome.order.id : outcome.error;

  it('gives each placing that went ahead its order, and each refused one its refusal, in the batch’s order', () => {
    const refused = new UnknownPetError(99);
    const outcomes = placingOutcomes(
      [going, { error: refused }, going],
      [order(100, 5), order(101, 6)],
      new Set([5, 6]),
      3,
    );
    expect(outcomes.map(outcomeOf)).toEqual([100, refused, 101]);
  });

  it('refuses a placing the INSERT left out for the cap with too_many_open_orders', () => {
    const [placed, capped] = placingOutcomes([going, going], [order(100, 5), undefined], new Set([5]), 3);
    expect(outcomeOf(placed!)).toBe(100);
    expect(outcomeOf(capped!)).toBeInstanceOf(TooManyOpenOrdersError);
  });

  it('refuses the placing of a pet another batch held first, alone', () => {
    const outcomes = placingOutcomes([going, going], [order(100, 5), order(101, 7)], new Set([7]), 3);
    expect(outcomeOf(outcomes[0]!)).toBeInstanceOf(PetNotAvailableError);
    expect(outcomeOf(outcomes[1]!)).toBe(101);
  });
});
