import type { ApplicationForms } from '@app/database';
import { Batcher } from '@app/core';
import { GenerateSql, sql, Sql } from '@app/database';
import { Injectable } from '@nestjs/common';
import type { Selectable } from 'kysely';
import type { FormField } from './application-form';

export interface StoredForm {
  version: number;
  fields: FormField[];
  notifyEmail: string | null;
  updatedAt: Date;
}

type FormRow = Omit<Selectable<ApplicationForms>, 'account_id'>;

const COLUMNS = sql`version, fields, notify_email, updated_at`;

const toForm = (row: FormRow): StoredForm => ({
  version: row.version,
  fields: row.fields as unknown as FormField[],
  notifyEmail: row.notify_email,
  updatedAt: row.updated_at,
});

/** `application_forms`: each lister's one form. */
@Injectable()
export class ApplicationFormsRepository {
  /** Forms read close together (each submission reads its lister's) are read with one statement. */
  private readonly lookups = new Batcher<number, StoredForm | undefined>((accountIds) => this.lookUp(accountIds), 0);

  constructor(private readonly sql: Sql) {}

  @GenerateSql({ params: [1] })
  find(accountId: number): Promise<StoredForm | undefined> {
    return this.sql.batched(this.lookups, accountId);
  }

  /**
   * The form as put: version 1 when new, one more when its fields changed, the same when they did not
   * (`notifyEmail` and `updatedAt` follow every put). One statement, so that puts that race each count.
   */
  @GenerateSql({ params: [1, [{ name: 'has_garden', label: 'A garden?', type: 'yesno', required: true }], null] })
  async put(accountId: number, fields: FormField[], notifyEmail: string | null): Promise<StoredForm> {
    const rows = await this.sql.rows<FormRow>(
      sql`INSERT INTO application_forms AS form (account_id, version, fields, notify_email)
          VALUES (${accountId}, 1, ${JSON.stringify(fields)}::jsonb, ${notifyEmail})
          ON CONFLICT (account_id) DO UPDATE
            SET version = form.version + CASE WHEN form.fields = EXCLUDED.fields THEN 0 ELSE 1 END,
                fields = EXCLUDED.fields, notify_email = EXCLUDED.notify_email, updated_at = now()
          RETURNING ${COLUMNS}`,
    );
    return toForm(rows[0]!);
  }

  /** Deletes the account's form; whether it had one. */
  @GenerateSql({ params: [1] })
  async delete(accountId: number): Promise<boolean> {
    const { rowCount } = await this.sql.query(sql`DELETE FROM application_forms WHERE account_id = ${accountId}`);
    return rowCount! > 0;
  }

  private async lookUp(accountIds: number[]): Promise<Array<StoredForm | undefined>> {
    const rows = await this.sql.rows<Selectable<ApplicationForms>>(
      sql`SELECT account_id, ${COLUMNS} FROM application_forms WHERE account_id = ANY(${accountIds}::bigint[])`,
    );
    const byAccount = new Map(rows.map((row) => [Number(row.account_id), toForm(row)]));
    return accountIds.map((accountId) => byAccount.get(accountId));
  }
}
