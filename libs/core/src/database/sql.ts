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

/** PostgreSQL's refusal of a prepared statement whose result columns changed type since it was parsed. */
const FEATURE_NOT_SUPPORTED = '0A000';
const RESULT_TYPE_CHANGED = /cached plan must not change result type/;

/**
 * Parameterised SQL straight on the connection pool TypeORM opened, for the request hot paths:
 * `DataSource.query` creates, connects and releases a QueryRunner around every statement, which costs
 * more than a short indexed query itself. Errors are pg's own (`error.code` is the SQLSTATE).
 *
 * Each text becomes a named prepared statement, which every pooled connection parses once: PostgreSQL
 * then skips parsing and planning on later calls, about a fifth of its CPU per short query.
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
    try {
      return await this.pool.query<Row>({ name: this.statementName(text), text, values });
    } catch (error) {
      if (sqlState(error) !== FEATURE_NOT_SUPPORTED || !RESULT_TYPE_CHANGED.test((error as Error).message)) throw error;
      // A migration changed the type of a column the statement returns, and PostgreSQL refuses it on
      // every connection that prepared it before: prepare it again under a new name. Nothing ran, so
      // running it again is safe.
      this.statementNames.delete(text);
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
