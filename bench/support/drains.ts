import { join } from 'node:path';
import { queuePrefix } from '@app/core';
import { JobsOptions, Queue } from 'bullmq';
import type { Stores } from './database';
import { medianBy } from './load';
import { ServerProcess, startServer, startServiceApp, watchProcesses } from './processes';

/** The queue bare workers take their jobs from. */
const BARE_QUEUE = 'bench-bare';

export interface DeliveryVariant {
  name: string;
  title: string;
  /** Deliveries per second from the first to the last, one entry per run. */
  runs: number[];
  perSecond: number;
  /** perSecond over the first variant's (the bare worker's), measured in the same turns. */
  ratio: number;
  peakRssMiB: number;
  /** CPU time of the variant's processes per item, over all its runs, from their start to the last delivery. */
  cpuMicrosPerItem: number;
  /** PostgreSQL's and Redis's CPU time per item meanwhile: the same two cores serve them. */
  storesCpuMicrosPerItem: number;
}

function redisConnection(redisUrl: string) {
  const url = new URL(redisUrl);
  return { host: url.hostname, port: Number(url.port), db: Number(url.pathname.slice(1)) };
}

/** Removes every job of the app's queue and of the bare worker's, so a run starts from nothing. */
export async function emptyQueues(stores: Stores, appQueue: string): Promise<void> {
  // The app's queue under the apps' prefix; the bare worker's under BullMQ's default.
  for (const [name, prefix] of [
    [appQueue, queuePrefix(appQueue)],
    [BARE_QUEUE, 'bull'],
  ]) {
    const queue = new Queue(name, { connection: redisConnection(stores.redisUrl), prefix });
    await queue.obliterate({ force: true });
    await queue.close();
  }
}

export interface BareWorkerOptions {
  /** What each job does (bench/bare-worker.ts), with its settings in `env`. */
  job: 'update' | 'post';
  env?: Record<string, string>;
  concurrency: number;
  /** The attempts and first backoff of the app queue the bare worker stands in for. */
  attempts: number;
  backoffMs: number;
}

/**
 * A bare worker (bench/bare-worker.ts) on a queue of its own. Its jobs get the options of the app queue
 * it stands in for (attempts, backoff, and the apps' retention of finished jobs), so Redis does the same
 * bookkeeping per job.
 */
export function bareWorker(stores: Stores, logDir: string, options: BareWorkerOptions) {
  const jobOptions: JobsOptions = {
    attempts: options.attempts,
    backoff: { type: 'exponential', delay: options.backoffMs },
    removeOnComplete: { age: 86400, count: 10_000 },
    removeOnFail: { age: 7 * 86400 },
  };
  return {
    add: async (jobs: Array<{ id: string; data: Record<string, string> }>): Promise<void> => {
      const queue = new Queue(BARE_QUEUE, { connection: redisConnection(stores.redisUrl) });
      await queue.addBulk(jobs.map(({ id, data }) => ({ name: 'deliver', data, opts: { ...jobOptions, jobId: id } })));
      await queue.close();
    },
    start: async (): Promise<ServerProcess[]> => [
      await startServer('bare-worker', join('bench', 'bare-worker.js'), {
        core: 0,
        env: {
          BENCH_DATABASE_URL: stores.databaseUrl,
          BENCH_REDIS_URL: stores.redisUrl,
          BENCH_QUEUE: BARE_QUEUE,
          BENCH_CONCURRENCY: String(options.concurrency),
          BENCH_JOB: options.job,
          ...options.env,
        },
        ready: { logLine: 'ready' },
        logFile: join(logDir, 'bare-worker.log'),
      }),
    ],
  };
}

/** `count` processes of the real worker app. */
export function startWorkers(count: number, env: Record<string, string>, logDir: string): Promise<ServerProcess[]> {
  return Promise.all(
    Array.from({ length: count }, (_, i) =>
      // Each worker gets a core of its own while it can: the question is whether a second process adds throughput.
      startServiceApp('worker', {
        name: `worker-${i + 1}`,
        core: i % 2,
        env,
        logFile: join(logDir, `worker-${i + 1}.log`),
        nodeFlags: process.env.BENCH_WORKER_NODE_FLAGS?.split(' ').map((flag) => flag.replace('{n}', String(i + 1))),
      }),
    ),
  );
}

/** One way of doing the same deliveries: what stores them, what delivers them, and how fast it went. */
export interface Drain {
  name: string;
  title: string;
  /** Stores the work while nothing delivers it (unmeasured). */
  load: () => Promise<void>;
  start: () => Promise<ServerProcess[]>;
  /** Waits until every delivery is done; deliveries per second from the first to the last. */
  rate: () => Promise<number>;
}

/**
 * Each drain `runs` times, in turns like the HTTP scenarios (each variant's runs see the machine as the
 * bare worker's do), `clear` before each run and after the last; the median run of each.
 */
export async function measureDrains(
  drains: Drain[],
  runs: number,
  items: number,
  clear: () => Promise<void>,
): Promise<DeliveryVariant[]> {
  const measured = drains.map(() => ({ runs: [] as number[], peakRssMiB: 0, cpuSec: 0, storesCpuSec: 0 }));
  for (let run = 0; run < runs; run++) {
    for (const [index, drain] of drains.entries()) {
      await clear();
      await drain.load();
      const processes = await drain.start();
      const watch = watchProcesses(processes);
      const drainMeasured = measured[index]!;
      try {
        drainMeasured.runs.push(await drain.rate());
        const usage = watch.stop();
        drainMeasured.cpuSec += Object.values(usage.cpuSec).reduce((sum, seconds) => sum + seconds, 0);
        drainMeasured.storesCpuSec += usage.storesCpuSec;
        drainMeasured.peakRssMiB = Math.max(drainMeasured.peakRssMiB, ...processes.map((one) => one.peakRssMiB()));
      } finally {
        watch.stop();
        await Promise.all(processes.map((one) => one.stop()));
      }
    }
  }
  await clear();
  const perSecond = measured.map(({ runs }) => medianBy(runs, (rate) => rate));
  return drains.map((drain, index) => ({
    name: drain.name,
    title: drain.title,
    runs: measured[index]!.runs,
    perSecond: perSecond[index]!,
    ratio: perSecond[index]! / perSecond[0]!,
    peakRssMiB: measured[index]!.peakRssMiB,
    cpuMicrosPerItem: (measured[index]!.cpuSec * 1e6) / (items * runs),
    storesCpuMicrosPerItem: (measured[index]!.storesCpuSec * 1e6) / (items * runs),
  }));
}
