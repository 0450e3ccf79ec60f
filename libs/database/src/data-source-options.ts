import type { PostgresDataSourceOptions } from 'typeorm/driver/postgres/PostgresDataSourceOptions';
import type { DatabaseSettings } from './database.settings';
import { MIGRATIONS } from './migrations';
import { STATEMENT_TIMEOUT_MS, WatchedClient } from './watched-client';

/**
 * How PostgreSQL plans a prepared statement's runs: `custom`, each run for its own values; `cached`,
 * PostgreSQL's default (`auto`), which may keep one generic plan after five runs when it costs no more.
 */
export type PlanMode = 'custom' | 'cached';

/** Injection token of the plan mode of the app that imports `DatabaseModule`. */
export const PLAN_MODE = Symbol('PLAN_MODE');

const PLAN_CACHE_MODE: Record<PlanMode, string> = { custom: 'force_custom_plan', cached: 'auto' };

/**
 * pg's pool options for `settings.DATABASE_URL` and its replicas alike: a read on a replica is planned and
 * bounded as on the primary.
 */
export function poolOptions(settings: DatabaseSettings, plans: PlanMode = 'custom') {
  return {
    max: settings.DATABASE_POOL_SIZE,
    // Fail fast when PostgreSQL is unreachable so requests answer 503 instead of hanging.
    connectionTimeoutMillis: 3000,
    // Statements PostgreSQL takes too long over, it cancels itself (statement_timeout below); a
    // statement it does not answer at all, WatchedClient gives up.
    Client: WatchedClient,
    keepAlive: true,
    // `Sql` prepares its statements once per connection. Left to itself, PostgreSQL may switch a
    // statement to one generic plan after five runs, and the generic plan of a page filtered by a
    // rare status scans the primary key past every other pet: plan each run for its own values,
    // unless every statement of the process finds its rows by key (`cached`: the worker).
    // No JIT: the batched page read's row estimates (a LIMIT per page that the planner cannot see)
    // cross its cost threshold, and compiling then takes a hundred times longer than the read.
    // An `options` parameter in DATABASE_URL takes the place of this one. A pooler in transaction mode
    // refuses it (a session's settings would not follow its transactions to other server connections):
    // there `Sql` runs every statement unnamed, planned for its own values, and `jit` and
    // `statement_timeout` are set on the role or in the pooler (Operations: a pooler).
    ...(settings.DATABASE_POOL_MODE === 'session' && {
      options: `-c plan_cache_mode=${PLAN_CACHE_MODE[plans]} -c jit=off -c statement_timeout=${STATEMENT_TIMEOUT_MS}`,
    }),
  };
}

/** One definition of the connection, shared by the apps, the TypeORM CLI and the operator CLI. */
export function dataSourceOptions(settings: DatabaseSettings, plans: PlanMode = 'custom'): PostgresDataSourceOptions {
  return {
    type: 'postgres',
    url: settings.DATABASE_URL,
    synchronize: false,
    migrationsRun: false,
    migrations: MIGRATIONS,
    migrationsTableName: 'migrations',
    extra: poolOptions(settings, plans),
  };
}

/**
 * For migrations, at start-up and from the TypeORM CLI alike: one connection, and none of the request
 * path's limits, since a migration may rightly run long (an index over a large table). Each migration in a
 * transaction of its own, as the TypeORM CLI's default of one for all refuses the migrations that commit
 * step by step (`transaction = false`).
 */
export function migrationDataSourceOptions(settings: DatabaseSettings): PostgresDataSourceOptions {
  return {
    ...dataSourceOptions(settings),
    url: settings.directUrl,
    extra: { max: 1 },
    migrationsTransactionMode: 'each',
  };
}
