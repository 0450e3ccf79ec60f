import { FORBIDDEN, NOT_FOUND, type ApiTag, type ErrorCode } from '@app/http';
import type { OrderTransition } from './order-transitions';

export const STORE_API_TAG: ApiTag = {
  name: 'store',
  description: 'Adoption orders: an adopter places one for an available pet, its lister decides it.',
};

export const ORDER_NOT_FOUND: ErrorCode = {
  ...NOT_FOUND,
  description: 'No such order, or one the caller neither placed nor received for its pet.',
  example: 'No order 7.',
};

/** placeOrder's own error codes. */
export const PLACE_ORDER_ERRORS: readonly ErrorCode[] = [
  {
    ...FORBIDDEN,
    description: 'The pet is listed by the caller’s own account.',
    example: 'Pet 42 is listed by your account.',
  },
  {
    status: 409,
    code: 'pet_not_available',
    description: 'The pet is not `available`, is held by another order, or has no lister to decide an order.',
    example: 'Pet 42 is not available.',
  },
  {
    status: 409,
    code: 'too_many_open_orders',
    description: 'The caller already has the most orders placed and not yet decided that an account may have.',
    example: 'An account may have at most 3 orders placed and not yet decided.',
  },
];

/** The error codes a transition of an order may answer: 403 when the adopter asks for the lister's. */
export function transitionErrors(transition: OrderTransition): ErrorCode[] {
  const who = transition.who.join(' or ');
  return [
    ORDER_NOT_FOUND,
    ...(transition.who.includes('adopter')
      ? []
      : [
          {
            ...FORBIDDEN,
            description: `The adopter asked for a transition only the ${who} may make.`,
            example: `Only the ${who} may ${transition.operation} this order.`,
          },
        ]),
    {
      status: 409,
      code: 'invalid_order_state',
      description: `The order is not ${transition.from.map((from) => `\`${from}\``).join(' or ')} (nor already \`${transition.to}\`).`,
      example: `An order that is ${transition.to === 'cancelled' ? 'delivered' : 'cancelled'} cannot be asked to ${transition.operation}.`,
    },
  ];
}
