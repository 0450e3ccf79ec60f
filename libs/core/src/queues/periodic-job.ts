/** The BullMQ queue of the periodic jobs of every context: one job scheduler per job. */
export const PERIODIC_QUEUE = 'periodic';

/**
 * Work done every `everyMs()` by one of the workers: a BullMQ job scheduler adds one job per tick, whichever
 * workers run, and one worker runs it (a failed run is retried by BullMQ, and shows in the queue dashboard).
 * A context provides its jobs as classes extending this one in its worker module; `PeriodicJobsModule`
 * finds them, keeps their schedulers and runs their jobs.
 */
export abstract class PeriodicJob {
  /** Names the job scheduler and its jobs: unique across the contexts. */
  abstract readonly name: string;
  /** Set when the worker stops: a long run checks it between batches and ends early. */
  stopped = false;
  /** Whether a starting worker runs it at once too: for work a stopped worker may have left due. */
  readonly runsAtStart: boolean = false;

  abstract everyMs(): number;
  abstract run(): Promise<void>;
}
