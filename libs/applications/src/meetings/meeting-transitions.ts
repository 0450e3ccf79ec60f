import { ForbiddenError } from '@app/core';
import type { ApplicationRole, ApplicationStatus } from '../application-transitions';
import { InvalidApplicationStateError } from '../applications.errors';

export const MEETING_STATUSES = ['proposed', 'accepted', 'declined', 'cancelled'] as const;
export type MeetingStatus = (typeof MEETING_STATUSES)[number];

/** Meetings in these states count against `MAX_LIVE_MEETINGS`, are cancelled with their application, and move on. */
export const LIVE_MEETING_STATUSES: readonly MeetingStatus[] = ['proposed', 'accepted'];

/** The lister proposes meetings while the application is in these states. */
export const PROPOSING_STATUSES: readonly ApplicationStatus[] = ['under_review', 'approved'];

/** Proposed or accepted meetings of one application at once. */
export const MAX_LIVE_MEETINGS = 3;

export type MeetingOperation = 'accept' | 'decline' | 'cancel';

export interface MeetingTransition {
  operation: MeetingOperation;
  operationId: string;
  /** Who may ask; both parties when absent. */
  who?: ApplicationRole;
  from: readonly MeetingStatus[];
  to: MeetingStatus;
}

/** The parties' steps of a meeting; the service cancels the live ones of an application that becomes final. */
export const MEETING_TRANSITIONS: Readonly<Record<MeetingOperation, MeetingTransition>> = {
  accept: { operation: 'accept', operationId: 'acceptMeeting', who: 'applicant', from: ['proposed'], to: 'accepted' },
  decline: {
    operation: 'decline',
    operationId: 'declineMeeting',
    who: 'applicant',
    from: ['proposed'],
    to: 'declined',
  },
  cancel: { operation: 'cancel', operationId: 'cancelMeeting', from: LIVE_MEETING_STATUSES, to: 'cancelled' },
};

/**
 * Decides a party's step of a meeting in `status`, as the application's transitions are decided: the other
 * party is refused first, the state already reached answers unchanged, any other state is refused.
 */
export function decideMeetingTransition(
  transition: MeetingTransition,
  status: MeetingStatus,
  role: ApplicationRole,
): 'apply' | 'unchanged' {
  if (transition.who !== undefined && transition.who !== role) {
    throw new ForbiddenError(`Only the ${transition.who} may ${transition.operation} this meeting.`);
  }
  if (status === transition.to) return 'unchanged';
  if (transition.from.includes(status)) return 'apply';
  throw new InvalidApplicationStateError(`A meeting that is ${status} cannot be asked to ${transition.operation}.`);
}

/** An operation's description in the document, read from `MEETING_TRANSITIONS`. */
export function meetingTransitionDescription(operation: MeetingOperation): string {
  const transition = MEETING_TRANSITIONS[operation];
  const from = transition.from.map((status) => `\`${status}\``).join(' or ');
  return (
    `${transition.who ? `The ${transition.who} only` : 'Either party'}: ${from} → \`${transition.to}\`; both ` +
    'parties receive `meeting.updated`. Asking for the state the meeting is already in answers 200 unchanged; any ' +
    'other state answers 409 `invalid_application_state`; ' +
    (transition.who ? 'the other party gets 403, anyone else 404.' : 'anyone else gets 404.')
  );
}
