import { ForbiddenError } from '@app/core';
import { InvalidApplicationStateError } from './applications.errors';

export const APPLICATION_STATUSES = [
  'submitted',
  'under_review',
  'approved',
  'adopted',
  'declined',
  'withdrawn',
  'closed',
] as const;
export type ApplicationStatus = (typeof APPLICATION_STATUSES)[number];

/** Applications in these states are open: they count against the caps, and may move on. */
export const OPEN_APPLICATION_STATUSES: readonly ApplicationStatus[] = ['submitted', 'under_review', 'approved'];

/** The caller's part: `applicant` made the application, `lister` listed its pet. */
export const APPLICATION_ROLES = ['applicant', 'lister'] as const;
export type ApplicationRole = (typeof APPLICATION_ROLES)[number];

/** Who made a change of state: a party, or the service following the application's order or pet. */
export type ApplicationActor = ApplicationRole | 'service';

export const CLOSED_REASONS = ['adopted', 'order_cancelled', 'pet_removed'] as const;
export type ClosedReason = (typeof CLOSED_REASONS)[number];

export type ApplicationOperation = 'review' | 'approve' | 'decline' | 'withdraw';

export interface ApplicationTransition {
  operation: ApplicationOperation;
  operationId: string;
  who: ApplicationRole;
  from: readonly ApplicationStatus[];
  to: ApplicationStatus;
  /** Takes an optional `{ reason }`, the note of its history entry. */
  takesReason: boolean;
  /** What else happens in its transaction. */
  effect?: string;
}

/** The parties' transitions of an application; the service's follow its order and pet (ApplicationFollower). */
export const APPLICATION_TRANSITIONS: Readonly<Record<ApplicationOperation, ApplicationTransition>> = {
  review: {
    operation: 'review',
    operationId: 'reviewApplication',
    who: 'lister',
    from: ['submitted'],
    to: 'under_review',
    takesReason: false,
    effect: 'the lister sees the applicant’s `contact` from now on',
  },
  approve: {
    operation: 'approve',
    operationId: 'approveApplication',
    who: 'lister',
    from: ['under_review'],
    to: 'approved',
    takesReason: false,
    effect:
      'an order is placed for the applicant (`orderId`), the pet becomes `pending`; a pet that is not ' +
      '`available` answers 409 `pet_not_available` and the application is unchanged',
  },
  decline: {
    operation: 'decline',
    operationId: 'declineApplication',
    who: 'lister',
    from: ['submitted', 'under_review'],
    to: 'declined',
    takesReason: true,
  },
  withdraw: {
    operation: 'withdraw',
    operationId: 'withdrawApplication',
    who: 'applicant',
    from: OPEN_APPLICATION_STATUSES,
    to: 'withdrawn',
    takesReason: true,
    effect: 'an approved application’s order, if not yet delivered, is cancelled (`application_withdrawn`)',
  },
};

export type TransitionDecision = 'apply' | 'unchanged';

/**
 * Decides a party's transition of an application in `status`: the other party is refused before the state
 * is looked at; the state already reached answers unchanged (a retried call).
 */
export function decideTransition(
  transition: ApplicationTransition,
  status: ApplicationStatus,
  role: ApplicationRole,
): TransitionDecision {
  if (transition.who !== role) {
    throw new ForbiddenError(`Only the ${transition.who} may ${transition.operation} this application.`);
  }
  if (status === transition.to) return 'unchanged';
  if (transition.from.includes(status)) return 'apply';
  throw new InvalidApplicationStateError(
    `An application that is ${status} cannot be asked to ${transition.operation}.`,
  );
}

/** An operation's description in the document, read from `APPLICATION_TRANSITIONS`. */
export function transitionDescription(operation: ApplicationOperation): string {
  const transition = APPLICATION_TRANSITIONS[operation];
  const from = transition.from.map((status) => `\`${status}\``).join(' or ');
  return (
    `The ${transition.who} only: ${from} → \`${transition.to}\`` +
    (transition.effect ? `; in the same transaction ${transition.effect}` : '') +
    (transition.takesReason ? '. The optional `reason` is the note of its history entry' : '') +
    '. Asking for the state the application is already in answers 200 unchanged; any other state answers 409 ' +
    '`invalid_application_state`; the other party gets 403, anyone else 404. Transitions of one application ' +
    'that race run one after the other.'
  );
}
