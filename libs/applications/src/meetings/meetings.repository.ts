import { exportedAs } from '@app/core';
import type { Meetings } from '@app/database';
import { GenerateSql, sql, Sql } from '@app/database';
import { Injectable } from '@nestjs/common';
import type { Selectable } from 'kysely';
import type { ApplicationStatus } from '../application-transitions';
import { LIVE_MEETING_STATUSES, MeetingStatus, MeetingTransition } from './meeting-transitions';

/** A meeting as stored, with the two parties of its application (whom its events go to). */
export interface StoredMeeting {
  id: string;
  applicationId: string;
  applicantAccountId: number;
  listerAccountId: number;
  startsAt: Date;
  endsAt: Date;
  location: string | null;
  status: MeetingStatus;
  createdAt: Date;
  updatedAt: Date;
}

/** The parties and the state of an application, read under its row lock. */
export interface LockedApplication {
  status: ApplicationStatus;
  applicantAccountId: number;
  listerAccountId: number;
}

export interface NewMeeting {
  id: string;
  applicationId: string;
  startsAt: Date;
  endsAt: Date;
  location: string | null;
}

type MeetingRow = Omit<Selectable<Meetings>, 'reminded_at'> & {
  applicant_account_id: string;
  lister_account_id: string;
};

/** The columns of `m` (meetings) and `a` (its application) a StoredMeeting reads. */
const COLUMNS = sql`m.id, m.application_id, a.applicant_account_id, a.lister_account_id, m.starts_at, m.ends_at,
  m.location, m.status, m.created_at, m.updated_at`;
const UPDATED = sql`id, application_id, starts_at, ends_at, location, status, created_at, updated_at`;
const LIVE = sql`status = ANY(${LIVE_MEETING_STATUSES}::text[])`;

