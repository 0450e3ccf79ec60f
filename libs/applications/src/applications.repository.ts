import type { Applications } from '@app/database';
import { GenerateSql, sql, Sql, SqlFragment } from '@app/database';
import { Injectable } from '@nestjs/common';
import type { Selectable } from 'kysely';
import type { Answer } from './application-form';
import {
  ApplicationActor,
  ApplicationRole,
  ApplicationStatus,
  ApplicationTransition,
  ClosedReason,
  OPEN_APPLICATION_STATUSES,
} from './application-transitions';

/**
 * Class of the advisory lock a submission takes on its contact email (the object is a hash of its canonical
 * form), so that two submissions for one person cannot both pass the open-applications cap.
 */
const APPLICATIONS_CAP_LOCK_CLASS = 731_044_207;

interface Contact {
  name: string;
  email: string;
  phone?: string;
}

interface HistoryEntry {
  status: ApplicationStatus;
  at: string;
  by: ApplicationActor;
  note?: string;
}

/** An application as stored: both parties, whatever the caller's role. */
export interface StoredApplication {
  id: string;
  seq: number;
  petId: number;
  applicantAccountId: number;
  listerAccountId: number;
  status: ApplicationStatus;
  formVersion: number;
  answers: Answer[];
  contact: Contact | null;
  emailConsent: boolean;
  orderId: number | null;
  closedReason: ClosedReason | null;
  history: HistoryEntry[];
  createdAt: Date;
  updatedAt: Date;
}

type ApplicationRow = Omit<Selectable<Applications>, 'contact_email_canonical' | 'ended_at'>;

const COLUMNS = sql`id, seq, pet_id, applicant_account_id, lister_account_id, status, form_version, answers, contact,
  email_consent, order_id, closed_reason, history, created_at, updated_at`;

