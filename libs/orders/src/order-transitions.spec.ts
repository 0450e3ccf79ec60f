import { ForbiddenError } from '@app/core';
import {
  decideTransition,
  OPEN_ORDER_STATUSES,
  ORDER_STATUSES,
  ORDER_TRANSITIONS,
  OrderActor,
  OrderStatus,
  transitionDescription,
} from './order-transitions';
import { InvalidOrderStateError } from './orders.errors';

const ACTORS: OrderActor[] = ['adopter', 'lister', 'worker'];
const transitions = Object.values(ORDER_TRANSITIONS);

describe('the order state machine', () => {
  it('has exactly the five statuses of the contract', () => {
    expect(ORDER_STATUSES).toEqual(['placed', 'approved', 'delivered', 'cancelled', 'returned']);
  });

  it.each([
    ['approve', ['lister'], ['placed'], 'approved', 'sold'],
    ['deliver', ['lister'], ['approved'], 'delivered', 'sold'],
    ['cancel', ['adopter', 'lister'], ['placed', 'approved'], 'cancelled', 'available'],
    ['return', ['lister'], ['delivered'], 'returned', 'available'],
    ['expire', ['worker'], ['placed'], 'cancelled', 'available'],
  ] as const)('lets the %s transition go from %j by %j to %s, the pet becoming %s', (operation, who, from, to, pet) => {
    expect(ORDER_TRANSITIONS[operation]).toMatchObject({ who, from, to, pet: { status: pet } });
  });

  it('holds the pet exactly while the order is open: approving keeps the hold, leaving an open state releases it', () => {
    for (const transition of transitions) {
      const opens = OPEN_ORDER_STATUSES.includes(transition.to);
      const fromOpen = transition.from.every((status) => OPEN_ORDER_STATUSES.includes(status));
      const expected = opens ? 'keep' : fromOpen ? 'release' : 'unheld';
      expect([transition.operation, transition.pet.hold]).toEqual([transition.operation, expected]);
    }
  });

  it('never leaves a final state: cancelled and returned orders have no way out', () => {
    const reachable = new Set(transitions.flatMap((transition) => transition.from));
    expect(reachable.has('cancelled')).toBe(false);
    expect(reachable.has('returned')).toBe(false);
  });

  it('moves only forward, so a state a guarded UPDATE refused stays refused', () => {
    const order: OrderStatus[] = ['placed', 'approved', 'delivered', 'returned'];
    for (const transition of transitions.filter((t) => t.to !== 'cancelled'))
      for (const from of transition.from) expect(order.indexOf(transition.to)).toBeGreaterThan(order.indexOf(from));
  });

  describe('decideTransition', () => {
    it('applies a transition from each of its states, for each actor it allows', () => {
      for (const transition of transitions)
        for (const from of transition.from)
          for (const actor of transition.who) expect(decideTransition(transition, from, actor)).toBe('apply');
    });

    it('answers a transition to the state the order is already in as unchanged', () => {
      for (const transition of transitions)
        for (const actor of transition.who)
          expect(decideTransition(transition, transition.to, actor)).toBe('unchanged');
    });

    it('refuses any other state with invalid_order_state', () => {
      for (const transition of transitions)
        for (const status of ORDER_STATUSES.filter((s) => s !== transition.to && !transition.from.includes(s)))
          expect(() => decideTransition(transition, status, transition.who[0]!)).toThrow(InvalidOrderStateError);
    });

    it('refuses an actor the transition does not allow with forbidden, whatever the state', () => {
      for (const transition of transitions)
        for (const actor of ACTORS.filter((a) => !transition.who.includes(a)))
          for (const status of ORDER_STATUSES) {
            const decide = () => decideTransition(transition, status, actor);
            expect(decide).toThrow(ForbiddenError);
          }
    });

    it('lets the adopter only cancel', () => {
      const adopters = transitions.filter((transition) => transition.who.includes('adopter'));
      expect(adopters.map((transition) => transition.operation)).toEqual(['cancel']);
    });
  });

  it('describes each operation with the whole table, one row per transition', () => {
    const description = transitionDescription('cancel');
    expect(description).toContain('Either party: `placed` or `approved` → `cancelled`');
    for (const transition of transitions) expect(description).toContain(`→ \`${transition.to}\``);
    expect(description.split('\n').filter((line) => line.startsWith('| `'))).toHaveLength(4);
  });
});
