import { GenerateSql, sql, Sql } from '@app/database';
import { Injectable } from '@nestjs/common';

/** A column that holds an account's id: a foreign key to `accounts`, or named `account_id` or `…_account_id`. */
export interface AccountColumn {
  table: string;
  column: string;
}

/** Reads the catalogue for the start-up check of the personal-data parts; owns no table. */
@Injectable()
export class PersonalDataRepository {
  constructor(private readonly sql: Sql) {}

  /** Every column of the schema's tables (but `accounts`' own) that holds an account's id, by table and column. */
  @GenerateSql()
  async accountColumns(): Promise<AccountColumn[]> {
    return this.sql.rows<AccountColumn>(
      sql`SELECT c.relname AS table, a.attname AS column
            FROM pg_attribute a
            JOIN pg_class c ON c.oid = a.attrelid
            JOIN pg_namespace n ON n.oid = c.relnamespace
           WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p') AND c.relname <> 'accounts'
             AND a.attnum > 0 AND NOT a.attisdropped
             AND (a.attname = 'account_id' OR a.attname LIKE '%\\_account\\_id'
                  OR EXISTS (SELECT FROM pg_constraint f
                              WHERE f.contype = 'f' AND f.conrelid = c.oid AND f.confrelid = 'accounts'::regclass
                                AND a.attnum = ANY (f.conkey)))
           ORDER BY c.relname, a.attname`,
    );
  }
}
