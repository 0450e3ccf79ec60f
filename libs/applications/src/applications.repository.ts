import { exportedAs } from '@app/core';
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

type SubmittedRow = { submitted_id: string; refusal: 'exists' | 'too_many' | null } & Partial<ApplicationRow>;

/** The applications in rounds in which no contact email is twice, in their order. */
function roundsOfDistinctEmails(applications: readonly NewApplication[]): NewApplication[][] {
  const rounds: Array<{ applications: NewApplication[]; emails: Set<string> }> = [];
  for (const application of applications) {
    const email = application.contactEmailCanonical;
    let round = rounds.find(({ emails }) => !emails.has(email));
    if (!round) {
      round = { applications: [], emails: new Set() };
      rounds.push(round);
    }
    round.applications.push(application);
    round.emails.add(email);
  }
  return rounds.map((round) => round.applications);
}

/**
 * The statement of a round of submissions (ApplicationsRepository.insertAll): each is inserted unless its contact
 * email already has an open application for the pet or `maxOpen` open ones, each counted on the open applications'
 * index by contact. Gives every submission's id with its refusal, or with the application inserted.
 */
function insertUnlessCapped(round: readonly NewApplication[], maxOpen: number): SqlFragment {
  const column = <K extends keyof NewApplication>(key: K) => round.map((application) => application[key]);
  const json = (key: 'answers' | 'contact') => round.map((application) => JSON.stringify(application[key]));
  return sql`WITH submitted AS (
      SELECT * FROM unnest(${column('id')}::text[], ${column('petId')}::bigint[], ${column('applicantAccountId')}::bigint[],
                           ${column('listerAccountId')}::bigint[], ${column('formVersion')}::int[], ${json('answers')}::jsonb[],
                           ${json('contact')}::jsonb[], ${column('contactEmailCanonical')}::text[], ${column('emailConsent')}::boolean[])
               AS s (id, pet_id, applicant_account_id, lister_account_id, form_version, answers, contact,
                     contact_email_canonical, email_consent)
    ), decided AS (
      SELECT s.*,
             CASE WHEN bool_or(held.pet_id = s.pet_id) THEN 'exists' WHEN count(held.id) >= ${maxOpen} THEN 'too_many' END
               AS refusal
        FROM submitted s
        LEFT JOIN applications held ON held.contact_email_canonical = s.contact_email_canonical
                                   AND held.status = ANY(${OPEN_APPLICATION_STATUSES}::text[])
       GROUP BY s.id, s.pet_id, s.applicant_account_id, s.lister_account_id, s.form_version, s.answers, s.contact,
                s.contact_email_canonical, s.email_consent
    ), inserted AS (
      INSERT INTO applications (id, pet_id, applicant_account_id, lister_account_id, form_version, answers, contact,
                                contact_email_canonical, email_consent, history)
      SELECT id, pet_id, applicant_account_id, lister_account_id, form_version, answers, contact,
             contact_email_canonical, email_consent, ${historyEntry('submitted', 'applicant', null)}
        FROM decided WHERE refusal IS NULL
      RETURNING ${COLUMNS}
    )
    SELECT decided.id AS submitted_id, decided.refusal, inserted.*
      FROM decided LEFT JOIN inserted ON inserted.id = decided.id`;
}

/** `applications`: the applications, their caps and guarded changes of state. */
@Injectable()
export class ApplicationsRepository {
  constructor(private readonly sql: Sql) {}

