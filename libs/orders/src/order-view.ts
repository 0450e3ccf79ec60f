import type { OrderDto } from './dto/order.dto';
import type { OrderRole } from './order-transitions';
import type { StoredOrder } from './orders.repository';

/** The caller's part in an order; undefined for an account that is neither party. */
export function roleOf(order: StoredOrder, accountId: number): OrderRole | undefined {
  if (order.adopterAccountId === accountId) return 'adopter';
  if (order.listerAccountId === accountId) return 'lister';
  return undefined;
}

/** An order as one of its parties sees it: its role, and no account ids. Unset fields are left out. */
export function toOrderDto(order: StoredOrder, role: OrderRole): OrderDto {
  return {
    id: order.id,
    petId: order.petId,
    status: order.status,
    role,
    ...(order.note !== null && { note: order.note }),
    ...(order.cancellationReason !== null && { cancellationReason: order.cancellationReason }),
    ...(order.expiresAt !== null && { expiresAt: order.expiresAt.toISOString() }),
    createdAt: order.createdAt.toISOString(),
    updatedAt: order.updatedAt.toISOString(),
  };
}
