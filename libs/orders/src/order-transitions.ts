import type { PetStatus } from '@app/pets';
import { ForbiddenError } from '@app/core';
import { InvalidOrderStateError } from './orders.errors';

export const ORDER_STATUSES = ['placed', 'approved', 'delivered', 'cancelled', 'returned'] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

/** The caller's part in an order: `adopter` placed it, `lister` listed its pet. */
export const ORDER_ROLES = ['adopter', 'lister'] as const;
export type OrderRole = (typeof ORDER_ROLES)[number];

/** Who may ask for a transition: a party, or the worker when a hold runs out. */
export type OrderActor = OrderRole | 'worker';

/** Orders in these states hold their pet (`pets.open_order_id`). */
export const OPEN_ORDER_STATUSES: readonly OrderStatus[] = ['placed', 'approved'];

/**
 * What a transition does to the order's pet: `keep` sets its status and leaves it held by the order,
 * `release` sets its status and frees it, `unheld` sets its status only when no order holds it (the
 * delivered order let it go; another order may hold it by now).
 */
export interface PetChange {
  status: PetStatus;
  hold: 'keep' | 'release' | 'unheld';
}

export type OrderOperation = 'approve' | 'deliver' | 'cancel' | 'return' | 'expire';

export interface OrderTransition {
  operation: OrderOperation;
  /** The OpenAPI operation that asks for it; none for the worker's. */
  operationId?: string;
  who: readonly OrderActor[];
  from: readonly OrderStatus[];
  to: OrderStatus;
  pet: PetChange;
}

/** The orders' state machine: every change an order can go through after it is placed. */
export const ORDER_TRANSITIONS: Readonly<Record<OrderOperation, OrderTransition>> = {
  approve: {
    operation: 'approve',
    operationId: 'approveOrder',
    who: ['lister'],
    from: ['placed'],
    to: 'approved',
    pet: { status: 'sold', hold: 'keep' },
  },
  deliver: {
    operation: 'deliver',
    operationId: 'deliverOrder',
    who: ['lister'],
    from: ['approved'],
    to: 'delivered',
    pet: { status: 'sold', hold: 'release' },
  },
  cancel: {
    operation: 'cancel',
    operationId: 'cancelOrder',
    who: ['adopter', 'lister'],
    from: ['placed', 'approved'],
    to: 'cancelled',
    pet: { status: 'available', hold: 'release' },
  },
  return: {
    operation: 'return',
    operationId: 'returnOrder',
    who: ['lister'],
    from: ['delivered'],
    to: 'returned',
    pet: { status: 'available', hold: 'unheld' },
  },
  expire: {
    operation: 'expire',
    who: ['worker'],
    from: ['placed'],
    to: 'cancelled',
    pet: { status: 'available', hold: 'release' },
  },
};

/** Placing an order: what the pet must be, and what it becomes while the order holds it. */
export const PLACEMENT = { status: 'placed', pet: { from: 'available', status: 'pending' } } as const;

/** A transition's outcome for an order as it is: change it, or answer with it unchanged. */
export type TransitionDecision = 'apply' | 'unchanged';

/**
 * Decides a transition asked by `actor` of an order in `status`. Asking for the state the order is
 * already in is harmless (a retried call); a party not allowed to ask is refused before its state is
 * looked at.
 */
export function decideTransition(
  transition: OrderTransition,
  status: OrderStatus,
  actor: OrderActor,
): TransitionDecision {
  if (!transition.who.includes(actor)) {
    throw new ForbiddenError(`Only the ${transition.who.join(' or ')} may ${transition.operation} this order.`);
  }
  if (status === transition.to) return 'unchanged';
  if (transition.from.includes(status)) return 'apply';
  throw new InvalidOrderStateError(transition.operation, status);
}

/**
 * An operation's description in the document: what it does, the rules every transition shares, and
 * the whole table, all read from `ORDER_TRANSITIONS`.
 */
export function transitionDescription(operation: Exclude<OrderOperation, 'expire'>): string {
  const transition = ORDER_TRANSITIONS[operation];
  const rows = Object.values(ORDER_TRANSITIONS).map(
    (t) =>
      `| ${t.operationId ? `\`${t.operationId}\`` : 'the worker, when the hold runs out'} | ${t.who.join(' or ')} | ` +
      `${t.from.map((from) => `\`${from}\``).join(' or ')} → \`${t.to}\` | ${petWording(t.pet)} |`,
  );
  return [
    `${transition.who.length > 1 ? 'Either party' : `The ${transition.who[0]} only`}: ${transition.from.map((from) => `\`${from}\``).join(' or ')} → ` +
      `\`${transition.to}\`, and the pet becomes ${petWording(transition.pet)}, in one transaction. Asking for ` +
      'the state the order is already in answers 200 with the order unchanged; any other state answers 409 ' +
      '`invalid_order_state`. The adopter asking for a lister’s transition gets 403; anyone else 404. ' +
      'Transitions of one order that race run one after the other.',
    '',
    '| Operation | Who | From → to | The pet becomes |',
    '|---|---|---|---|',
    ...rows,
  ].join('\n');
}

function petWording(change: PetChange): string {
  if (change.hold === 'unheld') return `\`${change.status}\` (unless another order holds it by then)`;
  return `\`${change.status}\``;
}
