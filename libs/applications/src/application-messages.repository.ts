import { exportedAs } from '@app/core';
import type { ApplicationMessages } from '@app/database';
import { GenerateSql, sql, Sql } from '@app/database';
import { Injectable } from '@nestjs/common';
import type { Selectable } from 'kysely';
import { type ApplicationRole, OPEN_APPLICATION_STATUSES } from './application-transitions';

export interface StoredApplicationMessage {
  id: string;
  seq: number;
  applicationId: string;
  sender: ApplicationRole;
  /** Null once the retention has erased it. */
  body: string | null;
  createdAt: Date;
}

export interface NewApplicationMessage {
  id: string;
  applicationId: string;
  sender: ApplicationRole;
  body: string;
}

type MessageRow = Selectable<ApplicationMessages>;

const COLUMNS = sql`id, seq, application_id, sender, body, created_at`;

function toMessage(row: MessageRow): StoredApplicationMessage {
  return {
    id: row.id,
    seq: Number(row.seq),
    applicationId: row.application_id,
    sender: row.sender as ApplicationRole,
    body: row.body,
    createdAt: row.created_at,
  };
}

/** `application_messages`: each application's conversation. */
@Injectable()
export class ApplicationMessagesRepository {
  constructor(private readonly sql: Sql) {}

  /**
   * The message, added while its application is open; undefined when it is not. The application's row is
   * locked (FOR SHARE) until the transaction ends, so that a change of its state waits, and a message sent
   * as it ends is added before or refused after.
   */
  @GenerateSql({ params: [{ id: 'amsg_1', applicationId: 'app_1', sender: 'applicant', body: 'Hello' }] })
  async insertWhileOpen(message: NewApplicationMessage): Promise<StoredApplicationMessage | undefined> {
    const rows = await this.sql.rows<MessageRow>(
      sql`WITH open AS (
            SELECT id FROM applications
             WHERE id = ${message.applicationId} AND status = ANY(${OPEN_APPLICATION_STATUSES}::text[]) FOR SHARE
          )
          INSERT INTO application_messages (id, application_id, sender, body)
          SELECT ${message.id}, id, ${message.sender}, ${message.body} FROM open
          RETURNING ${COLUMNS}`,
    );
    return rows[0] && toMessage(rows[0]);
  }

  /** The first messages of applications inserted in the caller's transaction, open by then. */
  @GenerateSql({ params: [[{ id: 'amsg_1', applicationId: 'app_1', sender: 'applicant', body: 'Hello' }]] })
  async insertAll(messages: readonly NewApplicationMessage[]): Promise<StoredApplicationMessage[]> {
    if (messages.length === 0) return [];
    const column = <K extends keyof NewApplicationMessage>(key: K) => messages.map((message) => message[key]);
    const rows = await this.sql.rows<MessageRow>(
      sql`INSERT INTO application_messages (id, application_id, sender, body)
          SELECT * FROM unnest(${column('id')}::text[], ${column('applicationId')}::text[], ${column('sender')}::text[],
                               ${column('body')}::text[])
          RETURNING ${COLUMNS}`,
    );
    const byId = new Map(rows.map((row) => [row.id, toMessage(row)]));
    return messages.map((message) => byId.get(message.id)!);
  }

  /** One page of an application's messages, oldest first, with one more than `limit` when another follows. */
  @GenerateSql(
    { name: 'first page', params: ['app_1', { limit: 20 }] },
    { name: 'next page', params: ['app_1', { afterSeq: 100, limit: 20 }] },
  )
  async list(applicationId: string, page: { afterSeq?: number; limit: number }): Promise<StoredApplicationMessage[]> {
    const rows = await this.sql.rows<MessageRow>(
      sql`SELECT ${COLUMNS} FROM application_messages
           WHERE application_id = ${applicationId} AND seq > ${page.afterSeq ?? 0}
           ORDER BY seq LIMIT ${page.limit + 1}`,
    );
    return rows.map(toMessage);
  }

  /** An application's messages a page at a time, oldest first: for its parties' exports. */
  @GenerateSql({ params: ['app_1', 500] })
  exported(applicationId: string, pageSize: number): AsyncIterable<StoredApplicationMessage> {
    return exportedAs(
      this.sql.pages<MessageRow>(
        pageSize,
        (after) =>
          sql`SELECT ${COLUMNS} FROM application_messages
               WHERE application_id = ${applicationId} AND seq > ${after?.seq ?? 0}
               ORDER BY seq LIMIT ${pageSize}`,
      ),
      toMessage,
    );
  }
}
