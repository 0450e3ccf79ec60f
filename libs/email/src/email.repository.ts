import { exportedAs } from '@app/core';
import { GenerateSql, Sql, sql } from '@app/database';
import { Injectable } from '@nestjs/common';

/** Where a notification stands: `pending` until it is sent or stopped for good. */
type NotificationStatus = 'pending' | 'sent' | 'suppressed' | 'unsubscribed' | 'bounced' | 'failed';

/** A notification to write to the outbox. */
export interface NewNotification {
  id: string;
  address: string;
  addressKey: string;
  list: string;
  template: string;
  data: object;
  /** The account that gave the address, if one did. */
  accountId: number | null;
}

/** A notification as the outbox keeps it. */
export interface StoredNotification extends NewNotification {
  status: NotificationStatus;
  attempts: number;
  lastError: string | null;
  createdAt: Date;
  finishedAt: Date | null;
}

/** What stops an address receiving email: a permanent refusal, and the lists it left. */
export interface AddressStops {
  suppression?: { reason: string; createdAt: Date };
  unsubscribes: Array<{ list: string; createdAt: Date }>;
}

interface NotificationRow {
  id: string;
  address: string;
  address_key: string;
  list: string;
  template: string;
  data: object;
  account_id: string | null;
  status: NotificationStatus;
  attempts: number;
  last_error: string | null;
  created_at: Date;
  finished_at: Date | null;
}

const COLUMNS = sql`id, address, address_key, list, template, data, account_id, status, attempts, last_error, created_at,
  finished_at`;

function toNotification(row: NotificationRow): StoredNotification {
  return {
    id: row.id,
    address: row.address,
    addressKey: row.address_key,
    list: row.list,
    template: row.template,
    data: row.data,
    accountId: row.account_id === null ? null : Number(row.account_id),
    status: row.status,
    attempts: row.attempts,
    lastError: row.last_error,
    createdAt: row.created_at,
    finishedAt: row.finished_at,
  };
}

/** How long a notification is retried after it was written. */
const RETRY_FOR = sql`interval '24 hours'`;

/**
 * `email_notifications`, `email_suppressions`, `email_unsubscribes`: the outbox, written in its callers'
 * transactions; the delivery's claims and outcomes; what stops an address.
 */
@Injectable()
export class EmailRepository {
  constructor(private readonly sql: Sql) {}

  @GenerateSql({
    params: [
      [
        {
          id: 'eml_1',
          address: 'Ada@example.com',
          addressKey: 'ada@example.com',
          list: 'saved_search:srch_1',
          template: 'saved_search_digest',
          data: {},
          accountId: 7,
        },
      ],
    ],
  })
  async insert(notifications: readonly NewNotification[]): Promise<void> {
    await this.sql.query(
      sql`INSERT INTO email_notifications (id, address, address_key, list, template, data, account_id)
          SELECT * FROM unnest(${notifications.map((n) => n.id)}::text[], ${notifications.map((n) => n.address)}::text[],
                               ${notifications.map((n) => n.addressKey)}::text[], ${notifications.map((n) => n.list)}::text[],
                               ${notifications.map((n) => n.template)}::text[],
                               ${notifications.map((n) => JSON.stringify(n.data))}::jsonb[],
                               ${notifications.map((n) => n.accountId)}::bigint[])`,
    );
  }

  /**
   * Claims up to `limit` due notifications, oldest due first, skipping those another worker holds: each
   * claimed one counts an attempt and is due again `leaseMs` later, so that one a killed worker was sending
   * is sent again then. Those whose address is suppressed, or left their list, are stopped instead, and
   * not returned.
   */
  @GenerateSql({ params: [20, 120000] })
  async claimDue(limit: number, leaseMs: number): Promise<StoredNotification[]> {
    const rows = await this.sql.rows<NotificationRow & { stopped: NotificationStatus | null }>(
      sql`WITH due AS (
            SELECT n.id,
                   CASE WHEN EXISTS (SELECT FROM email_suppressions s WHERE s.address_key = n.address_key) THEN 'suppressed'
                        WHEN EXISTS (SELECT FROM email_unsubscribes u WHERE u.address_key = n.address_key AND u.list = n.list)
                          THEN 'unsubscribed'
                   END AS stopped
              FROM email_notifications n
             WHERE n.status = 'pending' AND n.next_attempt_at <= now()
             ORDER BY n.next_attempt_at
             LIMIT ${limit}
               FOR UPDATE OF n SKIP LOCKED)
          UPDATE email_notifications n
             SET status = coalesce(due.stopped, 'pending'),
                 attempts = n.attempts + (due.stopped IS NULL)::int,
                 next_attempt_at = now() + ${leaseMs} * interval '1 millisecond',
                 finished_at = CASE WHEN due.stopped IS NULL THEN NULL ELSE now() END
            FROM due
           WHERE n.id = due.id
       RETURNING n.id, n.address, n.address_key, n.list, n.template, n.data, n.account_id, n.status, n.attempts,
                 n.last_error, n.created_at, n.finished_at, due.stopped`,
    );
    return rows.filter((row) => row.stopped === null).map(toNotification);
  }

  /** The server accepted it: never sent again. */
  @GenerateSql({ params: ['eml_1'] })
  async markSent(id: string): Promise<void> {
    await this.sql.query(
      sql`UPDATE email_notifications SET status = 'sent', last_error = NULL, finished_at = now()
           WHERE id = ${id} AND status = 'pending'`,
    );
  }

