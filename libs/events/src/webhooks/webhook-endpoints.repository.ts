import { exportedAs } from '@app/core';
import { GenerateSql, sql, Sql, SqlFragment } from '@app/database';
import { Injectable } from '@nestjs/common';
import type { SealedSecrets } from './webhook-secrets';

/**
 * Class of the advisory lock an endpoint's creation takes on its account (the object is a hash of the
 * account id), so that two creations at once cannot both find nine endpoints and make twelve.
 */
const ENDPOINTS_CAP_LOCK_CLASS = 731_044_205;

export interface WebhookEndpoint extends SealedSecrets {
  id: number;
  accountId: number;
  url: string;
  eventTypes: string[];
  description: string | null;
  enabled: boolean;
  createdAt: Date;
  updatedAt: Date;
}

/** What a delivery needs of its endpoint. */
export interface EndpointTarget extends SealedSecrets {
  id: number;
  url: string;
  enabled: boolean;
}

/** The sealed secrets' columns, as a row has them. */
export interface SealedSecretsRow {
  secret_ciphertext: string;
  previous_secret_ciphertext: string | null;
  previous_secret_expires_at: Date | null;
}

export function toSealedSecrets(row: SealedSecretsRow): SealedSecrets {
  return {
    secretCiphertext: row.secret_ciphertext,
    previousSecretCiphertext: row.previous_secret_ciphertext,
    previousSecretExpiresAt: row.previous_secret_expires_at,
  };
}

const SECRETS_COLUMNS = sql`secret_ciphertext, previous_secret_ciphertext, previous_secret_expires_at`;

interface EndpointRow extends SealedSecretsRow {
  id: string;
  account_id: string;
  url: string;
  event_types: string[];
  description: string | null;
  enabled: boolean;
  created_at: Date;
  updated_at: Date;
}

const COLUMNS = sql`id, account_id, url, event_types, description, enabled, ${SECRETS_COLUMNS}, created_at, updated_at`;

