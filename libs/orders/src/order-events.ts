import type { NewEvent } from '@app/events';
import type { OrderRole } from './order-transitions';
import { toOrderDto } from './order-view';
import type { StoredOrder } from './orders.repository';

const PARTIES: readonly OrderRole[] = ['adopter', 'lister'];

/**
 * The events of an order reaching its current status (`order.placed`, … `order.returned`; an expiry is an
 * `order.cancelled`): one to each party, with the order as that party sees it.
 */
export function orderEvents(order: StoredOrder): NewEvent[] {
  return PARTIES.map((role) => {
    const object = toOrderDto(order, role);
    return {
      recipientAccountId: role === 'adopter' ? order.adopterAccountId : order.listerAccountId,
      type: `order.${order.status}`,
      object,
      // The transition's own time: the event and the order it shows agree.
      createdAt: object.updatedAt,
    };
  });
}