  /**
   * A temporary failure: due again `backoffMs` doubled for each attempt but the first, and no later than
   * 24 hours after it was written; failed for good once those have passed.
   */
  @GenerateSql({ params: ['eml_1', '451 try again later', 30000] })
  async markRetry(id: string, error: string, backoffMs: number): Promise<void> {
    await this.sql.query(
      sql`UPDATE email_notifications
             SET status = CASE WHEN now() >= created_at + ${RETRY_FOR} THEN 'failed' ELSE 'pending' END,
                 finished_at = CASE WHEN now() >= created_at + ${RETRY_FOR} THEN now() END,
                 next_attempt_at = least(now() + ${backoffMs} * power(2, least(attempts - 1, 30)) * interval '1 millisecond',
                                         created_at + ${RETRY_FOR}),
                 last_error = ${error}
           WHERE id = ${id} AND status = 'pending'`,
    );
  }

  /** The recipient's server refused it for good: so is every email to the address, until it asks again. */
  @GenerateSql({ params: ['eml_1', '550 no such user'] })
  async markBounced(id: string, error: string): Promise<void> {
    await this.sql.query(
      sql`WITH bounced AS (
            UPDATE email_notifications SET status = 'bounced', last_error = ${error}, finished_at = now()
             WHERE id = ${id} AND status = 'pending'
         RETURNING address_key)
          INSERT INTO email_suppressions (address_key, reason)
          SELECT address_key, ${error} FROM bounced
          ON CONFLICT (address_key) DO NOTHING`,
    );
  }

  /** The address leaves the list; again is harmless. */
  @GenerateSql({ params: ['ada@example.com', 'saved_search:srch_1'] })
  async unsubscribe(addressKey: string, list: string): Promise<void> {
    await this.sql.query(
      sql`INSERT INTO email_unsubscribes (address_key, list) VALUES (${addressKey}, ${list})
          ON CONFLICT (address_key, list) DO NOTHING`,
    );
  }

  /** Each address asked for its list again: its suppression and its leaving of that list are forgotten. */
  @GenerateSql({ params: [[{ addressKey: 'ada@example.com', list: 'saved_search:srch_1' }]] })
  async askAgain(requests: readonly { addressKey: string; list: string }[]): Promise<void> {
    await this.sql.query(
      sql`WITH asked AS (
            SELECT * FROM unnest(${requests.map((r) => r.addressKey)}::text[], ${requests.map((r) => r.list)}::text[])
                     AS a (address_key, list)
          ), lifted AS (
            DELETE FROM email_suppressions WHERE address_key IN (SELECT address_key FROM asked)
          )
          DELETE FROM email_unsubscribes u USING asked WHERE u.address_key = asked.address_key AND u.list = asked.list`,
    );
  }

  /** The newest `limit` notifications to an address. */
  @GenerateSql({ params: ['ada@example.com', 50] })
  async history(addressKey: string, limit: number): Promise<StoredNotification[]> {
    const rows = await this.sql.rows<NotificationRow>(
      sql`SELECT ${COLUMNS} FROM email_notifications WHERE address_key = ${addressKey}
           ORDER BY created_at DESC, id DESC LIMIT ${limit}`,
    );
    return rows.map(toNotification);
  }

  /** The notifications to addresses the account gave, a page at a time, oldest first: for its export. */
  @GenerateSql({ params: [1, 500] })
  ofAccount(accountId: number, pageSize: number): AsyncIterable<StoredNotification> {
    return exportedAs(
      this.sql.pages<NotificationRow>(
        pageSize,
        (after) =>
          sql`SELECT ${COLUMNS} FROM email_notifications
               WHERE account_id = ${accountId}
                 AND (created_at, id) > (${after?.created_at ?? new Date(0)}, ${after?.id ?? ''})
               ORDER BY created_at, id LIMIT ${pageSize}`,
      ),
      toNotification,
    );
  }

  /**
   * Deletes up to `limit` notifications to addresses the account gave, sent or not: one still pending is
   * then never sent (the delivery claims only rows that are there). Returns how many it deleted.
   */
  @GenerateSql({ params: [1, 200] })
  async deleteOfAccount(accountId: number, limit: number): Promise<number> {
    const { rowCount } = await this.sql.query(
      sql`DELETE FROM email_notifications
           WHERE id IN (SELECT id FROM email_notifications WHERE account_id = ${accountId} LIMIT ${limit})`,
    );
    return rowCount!;
  }

  @GenerateSql({ params: ['ada@example.com'] })
  async stops(addressKey: string): Promise<AddressStops> {
    const [row] = await this.sql.rows<{
      suppression: { reason: string; created_at: string } | null;
      unsubscribes: Array<{ list: string; created_at: string }>;
    }>(
      sql`SELECT (SELECT json_build_object('reason', reason, 'created_at', created_at)
                    FROM email_suppressions WHERE address_key = ${addressKey}) AS suppression,
                 coalesce((SELECT json_agg(json_build_object('list', list, 'created_at', created_at) ORDER BY created_at)
                             FROM email_unsubscribes WHERE address_key = ${addressKey}), '[]') AS unsubscribes`,
    );
    return {
      ...(row!.suppression && {
        suppression: { reason: row!.suppression.reason, createdAt: new Date(row!.suppression.created_at) },
      }),
      unsubscribes: row!.unsubscribes.map((u) => ({ list: u.list, createdAt: new Date(u.created_at) })),
    };
  }
}
