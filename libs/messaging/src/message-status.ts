export const MESSAGE_STATUSES = ['queued', 'sending', 'sent', 'failed'] as const;
export type MessageStatus = (typeof MESSAGE_STATUSES)[number];

/**
 * The lifecycle `queued → sending → sent | failed`, as the statuses each transition may leave. The
 * database applies a transition only from these (a guarded UPDATE), so a job that runs twice cannot
 * deliver a message that was already sent or failed, nor undo a final status.
 */
export const TRANSITIONS = {
  /** From `sending` too: a retry after a failed attempt, or a job recovered from a worker that died. */
  startSending: ['queued', 'sending'],
  recordError: ['sending'],
  markSent: ['sending'],
  /** From `queued` too: a job BullMQ gave up on without running it (it stalled too often). */
  markFailed: ['queued', 'sending'],
} as const satisfies Record<string, readonly MessageStatus[]>;
