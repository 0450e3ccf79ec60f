import { orderEvents } from './order-events';
import { roleOf } from './order-view';
import type { StoredOrder } from './orders.repository';

const ADOPTER = 10;
const LISTER = 20;
const AT = new Date('2026-06-01T12:00:00Z');

const stored = (changes: Partial<StoredOrder> = {}): StoredOrder => ({
  id: 7,
  petId: 3,
  adopterAccountId: ADOPTER,
  listerAccountId: LISTER,
  status: 'placed',
  note: 'Hi',
  cancellationReason: null,
  expiresAt: new Date(AT.getTime() + 3600_000),
  createdAt: AT,
  updatedAt: AT,
  ...changes,
});

describe('orderEvents', () => {
  it('tells each party of the status reached, with the order as that party sees it, at the change’s time', () => {
    const approvedAt = new Date('2026-06-01T13:00:00Z');
    const events = orderEvents(stored({ status: 'approved', expiresAt: null, updatedAt: approvedAt }));
    expect(events).toEqual([
      expect.objectContaining({
        recipientAccountId: ADOPTER,
        type: 'order.approved',
        createdAt: approvedAt.toISOString(),
      }),
      expect.objectContaining({
        recipientAccountId: LISTER,
        type: 'order.approved',
        createdAt: approvedAt.toISOString(),
      }),
    ]);
    expect(events.map((event) => (event.object as { role: string }).role)).toEqual(['adopter', 'lister']);
  });

  it('shows no account ids, and leaves unset fields out', () => {
    const [toAdopter] = orderEvents(
      stored({ status: 'cancelled', note: null, cancellationReason: 'expired', expiresAt: null }),
    );
    expect(toAdopter!.object).toEqual({
      id: 7,
      petId: 3,
      status: 'cancelled',
      role: 'adopter',
      cancellationReason: 'expired',
      createdAt: AT.toISOString(),
      updatedAt: AT.toISOString(),
    });
  });
});

describe('roleOf', () => {
  it('names the caller’s part in an order, and none for a stranger', () => {
    expect([ADOPTER, LISTER, 99].map((account) => roleOf(stored(), account))).toEqual(['adopter', 'lister', undefined]);
  });
});
