import { canonicalEmail, ForbiddenError } from '@app/core';
import { Sql } from '@app/database';
import { OrdersService, PetNotAvailableError } from '@app/orders';
import { PetsService } from '@app/pets';
import { Injectable } from '@nestjs/common';
import { answersFor } from './application-form';
import { newId } from './application-ids';
import { ApplicationFormsService } from './application-forms.service';
import { ApplicationMessagesRepository, StoredApplicationMessage } from './application-messages.repository';
import { ApplicationNotifications } from './application-notifications';
import { ApplicationSubmissions } from './application-submissions';
import {
  APPLICATION_TRANSITIONS,
  ApplicationOperation,
  ApplicationRole,
  decideTransition,
} from './application-transitions';
import { roleOf, toApplicationDto, toMessageDto } from './application-view';
import {
  ApplicationExistsError,
  ApplicationNotFoundError,
  InvalidApplicationStateError,
  TooManyOpenApplicationsError,
} from './applications.errors';
import { ApplicationListing, ApplicationsRepository, StoredApplication } from './applications.repository';
import { ApplicationsSettings } from './applications.settings';
import { MeetingsService } from './meetings/meetings.service';
import type { ApplicationMessageDto } from './dto/application-message.dto';
import type { ApplicationDto, SubmitApplicationDto } from './dto/application.dto';

export interface ApplicationPage {
  applications: ApplicationDto[];
  /** `seq` of the last application returned, when older ones follow. */
  lastSeq?: number;
}

export interface MessagePage {
  messages: ApplicationMessageDto[];
  lastSeq?: number;
}

/**
 * The applications' rules. Each change of an application, what it does to its order and what it tells
 * (ApplicationNotifications) are one transaction; the application's guarded UPDATE comes first and locks
 * it, so that changes of one application run one after the other.
 */
@Injectable()
export class ApplicationsService {
  constructor(
    private readonly sql: Sql,
    private readonly applications: ApplicationsRepository,
    private readonly messages: ApplicationMessagesRepository,
    private readonly forms: ApplicationFormsService,
    private readonly pets: PetsService,
    private readonly orders: OrdersService,
    private readonly notifications: ApplicationNotifications,
    private readonly submissions: ApplicationSubmissions,
    private readonly settings: ApplicationsSettings,
    private readonly meetings: MeetingsService,
  ) {}

  /**
   * Submits an application for an available pet listed by another account, its answers checked against the
   * lister's form as it is now. The pet stays `available`.
   */
  async submit(applicantAccountId: number, petId: number, body: SubmitApplicationDto): Promise<ApplicationDto> {
    const stored = await this.pets.get(petId);
    const listerAccountId = stored.listerAccountId;
    if (listerAccountId === applicantAccountId) throw new ForbiddenError(`Pet ${petId} is listed by your account.`);
    if (stored.pet.status !== 'available') throw new PetNotAvailableError(petId);
    if (listerAccountId === undefined) throw new PetNotAvailableError(petId, 'has no lister to receive applications');
    const form = await this.forms.get(listerAccountId);
    const submitted = await this.submissions.submit({
      application: {
        id: newId('app'),
        petId,
        applicantAccountId,
        listerAccountId,
        formVersion: form.version,
        answers: answersFor(form.fields, body.answers),
        contact: body.contact,
        contactEmailCanonical: canonicalEmail(body.contact.email),
        emailConsent: body.emailConsent ?? false,
      },
      petName: stored.pet.name,
      message: body.message,
      notifyEmail: form.notifyEmail,
    });
    if (submitted === 'exists') throw new ApplicationExistsError(petId);
    if (submitted === 'too_many')
      throw new TooManyOpenApplicationsError(this.settings.APPLICATIONS_MAX_OPEN_PER_APPLICANT);
    return toApplicationDto(submitted, 'applicant');
  }

  async get(accountId: number, id: string): Promise<ApplicationDto> {
    const { application, role } = await this.findForParty(accountId, id);
    return toApplicationDto(application, role);
  }

