// The delivery ceiling: a bare BullMQ worker whose job is one guarded UPDATE of the message row,
// the least a delivery that records its outcome can do. No Nest, no logging, no transport.
// Configured by BENCH_DATABASE_URL, BENCH_REDIS_URL, BENCH_QUEUE and BENCH_CONCURRENCY; prints
// "ready" once it takes jobs.
import { Worker } from 'bullmq';
import { Pool } from 'pg';

const env = (name: string) => {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is required`);
  return value;
};

// The apps' default pool size (DATABASE_POOL_SIZE).
const pool = new Pool({ connectionString: env('BENCH_DATABASE_URL'), max: 10 });
const redis = new URL(env('BENCH_REDIS_URL'));
const worker = new Worker<{ messageId: string }>(
  env('BENCH_QUEUE'),
  async (job) => {
    await pool.query(`UPDATE messages SET status = 'sent', sent_at = now() WHERE id = $1 AND status = 'queued'`, [
      job.data.messageId,
    ]);
  },
  {
    connection: { host: redis.hostname, port: Number(redis.port), db: Number(redis.pathname.slice(1)) },
    concurrency: Number(env('BENCH_CONCURRENCY')),
  },
);
worker.on('ready', () => console.log('ready'));
process.once('SIGTERM', () => {
  void worker
    .close()
    .then(() => pool.end())
    .then(() => process.exit(0));
});
