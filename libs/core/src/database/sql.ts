import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Pool, QueryResult, QueryResultRow } from 'pg';
import { DataSource } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';

/**
 * Parameterised SQL straight on the connection pool TypeORM opened, for the request hot paths:
 * `DataSource.query` creates, connects and releases a QueryRunner around every statement, which costs
 * more than a short indexed query itself. Errors are pg's own (`error.code` is the SQLSTATE).
 */
@Injectable()
export class Sql {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  private get pool(): Pool {
    return (this.dataSource.driver as PostgresDriver).master as Pool;
  }

  async rows<Row extends QueryResultRow>(text: string, values: unknown[] = []): Promise<Row[]> {
    return (await this.query<Row>(text, values)).rows;
  }

  query<Row extends QueryResultRow>(text: string, values: unknown[] = []): Promise<QueryResult<Row>> {
    return this.pool.query<Row>(text, values);
  }
}

/** The SQLSTATE of a failed statement, whether pg raised it or TypeORM wrapped it. */
export function sqlState(error: unknown): string | undefined {
  const { code, driverError } = (error ?? {}) as { code?: unknown; driverError?: { code?: unknown } };
  const state = driverError?.code ?? code;
  return typeof state === 'string' ? state : undefined;
}
