import { AsyncLocalStorage } from 'node:async_hooks';
import type { SharedReads } from '@app/core';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Pool, PoolClient, QueryResult, QueryResultRow } from 'pg';
import { DataSource } from 'typeorm';
import { DatabaseSettings } from './database.settings';
import { ReadReplicas } from './read-replicas';
import { SqlFragment } from './sql-template';
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

/** The connection a transaction holds, and whether its work may still use it. */
interface Transaction {
  client: PoolClient;
  open: boolean;
}

/** What batches items for a statement: `add` pools them across requests, `runAlone` runs one at once. */
export interface StatementBatcher<T, R> {
  add(item: T): Promise<R>;
  runAlone(item: T): Promise<R>;
}

/**
 * Parameterised SQL straight on the connection pool TypeORM opened: every repository runs its statements
 * here. `DataSource.query` creates, connects and releases a QueryRunner around every statement, which
 * costs more than a short indexed query itself. Errors are pg's own (`error.code` is the SQLSTATE).
 *
 * Each text becomes a named prepared statement, which every pooled connection parses once: PostgreSQL
 * then skips parsing on later calls, about a fifth of its CPU per short query. It still plans each call
 * for its values (`plan_cache_mode` in the pool's settings). Behind a pooler in transaction mode
 * (`DATABASE_POOL_MODE`) every text runs unnamed instead.
 */
