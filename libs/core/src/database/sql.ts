import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Pool, QueryResult, QueryResultRow } from 'pg';
import { DataSource } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';

/**
 * Statement texts come from the code, never from callers (their data travels as parameters), so
 * there are a few dozen at most. The cap on names given out keeps a future text built from data from
 * preparing a new statement on every connection for every call; past it, texts run unnamed.
 */
const MAX_PREPARED_STATEMENTS = 200;

/**
 * Where PostgreSQL refuses a prepared statement whose result columns changed type since it was parsed
 * ("cached plan must not change result type"): the routine's name, unlike the message, is never translated.
 */
const RESULT_TYPE_CHANGED = 'RevalidateCachedQuery';

/**
 * Parameterised SQL straight on the connection pool TypeORM opened, for the request hot paths:
 * `DataSource.query` creates, connects and releases a QueryRunner around every statement, which costs
 * more than a short indexed query itself. Errors are pg's own (`error.code` is the SQLSTATE).
 *
 * Each text becomes a named prepared statement, which every pooled connection parses once: PostgreSQL
 * then skips parsing on later calls, about a fifth of its CPU per short query. It still plans each call
 * for its values (`plan_cache_mode` in the pool's settings).
 */
@Injectable()
export class Sql {
  private readonly statementNames = new Map<string, string>();
  private namesGiven = 0;

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  private get pool(): Pool {
    return (this.dataSource.driver as PostgresDriver).master as Pool;
  }

  async rows<Row extends QueryResultRow>(text: string, values: unknown[] = []): Promise<Row[]> {
    return (await this.query<Row>(text, values)).rows;
  }

  async query<Row extends QueryResultRow>(text: string, values: unknown[] = []): Promise<QueryResult<Row>> {
    const name = this.statementName(text);
    try {
      return await this.pool.query<Row>({ name, text, values });
    } catch (error) {
      if ((error as { routine?: unknown }).routine !== RESULT_TYPE_CHANGED) throw error;
      // A migration changed the type of a column the statement returns, and PostgreSQL refuses it on
      // every connection that prepared it before: prepare it again under a new name (once, however many
      // calls failed together). Nothing ran, so running it again is safe.
      if (this.statementNames.get(text) === name) this.statementNames.delete(text);
      return this.pool.query<Row>({ name: this.statementName(text), text, values });
    }
  }

  private statementName(text: string): string | undefined {
    let name = this.statementNames.get(text);
    if (!name && this.namesGiven < MAX_PREPARED_STATEMENTS) {
      name = `sql_${++this.namesGiven}`;
      this.statementNames.set(text, name);
    }
    return name;
  }
}

/** The SQLSTATE of a failed statement, whether pg raised it or TypeORM wrapped it. */
export function sqlState(error: unknown): string | undefined {
  const { code, driverError } = (error ?? {}) as { code?: unknown; driverError?: { code?: unknown } };
  const state = driverError?.code ?? code;
  return typeof state === 'string' ? state : undefined;
}
