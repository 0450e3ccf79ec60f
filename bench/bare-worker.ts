// The delivery ceilings: a bare BullMQ worker whose job is the least a delivery can do. No Nest, no
// logging, no transport. Configured by BENCH_REDIS_URL, BENCH_QUEUE, BENCH_CONCURRENCY and BENCH_JOB:
// `update` (with BENCH_DATABASE_URL), a message's delivery that records its outcome: one guarded UPDATE of
// the message row; `post` (with BENCH_TARGET_URL), a webhook's: one POST of the job's body, which fails
// unless a 2xx comes back. Prints "ready" once it takes jobs.
import { Agent, request } from 'node:http';
import { Worker } from 'bullmq';
import { Pool } from 'pg';

const env = (name: string) => {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is required`);
  return value;
};

interface BareJob {
  /** Resolves to nothing, so Redis stores no return value with the job. */
  run: (data: Record<string, string>) => Promise<void>;
  close: () => Promise<void>;
}

const JOBS: Record<string, () => BareJob> = {
  update: () => {
    // The apps' default pool size (DATABASE_POOL_SIZE).
    const pool = new Pool({ connectionString: env('BENCH_DATABASE_URL'), max: 10 });
    return {
      run: async (data) => {
        await pool.query(`UPDATE messages SET status = 'sent', sent_at = now() WHERE id = $1 AND status = 'queued'`, [
          data.messageId,
        ]);
      },
      close: () => pool.end(),
    };
  },
  post: () => {
    // Kept-alive connections, as the service's sender keeps them.
    const agent = new Agent({ keepAlive: true });
    const target = new URL(env('BENCH_TARGET_URL'));
    return {
      run: (data) =>
        new Promise<void>((resolve, reject) => {
          const body = data.body!;
          const outgoing = request(
            target,
            {
              method: 'POST',
              agent,
              headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
            },
            (response) => {
              response.resume();
              response.on('end', () => {
                const status = response.statusCode ?? 0;
                if (status >= 200 && status < 300) resolve();
                else reject(new Error(`answered ${status}`));
              });
              response.on('error', reject);
            },
          );
          outgoing.on('error', reject);
          outgoing.end(body);
        }),
      close: async () => agent.destroy(),
    };
  },
};

const job = JOBS[env('BENCH_JOB')]?.();
if (!job) throw new Error(`BENCH_JOB is one of ${Object.keys(JOBS).join(', ')}`);
const redis = new URL(env('BENCH_REDIS_URL'));
const worker = new Worker<Record<string, string>>(env('BENCH_QUEUE'), (received) => job.run(received.data), {
  connection: { host: redis.hostname, port: Number(redis.port), db: Number(redis.pathname.slice(1)) },
  concurrency: Number(env('BENCH_CONCURRENCY')),
});
worker.on('ready', () => console.log('ready'));
process.once('SIGTERM', () => {
  void worker
    .close()
    .then(() => job.close())
    .then(() => process.exit(0));
});