function toEndpoint(row: EndpointRow): WebhookEndpoint {
  return {
    id: Number(row.id),
    accountId: Number(row.account_id),
    url: row.url,
    eventTypes: row.event_types,
    description: row.description,
    enabled: row.enabled,
    ...toSealedSecrets(row),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export interface NewWebhookEndpoint {
  url: string;
  eventTypes: string[];
  description?: string;
  secretCiphertext: string;
}

export interface WebhookEndpointChange {
  url?: string;
  eventTypes?: string[];
  description?: string | null;
  enabled?: boolean;
}

/** Which column each field of a change sets. */
const CHANGE_COLUMNS: Record<keyof WebhookEndpointChange, SqlFragment> = {
  url: sql`url`,
  eventTypes: sql`event_types`,
  description: sql`description`,
  enabled: sql`enabled`,
};

/** The enabled endpoints of an account that the dispatcher may send events to. */
export interface Subscriber {
  id: number;
  accountId: number;
  eventTypes: string[];
}

/** `webhook_endpoints`: each account's endpoints, their subscriptions and sealed secrets. */
@Injectable()
export class WebhookEndpointsRepository {
  constructor(private readonly sql: Sql) {}

  /** The new endpoint, or undefined when the account already has `max`. */
  @GenerateSql({
    params: [1, { url: 'https://example.com/hooks', eventTypes: ['pet.created'], secretCiphertext: 'sealed' }, 10],
  })
  create(accountId: number, endpoint: NewWebhookEndpoint, max: number): Promise<WebhookEndpoint | undefined> {
    return this.sql.transaction(async () => {
      await this.sql.query(
        sql`SELECT pg_advisory_xact_lock(${ENDPOINTS_CAP_LOCK_CLASS}, hashtext(${accountId}::text))`,
      );
      // A statement of its own after the lock, so that it counts what the previous holder committed.
      const rows = await this.sql.rows<EndpointRow>(
        sql`INSERT INTO webhook_endpoints (account_id, url, event_types, description, secret_ciphertext)
            SELECT ${accountId}, ${endpoint.url}, ${endpoint.eventTypes}, ${endpoint.description ?? null},
                   ${endpoint.secretCiphertext}
             WHERE (SELECT count(*) FROM webhook_endpoints WHERE account_id = ${accountId}) < ${max}
            RETURNING ${COLUMNS}`,
      );
      return rows[0] && toEndpoint(rows[0]);
    });
  }

  @GenerateSql({ params: [1] })
  async list(accountId: number): Promise<WebhookEndpoint[]> {
    const rows = await this.sql.rows<EndpointRow>(
      sql`SELECT ${COLUMNS} FROM webhook_endpoints WHERE account_id = ${accountId} ORDER BY id`,
    );
    return rows.map(toEndpoint);
  }

  @GenerateSql({ params: [1, 2] })
  async findOne(accountId: number, id: number): Promise<WebhookEndpoint | undefined> {
    const rows = await this.sql.rows<EndpointRow>(
      sql`SELECT ${COLUMNS} FROM webhook_endpoints WHERE id = ${id} AND account_id = ${accountId}`,
    );
    return rows[0] && toEndpoint(rows[0]);
  }

  /** One statement per set of fields changed: the examples are those of the operations' typical calls. */
  @GenerateSql(
    { name: 'enabled', params: [1, 2, { enabled: false }] },
    {
      name: 'every field',
      params: [
        1,
        2,
        { url: 'https://example.com/hooks', eventTypes: ['pet.created'], description: null, enabled: true },
      ],
    },
  )
  async update(accountId: number, id: number, change: WebhookEndpointChange): Promise<WebhookEndpoint | undefined> {
    const assignments = Object.entries(change)
      .filter(([, value]) => value !== undefined)
      .map(([field, value]) => sql`${CHANGE_COLUMNS[field as keyof WebhookEndpointChange]} = ${value}`);
    const rows = await this.sql.rows<EndpointRow>(
      sql`UPDATE webhook_endpoints SET ${sql.join(assignments)}, updated_at = now()
           WHERE id = ${id} AND account_id = ${accountId} RETURNING ${COLUMNS}`,
    );
    return rows[0] && toEndpoint(rows[0]);
  }

  /**
   * Makes `secretCiphertext` the endpoint's secret, and the one it replaces its previous secret until
   * `hours` from now; a previous secret still in its overlap is dropped (two secrets sign at most).
   */
  @GenerateSql({ params: [1, 2, 'sealed', 24] })
  async rotateSecret(
    accountId: number,
    id: number,
    secretCiphertext: string,
    hours: number,
  ): Promise<WebhookEndpoint | undefined> {
    // The right-hand sides read the row as it was: the current secret becomes the previous one.
    const rows = await this.sql.rows<EndpointRow>(
      sql`UPDATE webhook_endpoints
             SET previous_secret_ciphertext = secret_ciphertext, secret_ciphertext = ${secretCiphertext},
                 previous_secret_expires_at = now() + ${hours} * interval '1 hour', updated_at = now()
           WHERE id = ${id} AND account_id = ${accountId} RETURNING ${COLUMNS}`,
    );
    return rows[0] && toEndpoint(rows[0]);
  }

  /** The account's endpoints a page at a time, by id. */
  @GenerateSql({ params: [1, 500] })
  exported(accountId: number, pageSize: number): AsyncIterable<WebhookEndpoint> {
    const rows = this.sql.pages<EndpointRow>(
      pageSize,
      (after) =>
        sql`SELECT ${COLUMNS} FROM webhook_endpoints WHERE account_id = ${accountId} AND id > ${after?.id ?? 0}
             ORDER BY id LIMIT ${pageSize}`,
    );
    return exportedAs(rows, toEndpoint);
  }

  /** Deletes up to `limit` endpoints of a deleted account, with their attempts; how many. */
  @GenerateSql({ params: [1, 200] })
  async deleteSome(accountId: number, limit: number): Promise<number> {
    const result = await this.sql.query(
      sql`DELETE FROM webhook_endpoints
           WHERE id IN (SELECT id FROM webhook_endpoints WHERE account_id = ${accountId} LIMIT ${limit})`,
    );
    return result.rowCount!;
  }

  @GenerateSql({ params: [1, 2] })
  async delete(accountId: number, id: number): Promise<boolean> {
    const result = await this.sql.query(
      sql`DELETE FROM webhook_endpoints WHERE id = ${id} AND account_id = ${accountId}`,
    );
    return result.rowCount === 1;
  }

  /** Where each of the endpoints sends, and whether it is enabled; endpoints gone are left out. */
  @GenerateSql({ params: [[1, 2]] })
  async targets(ids: number[]): Promise<EndpointTarget[]> {
    const rows = await this.sql.rows<SealedSecretsRow & { id: string; url: string; enabled: boolean }>(
      sql`SELECT id, url, ${SECRETS_COLUMNS}, enabled FROM webhook_endpoints WHERE id = ANY(${ids})`,
    );
    return rows.map((row) => ({ id: Number(row.id), url: row.url, ...toSealedSecrets(row), enabled: row.enabled }));
  }

  /** The enabled endpoints of these accounts, with the event types each subscribes to. */
  @GenerateSql({ params: [[1, 2]] })
  async subscribers(accountIds: number[]): Promise<Subscriber[]> {
    const rows = await this.sql.rows<{ id: string; account_id: string; event_types: string[] }>(
      sql`SELECT id, account_id, event_types FROM webhook_endpoints WHERE enabled AND account_id = ANY(${accountIds})`,
    );
    return rows.map((row) => ({ id: Number(row.id), accountId: Number(row.account_id), eventTypes: row.event_types }));
  }
}
