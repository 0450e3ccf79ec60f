import type { Job } from 'bullmq';
import type { Pool } from 'pg';
import { DataSource } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';
import { Sql } from '@app/database';

/**
 * A BullMQ job as a worker or `Queue.getJob` hands it over, holding only the members the code under
 * test reads or calls: each is checked against `Job`, so a renamed or retyped member fails to compile.
 */
export function jobDouble<Data, Result = unknown>(members: Partial<Job<Data, Result>>): Job<Data, Result> {
  return members as Job<Data, Result>;
}

/**
 * A collaborator of the code under test holding only the members the test gives it, checked against `T`
 * as `jobDouble` checks a job's: for a unit test of logic whose collaborators are classes.
 */
export function double<T>(members: Partial<T>): T {
  return members as T;
}

/** `Sql` on a pool of the test's own, without a TypeORM data source to initialise. */
export function sqlOnPool(pool: Pool): Sql {
  const dataSource = new DataSource({ type: 'postgres' });
  (dataSource.driver as PostgresDriver).master = pool;
  return new Sql(dataSource);
}