  /**
   * Each new application, `submitted`, or why not, in the applications' order: the contact email has an open
   * application for the pet (`exists`) or `maxOpen` open ones (`too_many`). Counted under the emails' locks, in
   * the caller's transaction, so that submissions for one person are counted one after the other; submissions
   * that share an email are written a statement after the other, each counting the one before.
   */
  @GenerateSql({
    params: [
      [
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
      ],
      5,
    ],
  })
  async insertAll(applications: readonly NewApplication[], maxOpen: number): Promise<Submission[]> {
    const emails = [...new Set(applications.map((application) => application.contactEmailCanonical))];
    await this.sql.query(
      sql`SELECT pg_advisory_xact_lock(${APPLICATIONS_CAP_LOCK_CLASS}, key)
            FROM (SELECT DISTINCT hashtext(email) AS key FROM unnest(${emails}::text[]) AS email ORDER BY key) AS keys`,
    );
    const submissions = new Map<string, Submission>();
    for (const round of roundsOfDistinctEmails(applications)) {
      // A statement of its own after the locks, so that it counts what the previous holders committed.
      for (const row of await this.sql.rows<SubmittedRow>(insertUnlessCapped(round, maxOpen)))
        submissions.set(row.submitted_id, row.refusal ?? toApplication(row as ApplicationRow));
    }
    return applications.map((application) => submissions.get(application.id)!);
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
   * The one place that erases it, for the retention (`whose` `all`) and for an account's erasure alike:
   * the erased applicant's contact, answers and own messages, or only the erased lister's messages (the
   * applicant's contact and answers are the applicant's). Idempotent.
   */
  @GenerateSql(
    { name: 'all', params: [['app_1', 'app_2']] },
    { name: "the lister's messages", params: [['app_1'], 'lister'] },
  )
  async erasePersonalData(ids: readonly string[], whose: 'all' | ApplicationRole = 'all'): Promise<void> {
    if (ids.length === 0) return;
    await this.sql.query(
      sql`WITH erased AS (
            UPDATE applications SET contact = NULL, contact_email_canonical = NULL, answers = '[]'::jsonb
             WHERE id = ANY(${ids}::text[]) AND ${whose}::text <> 'lister'
          )
          UPDATE application_messages SET body = NULL
           WHERE application_id = ANY(${ids}::text[]) AND body IS NOT NULL
             AND (${whose}::text = 'all' OR sender = ${whose})`,
    );
  }

  /** Up to `limit` open applications the account made, oldest first: what its erasure withdraws. */
  @GenerateSql({ params: [1, 200] })
  async findOpenAsApplicant(accountId: number, limit: number): Promise<string[]> {
    const rows = await this.sql.rows<{ id: string }>(
      sql`SELECT id FROM applications WHERE applicant_account_id = ${accountId} AND ${OPEN} ORDER BY seq LIMIT ${limit}`,
    );
    return rows.map((row) => row.id);
  }

  /**
   * Up to `limit` of the account's applications in `role` that still hold its personal data: as the
   * applicant, a contact, answers or a message of its own; as the lister, a message of its own.
   */
  @GenerateSql(
    { name: 'as applicant', params: [1, 'applicant', 200] },
    { name: 'as lister', params: [1, 'lister', 200] },
  )
  async findWithDataOf(accountId: number, role: ApplicationRole, limit: number): Promise<string[]> {
    const party = role === 'lister' ? sql`lister_account_id` : sql`applicant_account_id`;
    const ownData = role === 'lister' ? sql`false` : sql`(a.contact IS NOT NULL OR a.answers <> '[]'::jsonb)`;
    const rows = await this.sql.rows<{ id: string }>(
      sql`SELECT a.id FROM applications a
           WHERE a.${party} = ${accountId}
             AND (${ownData} OR EXISTS (SELECT FROM application_messages m
                                         WHERE m.application_id = a.id AND m.sender = ${role} AND m.body IS NOT NULL))
           ORDER BY a.seq LIMIT ${limit}`,
    );
    return rows.map((row) => row.id);
  }

  /** The account's applications of both roles a page at a time, by `seq`. */
  @GenerateSql({ params: [1, 500] })
  exported(accountId: number, pageSize: number): AsyncIterable<StoredApplication> {
    return exportedAs(
      this.sql.pages<ApplicationRow>(
        pageSize,
        (after) =>
          sql`SELECT ${COLUMNS} FROM applications
               WHERE (applicant_account_id = ${accountId} OR lister_account_id = ${accountId})
                 AND seq > ${after?.seq ?? 0}
               ORDER BY seq LIMIT ${pageSize}`,
      ),
      toApplication,
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