function toApplication(row: ApplicationRow): StoredApplication {
  return {
    id: row.id,
    seq: Number(row.seq),
    petId: Number(row.pet_id),
    applicantAccountId: Number(row.applicant_account_id),
    listerAccountId: Number(row.lister_account_id),
    status: row.status as ApplicationStatus,
    formVersion: row.form_version,
    answers: row.answers as unknown as Answer[],
    contact: row.contact as unknown as Contact | null,
    emailConsent: row.email_consent,
    orderId: row.order_id === null ? null : Number(row.order_id),
    closedReason: row.closed_reason as ClosedReason | null,
    history: row.history as unknown as HistoryEntry[],
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export interface NewApplication {
  id: string;
  petId: number;
  applicantAccountId: number;
  listerAccountId: number;
  formVersion: number;
  answers: Answer[];
  contact: Contact;
  contactEmailCanonical: string;
  emailConsent: boolean;
}

export type Submission = StoredApplication | 'exists' | 'too_many';

export interface ApplicationListing {
  role?: ApplicationRole;
  status?: ApplicationStatus;
  petId?: number;
  /** Only applications older than this `seq`. */
  beforeSeq?: number;
  limit: number;
}

const OPEN = sql`status = ANY(${OPEN_APPLICATION_STATUSES}::text[])`;

/** The history entry of a change to `status` made now, as JSON to append. */
const historyEntry = (status: ApplicationStatus, by: ApplicationActor, note: string | null) =>
  sql`jsonb_build_array(jsonb_strip_nulls(jsonb_build_object('status', ${status}::text,
        'at', to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), 'by', ${by}::text,
        'note', ${note}::text)))`;

/** The SET of a change of state: its history entry, and when it ended, for a final state. */
const changeTo = (status: ApplicationStatus, by: ApplicationActor, note: string | null) =>
  sql`status = ${status}, history = history || ${historyEntry(status, by, note)}, updated_at = now(),
      ended_at = CASE WHEN ${status}::text IN ('declined', 'withdrawn', 'closed') THEN now() END`;

/**
 * The statement of one page of the account's applications (ApplicationsRepository.list): each side reads its
 * own index, `(applicant_account_id, seq DESC)` or `(lister_account_id, …)`, so a page reads about a page's rows.
 */
export function applicationsPage(accountId: number, listing: ApplicationListing): SqlFragment {
  const limit = listing.limit + 1;
  const side = (party: SqlFragment, otherRole: ApplicationRole) => sql`
    (SELECT ${COLUMNS} FROM applications
      WHERE ${listing.role ?? null}::text IS DISTINCT FROM ${otherRole} AND ${party} = ${accountId}
        AND seq < ${listing.beforeSeq ?? Number.MAX_SAFE_INTEGER}
        AND (${listing.status ?? null}::text IS NULL OR status = ${listing.status ?? null})
        AND (${listing.petId ?? null}::bigint IS NULL OR pet_id = ${listing.petId ?? null})
      ORDER BY seq DESC LIMIT ${limit})`;
  return sql`SELECT ${COLUMNS} FROM (${side(sql`applicant_account_id`, 'lister')}
                                    UNION ALL ${side(sql`lister_account_id`, 'applicant')}) both_sides
             ORDER BY seq DESC LIMIT ${limit}`;
}

/**
 * The statement of the applications past retention (ApplicationsRepository.findPastRetention): the oldest ended
 * ones that still have a contact, over the partial index of those, so a run reads what it erases.
 */
export function pastRetention(days: number, limit: number): SqlFragment {
  return sql`SELECT id FROM applications
              WHERE ended_at IS NOT NULL AND contact IS NOT NULL AND ended_at < now() - make_interval(days => ${days})
              ORDER BY ended_at LIMIT ${limit}`;
}

/** `applications`: the applications, their caps and guarded changes of state. */
@Injectable()
export class ApplicationsRepository {
  constructor(private readonly sql: Sql) {}

  /**
   * The new application, `submitted`, or why not: the contact email has an open application for the pet
   * (`exists`) or `maxOpen` open ones (`too_many`). Counted under the email's lock, in the caller's
   * transaction, so that two submissions for one person are counted one after the other.
   */
  @GenerateSql({
    params: [
      {
        id: 'app_1',
        petId: 1,
        applicantAccountId: 2,
        listerAccountId: 3,
        formVersion: 1,
        answers: [{ name: 'has_garden', label: 'A garden?', type: 'yesno', value: true }],
        contact: { name: 'Alex', email: 'alex@example.com' },
        contactEmailCanonical: 'alex@example.com',
        emailConsent: false,
      },
      5,
    ],
  })
  async insert(application: NewApplication, maxOpen: number): Promise<Submission> {
    const email = application.contactEmailCanonical;
    await this.sql.query(sql`SELECT pg_advisory_xact_lock(${APPLICATIONS_CAP_LOCK_CLASS}, hashtext(${email}))`);
    // A statement of its own after the lock, so that it counts what the previous holder committed.
    const [open] = await this.sql.rows<{ count: string; exists: boolean }>(
      sql`SELECT count(*) AS count, coalesce(bool_or(pet_id = ${application.petId}), false) AS exists
            FROM applications WHERE contact_email_canonical = ${email} AND ${OPEN}`,
    );
    if (open!.exists) return 'exists';
    if (Number(open!.count) >= maxOpen) return 'too_many';
    const rows = await this.sql.rows<ApplicationRow>(
      sql`INSERT INTO applications (id, pet_id, applicant_account_id, lister_account_id, form_version, answers, contact,
                                    contact_email_canonical, email_consent, history)
          VALUES (${application.id}, ${application.petId}, ${application.applicantAccountId},
                  ${application.listerAccountId}, ${application.formVersion}, ${JSON.stringify(application.answers)}::jsonb,
                  ${JSON.stringify(application.contact)}::jsonb, ${email}, ${application.emailConsent},
                  ${historyEntry('submitted', 'applicant', null)})
          RETURNING ${COLUMNS}`,
    );
    return toApplication(rows[0]!);
  }

  @GenerateSql({ params: ['app_1'] })
  async findById(id: string): Promise<StoredApplication | undefined> {
    const rows = await this.sql.rows<ApplicationRow>(sql`SELECT ${COLUMNS} FROM applications WHERE id = ${id}`);
    return rows[0] && toApplication(rows[0]);
  }

  /**
   * The application after a party's transition; undefined when it is not in a state the transition leaves,
   * or the caller is not the party that may ask. The UPDATE locks the row: transitions of one application
   * run one after the other.
   */
  @GenerateSql({ params: ['app_1', 2, { from: ['submitted', 'under_review'], to: 'declined', who: 'lister' }, 'No.'] })
  async transition(
    id: string,
    callerAccountId: number,
    transition: Pick<ApplicationTransition, 'from' | 'to' | 'who'>,
    note?: string,
  ): Promise<StoredApplication | undefined> {
    const party = transition.who === 'lister' ? sql`lister_account_id` : sql`applicant_account_id`;
    const rows = await this.sql.rows<ApplicationRow>(
      sql`UPDATE applications SET ${changeTo(transition.to, transition.who, note ?? null)}
           WHERE id = ${id} AND status = ANY(${transition.from}::text[]) AND ${party} = ${callerAccountId}
          RETURNING ${COLUMNS}`,
    );
    return rows[0] && toApplication(rows[0]);
  }

  /** Records the order an approval placed. */
  @GenerateSql({ params: ['app_1', 7] })
  async setOrder(id: string, orderId: number): Promise<StoredApplication> {
    const rows = await this.sql.rows<ApplicationRow>(
      sql`UPDATE applications SET order_id = ${orderId} WHERE id = ${id} RETURNING ${COLUMNS}`,
    );
    return toApplication(rows[0]!);
  }

  /** The open application of an order, moved to `status` by the service; none when it is not open. */
  @GenerateSql({ params: [7, 'closed', 'order_cancelled'] })
  followOrder(orderId: number, status: ApplicationStatus, reason: ClosedReason | null): Promise<StoredApplication[]> {
    return this.follow(sql`order_id = ${orderId}`, status, reason);
  }

  /** The open applications of a pet, closed by the service for `reason`. */
  @GenerateSql({ params: [1, 'pet_removed'] })
  closeOpenOfPet(petId: number, reason: ClosedReason): Promise<StoredApplication[]> {
    return this.follow(sql`pet_id = ${petId}`, 'closed', reason);
  }

  /**
   * One page of the account's applications, with one more than `limit` when another page follows: newest
   * first, each side over its own index; a role keeps one side. An account never applies for its own pet,
   * so the sides do not overlap.
   */
  @GenerateSql(
    { name: 'either side, first page', params: [1, { limit: 20 }] },
    {
      name: 'as lister, submitted, of a pet, next page',
      params: [1, { role: 'lister', status: 'submitted', petId: 3, beforeSeq: 100, limit: 20 }],
    },
  )
  async list(accountId: number, listing: ApplicationListing): Promise<StoredApplication[]> {
    const rows = await this.sql.rows<ApplicationRow>(applicationsPage(accountId, listing));
    return rows.map(toApplication);
  }

  /**
   * Up to `limit` applications that became declined, withdrawn or closed more than `days` ago and still hold
   * personal data, the longest ended first, over the partial index of those not yet erased.
   */
  @GenerateSql({ params: [365, 500] })
  async findPastRetention(days: number, limit: number): Promise<string[]> {
    const rows = await this.sql.rows<{ id: string }>(pastRetention(days, limit));
    return rows.map((row) => row.id);
  }

  /**
   * Erases the personal data of these applications, whatever their state: the contact (and its canonical
   * email), the answers (`[]`) and the bodies of their messages (`null`); states, history and meetings stay.
   * The one place that erases it, for the retention and for an account's erasure alike; idempotent.
   */
  @GenerateSql({ params: [['app_1', 'app_2']] })
  async erasePersonalData(ids: readonly string[]): Promise<void> {
    if (ids.length === 0) return;
    await this.sql.query(
      sql`WITH erased AS (
            UPDATE applications SET contact = NULL, contact_email_canonical = NULL, answers = '[]'::jsonb
             WHERE id = ANY(${ids}::text[])
            RETURNING id
          )
          UPDATE application_messages SET body = NULL
           WHERE application_id IN (SELECT id FROM erased) AND body IS NOT NULL`,
    );
  }

  private async follow(
    which: SqlFragment,
    status: ApplicationStatus,
    reason: ClosedReason | null,
  ): Promise<StoredApplication[]> {
    const rows = await this.sql.rows<ApplicationRow>(
      sql`UPDATE applications SET ${changeTo(status, 'service', null)}, closed_reason = ${reason}
           WHERE ${which} AND ${OPEN}
          RETURNING ${COLUMNS}`,
    );
    return rows.map(toApplication);
  }
}