@Injectable()
export class Sql {
  private readonly statementNames = new Map<string, string>();
  private namesGiven = 0;
  /** How many texts may become named statements: none behind a pooler in transaction mode. */
  private readonly namesToGive: number;
  /** The transaction the calling code runs in, found through its async context: no parameter to pass. */
  private readonly transactions = new AsyncLocalStorage<Transaction>();

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    settings?: DatabaseSettings,
    private readonly replicas?: ReadReplicas,
  ) {
    // There, one client connection's statements reach several server connections: a name prepared on one
    // is unknown on the next, or taken there by another client's ("prepared statement already exists").
    this.namesToGive = settings?.DATABASE_POOL_MODE === 'transaction' ? 0 : MAX_PREPARED_STATEMENTS;
  }

  private get pool(): Pool {
    return (this.dataSource.driver as PostgresDriver).master as Pool;
  }

  /** Whether the caller runs inside `transaction`, so that its statements go to the transaction's connection. */
  get inTransaction(): boolean {
    return this.transactions.getStore() !== undefined;
  }

  /**
   * Runs `work` in one transaction: every statement that any repository makes through this `Sql` while
   * it runs goes to one connection between BEGIN and COMMIT, and all of them are rolled back when `work`
   * throws (its error is rethrown as it was, SQLSTATE and all). A call made inside another joins it: the
   * outer one commits or rolls back the whole, and a statement that failed inside it has aborted the
   * whole (there are no savepoints). Work must be awaited within `work`: a statement issued once `work`
   * has settled is refused.
   */
  transaction<T>(work: () => Promise<T>): Promise<T> {
    return this.within('BEGIN', work);
  }

  /**
   * Runs `work` in one read-only REPEATABLE READ transaction: all its reads see the database as it was at
   * its first statement, whatever commits meanwhile (an export of an account that reads many tables for
   * minutes). Called inside another transaction, it joins that one.
   */
  snapshot<T>(work: () => Promise<T>): Promise<T> {
    return this.within('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY', work);
  }

  /**
   * Every row of a read made a page at a time, each page keyed on the last row of the one before (keyset
   * pagination): `page(after)` is the statement of the rows after `after` (the first page for undefined),
   * at most `size` of them. Only a page is held at once; in `snapshot`, all pages see one moment.
   */
  async *pages<Row extends QueryResultRow>(
    size: number,
    page: (after: Row | undefined) => SqlFragment,
  ): AsyncGenerator<Row, void, undefined> {
    let after: Row | undefined;
    for (;;) {
      const rows = await this.rows<Row>(page(after));
      yield* rows;
      if (rows.length < size) return;
      after = rows[rows.length - 1];
    }
  }

  private async within<T>(begin: string, work: () => Promise<T>): Promise<T> {
    const outer = this.transactions.getStore();
    if (outer) {
      assertOpen(outer);
      return work();
    }
    const client = await this.pool.connect();
    const transaction: Transaction = { client, open: true };
    /**
     * Set when ROLLBACK failed, or the connection was lost: it is then closed rather than given back in an
     * unknown state.
     */
    let broken: Error | undefined;
    // A connection lost between two statements is reported as an 'error' event, which the pool listens to
    // only while the client is idle in it: unheard, it would end the process. The next statement fails anyway.
    const lost = (error: Error) => (broken ??= error);
    client.on('error', lost);
    try {
      await client.query(begin);
      const result = await this.transactions.run(transaction, work).finally(() => {
        // A statement that `work` left running must not slip in before COMMIT or ROLLBACK.
        transaction.open = false;
      });
      await client.query('COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch((rollbackError: Error) => (broken = rollbackError));
      throw error;
    } finally {
      client.off('error', lost);
      client.release(broken);
    }
  }

  /**
   * Hands `item` to the batcher, which pools it with other requests' items into one statement. Inside a
   * transaction the item runs alone, at once, on the transaction's connection instead: a shared batch
   * would carry one request's uncommitted work into the others', and keep them waiting on its commit.
   */
  batched<T, R>(batcher: StatementBatcher<T, R>, item: T): Promise<R> {
    return this.inTransaction ? batcher.runAlone(item) : batcher.add(item);
  }

  /** Runs a statement written with the `sql` tag and gives its rows. */
  async rows<Row extends QueryResultRow>(statement: SqlFragment): Promise<Row[]> {
    return (await this.query<Row>(statement)).rows;
  }

  /**
   * A read whose answer may lag behind the last commits (a search, a list, a feed's first page): on a read
   * replica caught up within `DATABASE_REPLICA_MAX_LAG_MS` when one is, else on the primary. In a
   * transaction, or for an account that changed something lately (`ReadReplicas.fromPrimary`), on the
   * primary. A replica that fails the read leaves it to the primary, which answers it (or refuses it) anew.
   */
  async rowsMayLag<Row extends QueryResultRow>(statement: SqlFragment): Promise<Row[]> {
    const replica = this.inTransaction ? undefined : this.replicas?.pick();
    if (!replica) return this.rows<Row>(statement);
    try {
      return (await this.runOn<Row>(replica, statement.text, [...statement.values])).rows;
    } catch (error) {
      this.replicas!.failed(replica, error);
      return this.rows<Row>(statement);
    }
  }

  /** Whether `rowsMayLag` may use a replica here: reads shared between callers must agree on it. */
  get readsMayLag(): boolean {
    return !this.inTransaction && (this.replicas?.mayLag ?? false);
  }

  /**
   * `read`, shared with the reads of the same `key` asked for together (`SharedReads`): never within a
   * transaction, whose reads see its own snapshot, and never between a read that may lag (`mayLag`, run with
   * `rowsMayLag`) and one that must see the primary.
   */
  readShared<R>(reads: SharedReads<R>, key: string, mayLag: boolean, read: () => Promise<R>): Promise<R> {
    if (this.inTransaction) return read();
    return reads.read(`${mayLag && this.readsMayLag ? 'may lag' : 'primary'} ${key}`, read);
  }

  /** Runs a statement written with the `sql` tag. */
  query<Row extends QueryResultRow>(statement: SqlFragment): Promise<QueryResult<Row>> {
    return this.run<Row>(statement.text, [...statement.values]);
  }

  private run<Row extends QueryResultRow>(text: string, values: unknown[]): Promise<QueryResult<Row>> {
    const transaction = this.transactions.getStore();
    if (transaction) assertOpen(transaction);
    return this.runOn(transaction?.client ?? this.pool, text, values, transaction !== undefined);
  }

  /** Runs a statement on `target` (a pool, or a transaction's connection) under its prepared statement's name. */
  private async runOn<Row extends QueryResultRow>(
    target: Pool | PoolClient,
    text: string,
    values: unknown[],
    inTransaction = false,
  ): Promise<QueryResult<Row>> {
    const name = this.statementName(text);
    try {
      return await target.query<Row>({ name, text, values });
    } catch (error) {
      if ((error as { routine?: unknown }).routine !== RESULT_TYPE_CHANGED) throw error;
      // A migration changed the type of a column the statement returns, and PostgreSQL refuses it on
      // every connection that prepared it before: prepare it again under a new name (once, however many
      // calls failed together). Nothing ran, so running it again is safe, except in a transaction,
      // which the refusal aborted: the transaction fails, and the next one uses the new name.
      if (this.statementNames.get(text) === name) this.statementNames.delete(text);
      if (inTransaction) throw error;
      return target.query<Row>({ name: this.statementName(text), text, values });
    }
  }

  private statementName(text: string): string | undefined {
    let name = this.statementNames.get(text);
    if (!name && this.namesGiven < this.namesToGive) {
      name = `sql_${++this.namesGiven}`;
      this.statementNames.set(text, name);
    }
    return name;
  }
}

function assertOpen(transaction: Transaction): void {
  if (!transaction.open) {
    throw new Error('a statement was issued after its transaction had ended: await all work inside transaction()');
  }
}

/** The SQLSTATE of a failed statement. */
export function sqlState(error: unknown): string | undefined {
  const { code } = (error ?? {}) as { code?: unknown };
  return typeof code === 'string' ? code : undefined;
}