  async list(accountId: number, listing: ApplicationListing): Promise<ApplicationPage> {
    const rows = await this.applications.list(accountId, listing);
    const page = rows.slice(0, listing.limit);
    return {
      applications: page.map((application) => toApplicationDto(application, roleOf(application, accountId)!)),
      lastSeq: rows.length > listing.limit ? page[page.length - 1]!.seq : undefined,
    };
  }

  /**
   * A party's transition (`APPLICATION_TRANSITIONS`) with its effect on the order. When the guarded UPDATE
   * changes nothing, the application as it is now says why: a stranger's (404), the other party's (403), the
   * state already reached (200, unchanged) or another state (409).
   */
  transition(operation: ApplicationOperation, accountId: number, id: string, reason?: string): Promise<ApplicationDto> {
    const transition = APPLICATION_TRANSITIONS[operation];
    return this.sql.transaction(async () => {
      let changed = await this.applications.transition(id, accountId, transition, reason);
      if (!changed) {
        const { application, role } = await this.findForParty(accountId, id);
        if (decideTransition(transition, application.status, role) === 'unchanged') {
          return toApplicationDto(application, role);
        }
        // Not reached: the UPDATE waited for any change of the row and judged its new state as this does.
        throw new InvalidApplicationStateError(`The application cannot be asked to ${operation} now.`);
      }
      if (operation === 'approve') {
        // Refused (pet_not_available) when the pet is not available: the transaction, approval included, rolls back.
        const order = await this.orders.placeForApplication(changed.applicantAccountId, changed.petId);
        changed = await this.applications.setOrder(id, order.id);
      }
      if (operation === 'withdraw' && changed.orderId !== null) {
        // The application is withdrawn first, so that the order's cancellation finds it no longer open.
        await this.orders.transition('cancel', changed.applicantAccountId, changed.orderId, 'application_withdrawn');
      }
      await this.notifications.updated([changed]);
      await this.meetings.cancelWithEnded([changed]);
      return toApplicationDto(changed, transition.who);
    });
  }

  /**
   * Withdraws up to `limit` open applications a deleted account made, each as its withdrawal does (an
   * approved one's undelivered order cancelled), each in its own transaction; returns how many it found.
   */
  async withdrawOpenOf(accountId: number, limit: number): Promise<number> {
    const ids = await this.applications.findOpenAsApplicant(accountId, limit);
    for (const id of ids) {
      try {
        await this.transition('withdraw', accountId, id);
      } catch (error) {
        // Ended meanwhile by the lister or the service: nothing is left open to withdraw.
        if (!(error instanceof InvalidApplicationStateError)) throw error;
      }
    }
    return ids.length;
  }

  /** A message of either party while the application is open; `application.message` to the other. */
  async sendMessage(accountId: number, id: string, body: string): Promise<ApplicationMessageDto> {
    const { application, role } = await this.findForParty(accountId, id);
    return this.sql.transaction(async () => {
      const message = await this.addMessage(application, role, body);
      await this.notifications.message(application, message);
      return toMessageDto(message);
    });
  }

  async listMessages(accountId: number, id: string, page: { afterSeq?: number; limit: number }): Promise<MessagePage> {
    await this.findForParty(accountId, id);
    const rows = await this.messages.list(id, page);
    const messages = rows.slice(0, page.limit);
    return {
      messages: messages.map(toMessageDto),
      lastSeq: rows.length > page.limit ? messages[messages.length - 1]!.seq : undefined,
    };
  }

  private async addMessage(
    application: StoredApplication,
    sender: ApplicationRole,
    body: string,
  ): Promise<StoredApplicationMessage> {
    const message = await this.messages.insertWhileOpen({
      id: newId('amsg'),
      applicationId: application.id,
      sender,
      body,
    });
    if (message) return message;
    throw new InvalidApplicationStateError('Messages are sent only while the application is open.');
  }

  private async findForParty(
    accountId: number,
    id: string,
  ): Promise<{ application: StoredApplication; role: ApplicationRole }> {
    const application = await this.applications.findById(id);
    const role = application && roleOf(application, accountId);
    if (!application || !role) throw new ApplicationNotFoundError(id);
    return { application, role };
  }
}