function toMeeting(row: MeetingRow): StoredMeeting {
  return {
    id: row.id,
    applicationId: row.application_id,
    applicantAccountId: Number(row.applicant_account_id),
    listerAccountId: Number(row.lister_account_id),
    startsAt: row.starts_at,
    endsAt: row.ends_at,
    location: row.location,
    status: row.status as MeetingStatus,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** `meetings`: the meetings of each application, their steps and their reminders. */
@Injectable()
export class MeetingsRepository {
  constructor(private readonly sql: Sql) {}

  /**
   * The application's state and parties, its row locked until the transaction ends: a proposal counts the
   * live meetings after it, so that two proposals are counted one after the other, and a change of the
   * application's state (which cancels its meetings) runs before or after, never between.
   */
  @GenerateSql({ params: ['app_1'] })
  async lockApplication(applicationId: string): Promise<LockedApplication | undefined> {
    const rows = await this.sql.rows<{ status: string; applicant_account_id: string; lister_account_id: string }>(
      sql`SELECT status, applicant_account_id, lister_account_id FROM applications
           WHERE id = ${applicationId} FOR NO KEY UPDATE`,
    );
    const row = rows[0];
    return (
      row && {
        status: row.status as ApplicationStatus,
        applicantAccountId: Number(row.applicant_account_id),
        listerAccountId: Number(row.lister_account_id),
      }
    );
  }

  /** How many of the application's meetings are proposed or accepted. */
  @GenerateSql({ params: ['app_1'] })
  async countLive(applicationId: string): Promise<number> {
    const [row] = await this.sql.rows<{ count: number }>(
      sql`SELECT count(*)::int AS count FROM meetings WHERE application_id = ${applicationId} AND ${LIVE}`,
    );
    return row!.count;
  }

  @GenerateSql({
    params: [
      {
        id: 'mtg_1',
        applicationId: 'app_1',
        startsAt: new Date('2026-06-01T10:00:00Z'),
        endsAt: new Date('2026-06-01T11:00:00Z'),
        location: 'The shelter',
      },
    ],
  })
  async insert(meeting: NewMeeting): Promise<StoredMeeting> {
    const rows = await this.sql.rows<MeetingRow>(
      sql`WITH m AS (
            INSERT INTO meetings (id, application_id, starts_at, ends_at, location)
            VALUES (${meeting.id}, ${meeting.applicationId}, ${meeting.startsAt}, ${meeting.endsAt}, ${meeting.location})
            RETURNING ${UPDATED}
          )
          SELECT ${COLUMNS} FROM m JOIN applications a ON a.id = m.application_id`,
    );
    return toMeeting(rows[0]!);
  }

  @GenerateSql({ params: ['app_1', 'mtg_1'] })
  async find(applicationId: string, meetingId: string): Promise<StoredMeeting | undefined> {
    const rows = await this.sql.rows<MeetingRow>(
      sql`SELECT ${COLUMNS} FROM meetings m JOIN applications a ON a.id = m.application_id
           WHERE m.id = ${meetingId} AND m.application_id = ${applicationId}`,
    );
    return rows[0] && toMeeting(rows[0]);
  }

  /**
   * The meeting after a party's step; undefined when it is not in a state the step leaves, or the caller is
   * not a party that may ask. The UPDATE locks the row: steps of one meeting run one after the other.
   */
  @GenerateSql({ params: ['app_1', 'mtg_1', 2, { from: ['proposed'], to: 'accepted', who: 'applicant' }] })
  async transition(
    applicationId: string,
    meetingId: string,
    callerAccountId: number,
    transition: Pick<MeetingTransition, 'from' | 'to' | 'who'>,
  ): Promise<StoredMeeting | undefined> {
    const who = transition.who ?? null;
    const rows = await this.sql.rows<MeetingRow>(
      sql`WITH m AS (
            UPDATE meetings SET status = ${transition.to}, updated_at = now()
             WHERE id = ${meetingId} AND application_id = ${applicationId}
               AND status = ANY(${transition.from}::text[])
               AND EXISTS (SELECT 1 FROM applications
                            WHERE id = ${applicationId}
                              AND ((${who}::text IS DISTINCT FROM 'lister' AND applicant_account_id = ${callerAccountId})
                                OR (${who}::text IS DISTINCT FROM 'applicant' AND lister_account_id = ${callerAccountId})))
            RETURNING ${UPDATED}
          )
          SELECT ${COLUMNS} FROM m JOIN applications a ON a.id = m.application_id`,
    );
    return rows[0] && toMeeting(rows[0]);
  }

  /** The live meetings of these applications, cancelled (their applications became final). */
  @GenerateSql({ params: [['app_1', 'app_2']] })
  async cancelLiveOf(applicationIds: readonly string[]): Promise<StoredMeeting[]> {
    if (applicationIds.length === 0) return [];
    const rows = await this.sql.rows<MeetingRow>(
      sql`WITH m AS (
            UPDATE meetings SET status = 'cancelled', updated_at = now()
             WHERE application_id = ANY(${applicationIds}::text[]) AND ${LIVE}
            RETURNING ${UPDATED}
          )
          SELECT ${COLUMNS} FROM m JOIN applications a ON a.id = m.application_id`,
    );
    return rows.map(toMeeting);
  }

  /** One page of the application's meetings, soonest first, with one more than `limit` when another follows. */
  @GenerateSql({ params: ['app_1', { offset: 0, limit: 20 }] })
  async list(applicationId: string, page: { offset: number; limit: number }): Promise<StoredMeeting[]> {
    const rows = await this.sql.rows<MeetingRow>(
      sql`SELECT ${COLUMNS} FROM meetings m JOIN applications a ON a.id = m.application_id
           WHERE m.application_id = ${applicationId}
           ORDER BY m.starts_at, m.id OFFSET ${page.offset} LIMIT ${page.limit + 1}`,
    );
    return rows.map(toMeeting);
  }

  /** An application's meetings a page at a time, in the order they were proposed: for its parties' exports. */
  @GenerateSql({ params: ['app_1', 500] })
  exported(applicationId: string, pageSize: number): AsyncIterable<StoredMeeting> {
    return exportedAs(
      this.sql.pages<MeetingRow>(
        pageSize,
        (after) =>
          sql`SELECT ${COLUMNS} FROM meetings m JOIN applications a ON a.id = m.application_id
               WHERE m.application_id = ${applicationId}
                 AND (m.created_at, m.id) > (${after?.created_at ?? new Date(0)}, ${after?.id ?? ''})
               ORDER BY m.created_at, m.id LIMIT ${pageSize}`,
      ),
      toMeeting,
    );
  }

  /**
   * Claims up to `limit` accepted meetings that start within `leadHours` and were not reminded, oldest start
   * first, marking them reminded, over the partial index of due reminders. Rows another run holds are
   * skipped; the caller records the reminders in the same transaction, so each is sent once, or not at all
   * and claimed again by a later run.
   */
  @GenerateSql({ params: [24, 100] })
  async claimDueReminders(leadHours: number, limit: number): Promise<StoredMeeting[]> {
    const rows = await this.sql.rows<MeetingRow>(
      sql`WITH m AS (
            UPDATE meetings SET reminded_at = now()
             WHERE id IN (SELECT id FROM meetings
                           WHERE status = 'accepted' AND reminded_at IS NULL
                             AND starts_at <= now() + make_interval(hours => ${leadHours})
                           ORDER BY starts_at LIMIT ${limit} FOR UPDATE SKIP LOCKED)
            RETURNING ${UPDATED}
          )
          SELECT ${COLUMNS} FROM m JOIN applications a ON a.id = m.application_id`,
    );
    return rows.map(toMeeting);
  }
}
