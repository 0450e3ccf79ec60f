/** Every event type (CONTRACT 11), and who receives each is decided by the context that records it. */
export const EVENT_TYPES = [
  'pet.created',
  'pet.updated',
  'pet.deleted',
  'order.placed',
  'order.approved',
  'order.delivered',
  'order.cancelled',
  'order.returned',
  'message.sent',
  'message.failed',
  'saved_search.matched',
] as const;

export type EventType = (typeof EVENT_TYPES)[number];

/** An endpoint's subscription: some types, or `*` for every type. */
export const ALL_EVENT_TYPES = '*';

export const EVENT_ID_FORMAT = /^evt_[A-Za-z0-9_-]{24}$/;

/** Whether an endpoint subscribed to `types` receives an event of `type`. */
export function subscribes(types: readonly string[], type: string): boolean {
  return types.includes(ALL_EVENT_TYPES) || types.includes(type);
}
