import { join } from 'node:path';
import { Queue } from 'bullmq';
import { MESSAGES_QUEUE } from '@app/messaging';
import { Stores, withClient } from './support/database';
import { medianBy, runLoad } from './support/load';
import { freePort, ServerProcess, startServer, waitFor } from './support/processes';

const BARE_QUEUE = 'bench-bare';
/** The ceiling for BullMQ with one UPDATE per job was measured at this concurrency. */
const BARE_CONCURRENCY = 50;

export interface DeliveryVariant {
  name: string;
  title: string;
  /** Messages per second from the first to the last `sent`, one entry per run. */
  runs: number[];
  perSecond: number;
  peakRssMiB: number;
}

interface DeliveryOptions {
  stores: Stores;
  messagesUrl: string;
  key: string;
  accountId: number;
  messages: number;
  runs: number;
  logDir: string;
  appEnv: Record<string, string>;
}

function redisConnection(redisUrl: string) {
  const url = new URL(redisUrl);
  return { host: url.hostname, port: Number(url.port), db: Number(url.pathname.slice(1)) };
}

/** Empties the messages table and both queues, so every run starts from nothing. */
async function clear(options: DeliveryOptions): Promise<void> {
  await withClient(options.stores, (client) => client.query('TRUNCATE messages'));
  for (const name of [MESSAGES_QUEUE, BARE_QUEUE]) {
    const queue = new Queue(name, { connection: redisConnection(options.stores.redisUrl) });
    await queue.obliterate({ force: true });
    await queue.close();
  }
}

/** Accepts the messages through the real POST /messages, while no worker runs. */
async function acceptThroughApp(options: DeliveryOptions): Promise<void> {
  const result = await runLoad({
    url: options.messagesUrl,
    connections: 50,
    amount: options.messages,
    requests: [
      {
        method: 'POST',
        path: '/messages',
        headers: { Authorization: `Bearer ${options.key}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ message: 'Rex found a home' }),
      },
    ],
  });
  if (result.statuses['202'] !== options.messages) {
    throw new Error(`expected ${options.messages} messages accepted, got ${JSON.stringify(result.statuses)}`);
  }
}

/**
 * Stores the rows and adds the jobs directly for the bare worker, with the job options the messages
 * queue uses by default (messaging.module.ts), so Redis does the same bookkeeping per job.
 */
async function loadForBareWorker(options: DeliveryOptions): Promise<void> {
  const { rows } = await withClient(options.stores, (client) =>
    client.query<{ id: string }>(
      `INSERT INTO messages (id, account_id, message, enqueued_at)
       SELECT 'msg_bench_' || i, $1, 'Rex found a home', now() FROM generate_series(1, $2::int) AS i
       RETURNING id`,
      [options.accountId, options.messages],
    ),
  );
  const queue = new Queue(BARE_QUEUE, { connection: redisConnection(options.stores.redisUrl) });
  await queue.addBulk(
    rows.map(({ id }) => ({
      name: 'deliver',
      data: { messageId: id },
      opts: {
        jobId: id,
        attempts: 5,
        backoff: { type: 'exponential', delay: 1000 },
        removeOnComplete: { age: 86400, count: 10_000 },
        removeOnFail: { age: 7 * 86400 },
      },
    })),
  );
  await queue.close();
}

async function startWorkers(options: DeliveryOptions, variant: 'bare' | number): Promise<ServerProcess[]> {
  if (variant === 'bare') {
    return [
      await startServer('bare-worker', join('bench', 'bare-worker.js'), {
        core: 0,
        env: {
          BENCH_DATABASE_URL: options.stores.databaseUrl,
          BENCH_REDIS_URL: options.stores.redisUrl,
          BENCH_QUEUE: BARE_QUEUE,
          BENCH_CONCURRENCY: String(BARE_CONCURRENCY),
        },
        ready: { logLine: 'ready' },
        logFile: join(options.logDir, 'bare-worker.log'),
      }),
    ];
  }
  return Promise.all(
    Array.from({ length: variant }, async (_, i) => {
      const port = await freePort();
      // Each worker gets a core of its own while it can: the question is whether a second process adds throughput.
      return startServer(`worker-${i + 1}`, join('apps', 'worker', 'src', 'main.js'), {
        core: i % 2,
        env: { ...options.appEnv, WORKER_METRICS_PORT: String(port) },
        ready: { url: `http://127.0.0.1:${port}/health/ready` },
        logFile: join(options.logDir, `worker-${i + 1}.log`),
      });
    }),
  );
}

/** Waits for every message to be `sent` (bounded), then measures from the first `sent_at` to the last. */
async function drainRate(options: DeliveryOptions): Promise<number> {
  return withClient(options.stores, async (client) => {
    await waitFor(
      async () => {
        const { rows } = await client.query<{ sent: string }>(
          `SELECT count(*) AS sent FROM messages WHERE status = 'sent'`,
        );
        return Number(rows[0]!.sent) === options.messages;
      },
      30_000 + options.messages * 2,
      `${options.messages} messages sent`,
    );
    const { rows } = await client.query<{ seconds: number }>(
      `SELECT extract(epoch FROM max(sent_at) - min(sent_at))::float8 AS seconds FROM messages`,
    );
    return (options.messages - 1) / Math.max(rows[0]!.seconds, 0.001);
  });
}

/**
 * Delivery throughput, accept → `sent`: the messages are accepted first (no worker running), then
 * the workers start and drain them. Compared with the bare worker in the same run.
 */
export async function measureDelivery(options: DeliveryOptions): Promise<DeliveryVariant[]> {
  const variants: Array<{ name: string; title: string; workers: 'bare' | number }> = [
    {
      name: 'bare-worker',
      title: `bare BullMQ worker, one guarded UPDATE per job (concurrency ${BARE_CONCURRENCY})`,
      workers: 'bare',
    },
    { name: 'worker-1', title: '1 worker process, log transport, default concurrency', workers: 1 },
    { name: 'worker-2', title: '2 worker processes, log transport, default concurrency', workers: 2 },
  ];
  const measured = variants.map(() => ({ runs: [] as number[], peakRssMiB: 0 }));
  // In turns, like the HTTP scenarios: each variant's runs see the machine as the bare worker's do.
  for (let run = 0; run < options.runs; run++) {
    for (const [index, variant] of variants.entries()) {
      await clear(options);
      if (variant.workers === 'bare') await loadForBareWorker(options);
      else await acceptThroughApp(options);
      const workers = await startWorkers(options, variant.workers);
      const variantMeasured = measured[index]!;
      try {
        variantMeasured.runs.push(await drainRate(options));
        variantMeasured.peakRssMiB = Math.max(
          variantMeasured.peakRssMiB,
          ...workers.map((worker) => worker.peakRssMiB()),
        );
      } finally {
        await Promise.all(workers.map((worker) => worker.stop()));
      }
    }
  }
  const results: DeliveryVariant[] = variants.map((variant, index) => ({
    name: variant.name,
    title: variant.title,
    runs: measured[index]!.runs,
    perSecond: medianBy(measured[index]!.runs, (rate) => rate),
    peakRssMiB: measured[index]!.peakRssMiB,
  }));
  await clear(options);
  return results;
}
