// `npm run bench:ticks [-- --seconds N]`: what the events dispatcher's 200 ms loop would cost as a BullMQ job
// scheduler (ADR 0044). For the same span it runs the loop both ways, one after the other, with a run that does
// nothing: the in-process timer the dispatcher keeps, and a scheduler with `every: 200` on a queue of its own,
// taken by two workers as two worker processes would. It prints the gaps between runs (p50, p99, max) and, for the
// scheduler, the Redis commands and Redis CPU each tick costs. Uses BENCH_REDIS_DB (default 11) of the local Redis.
import { parseArgs } from 'node:util';
import { Queue, Worker } from 'bullmq';
import { Redis } from 'ioredis';

const EVERY_MS = 200;
const QUEUE = 'bench-dispatch-ticks';

const { values: flags } = parseArgs({ options: { seconds: { type: 'string', default: '30' } } });
const spanMs = Number(flags.seconds) * 1000;
const connection = { host: '127.0.0.1', port: 6379, db: Number(process.env.BENCH_REDIS_DB ?? 11) };

function gaps(starts: number[]): string {
  const sorted = starts
    .slice(1)
    .map((start, i) => start - starts[i]!)
    .sort((a, b) => a - b);
  const at = (share: number) => sorted[Math.min(sorted.length - 1, Math.floor(share * sorted.length))]!.toFixed(0);
  return `${starts.length} runs; gap p50 ${at(0.5)} ms, p99 ${at(0.99)} ms, max ${at(1)} ms`;
}

/** Redis' total commands processed and CPU seconds (user + system), from INFO. */
async function redisCounters(redis: Redis): Promise<{ commands: number; cpuSec: number }> {
  const info = await redis.info();
  const field = (name: string) => Number(new RegExp(`^${name}:([\\d.]+)`, 'm').exec(info)![1]);
  return { commands: field('total_commands_processed'), cpuSec: field('used_cpu_user') + field('used_cpu_sys') };
}

async function inProcess(): Promise<string> {
  const starts: number[] = [];
  const timer = setInterval(() => starts.push(performance.now()), EVERY_MS);
  await new Promise((resolve) => setTimeout(resolve, spanMs));
  clearInterval(timer);
  return gaps(starts);
}

async function jobScheduler(): Promise<string> {
  const queue = new Queue(QUEUE, { connection });
  await queue.obliterate({ force: true });
  const starts: number[] = [];
  const workers = [1, 2].map(
    () => new Worker(QUEUE, async () => void starts.push(performance.now()), { connection, concurrency: 1 }),
  );
  const redis = new Redis(connection);
  const before = await redisCounters(redis);
  await queue.upsertJobScheduler('dispatch', { every: EVERY_MS }, { opts: { removeOnComplete: { count: 100 } } });
  await new Promise((resolve) => setTimeout(resolve, spanMs));
  await queue.removeJobScheduler('dispatch');
  const after = await redisCounters(redis);
  await Promise.all(workers.map((worker) => worker.close()));
  await queue.obliterate({ force: true });
  await Promise.all([queue.close(), redis.quit()]);
  const ticks = starts.length;
  const commandsPerTick = (after.commands - before.commands) / ticks;
  const redisCpuPerTickUs = ((after.cpuSec - before.cpuSec) * 1e6) / ticks;
  return (
    `${gaps(starts)}; ${commandsPerTick.toFixed(1)} Redis commands and ${redisCpuPerTickUs.toFixed(0)} µs of ` +
    `Redis CPU per tick (idle workers' blocking waits included)`
  );
}

async function main(): Promise<void> {
  console.log(`every ${EVERY_MS} ms for ${spanMs / 1000} s`);
  console.log(`in-process timer: ${await inProcess()}`);
  console.log(`BullMQ job scheduler, 2 workers: ${await jobScheduler()}`);
}

void main();
