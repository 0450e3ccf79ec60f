import type { Job } from 'bullmq';

/**
 * A BullMQ job as a worker or `Queue.getJob` hands it over, holding only the members the code under
 * test reads or calls: each is checked against `Job`, so a renamed or retyped member fails to compile.
 */
export function jobDouble<Data, Result = unknown>(members: Partial<Job<Data, Result>>): Job<Data, Result> {
  return members as Job<Data, Result>;
}
