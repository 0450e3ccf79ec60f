import type { ApplicationMessageDto } from './dto/application-message.dto';
import type { ApplicationDto } from './dto/application.dto';
import type { ApplicationRole } from './application-transitions';
import type { StoredApplicationMessage } from './application-messages.repository';
import type { StoredApplication } from './applications.repository';

/** The caller's part in an application; undefined for an account that is neither party. */
export function roleOf(
  application: Pick<StoredApplication, 'applicantAccountId' | 'listerAccountId'>,
  accountId: number,
): ApplicationRole | undefined {
  if (application.applicantAccountId === accountId) return 'applicant';
  if (application.listerAccountId === accountId) return 'lister';
  return undefined;
}

/**
 * Whether the party sees the contact: the applicant always, the lister once the application has been
 * under review (never, for one declined or withdrawn straight from `submitted`).
 */
function showsContact(application: StoredApplication, role: ApplicationRole): boolean {
  return role === 'applicant' || application.history.some((entry) => entry.status === 'under_review');
}

/** An application as one of its parties reads it: its role, no account ids, unset fields left out. */
export function toApplicationDto(application: StoredApplication, role: ApplicationRole): ApplicationDto {
  return {
    id: application.id,
    petId: application.petId,
    status: application.status,
    role,
    formVersion: application.formVersion,
    answers: application.answers,
    ...(application.contact !== null && showsContact(application, role) && { contact: application.contact }),
    emailConsent: application.emailConsent,
    ...(application.orderId !== null && { orderId: application.orderId }),
    ...(application.closedReason !== null && { closedReason: application.closedReason }),
    history: application.history,
    createdAt: application.createdAt.toISOString(),
    updatedAt: application.updatedAt.toISOString(),
  };
}

export function toMessageDto(message: StoredApplicationMessage): ApplicationMessageDto {
  return {
    id: message.id,
    applicationId: message.applicationId,
    sender: message.sender,
    body: message.body,
    createdAt: message.createdAt.toISOString(),
  };
}
