import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Pool, QueryResult, QueryResultRow } from 'pg';
import { DataSource } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';

/**
 * Statement texts come from the code, never from callers (their data travels as parameters), so
 * there are a few dozen at most. The cap keeps a future text built from data from preparing a new
 * statement on every connection for every call.
 */
const MAX_PREPARED_STATEMENTS = 200;

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

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  private get pool(): Pool {
    return (this.dataSource.driver as PostgresDriver).master as Pool;
  }

  async rows<Row extends QueryResultRow>(text: string, values: unknown[] = []): Promise<Row[]> {
    return (await this.query<Row>(text, values)).rows;
  }

  query<Row extends QueryResultRow>(text: string, values: unknown[] = []): Promise<QueryResult<Row>> {
    return this.pool.query<Row>({ name: this.statementName(text), text, values });
  }

  private statementName(text: string): string | undefined {
    let name = this.statementNames.get(text);
    if (!name && this.statementNames.size < MAX_PREPARED_STATEMENTS) {
      name = `sql_${this.statementNames.size + 1}`;
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
