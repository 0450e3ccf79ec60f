import { sql, type SqlFragment } from '@app/database';

/** Every event type, and who receives each is decided by the context that records it. */
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
  'application.submitted',
  'application.updated',
  'application.message',
  'meeting.updated',
  'meeting.reminder',
  'webhook_endpoint.test',
] as const;

export type EventType = (typeof EVENT_TYPES)[number];

/**
 * The event `POST /v1/webhook-endpoints/{id}/test` sends to that one endpoint (GitHub's `ping`, Stripe's
 * test webhook): recorded already dispatched, since no subscription receives it.
 */
export const TEST_EVENT_TYPE = 'webhook_endpoint.test' satisfies EventType;

/** The types an endpoint may subscribe to: every type but the test event's. */
export const SUBSCRIBABLE_EVENT_TYPES = EVENT_TYPES.filter((type) => type !== TEST_EVENT_TYPE);

/** An endpoint's subscription: some types, or `*` for every type. */
export const ALL_EVENT_TYPES = '*';

export const EVENT_ID_FORMAT = /^evt_[A-Za-z0-9_-]{24}$/;

/** Whether an endpoint subscribed to `types` receives an event of `type`. */
export function subscribes(types: readonly string[], type: string): boolean {
  return type !== TEST_EVENT_TYPE && (types.includes(ALL_EVENT_TYPES) || types.includes(type));
}

/** `subscribes` as a condition on an endpoint's `event_types` column, for a statement that decides it. */
export function subscribesInSql(types: SqlFragment, type: EventType): SqlFragment {
  return sql`(${type}::text <> ${TEST_EVENT_TYPE} AND ${types} && ARRAY[${ALL_EVENT_TYPES}, ${type}::text])`;
}
