import { execFile } from 'node:child_process';
import { once } from 'node:events';
import { AddressInfo, createServer } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { AppProcess, DIST, freePort, startCompiled, startServing, waitFor } from '../support/processes';
import { ThrowawayRedis } from '../support/throwaway-services';

/**
 * `npm start`'s launcher and one app on its own: every app starts through the same `prepareStart`, so the
 * others would only add minutes of processes.
 */
const ENTRIES = ['scripts/start-all.js', 'apps/api/src/main.js'];

/** Runs an entry point until it exits on its own; answers its exit code and the lines it wrote. */
async function exitOf(entry: string, env: Record<string, string>): Promise<{ code: number | null; lines: string[] }> {
  const started = await startCompiled(entry, env);
  try {
    await waitFor(async () => started.child.exitCode !== null, 30_000, `${entry} to exit`);
  } finally {
    await started.stop();
  }
  return { code: started.child.exitCode, lines: started.output().trim().split('\n') };
}

describe('a process that cannot start', () => {
  let closedPort: number;
  beforeAll(async () => {
    // Nothing listens there: connections are refused at once.
    closedPort = await freePort();
  });

  describe.each(ENTRIES)('%s', (entry) => {
    it('exits with 1 and one line naming PostgreSQL, DATABASE_URL and what to do when PostgreSQL does not answer', async () => {
      const { code, lines } = await exitOf(entry, {
        DATABASE_URL: `postgres://postgres@127.0.0.1:${closedPort}/pet_adoption_test`,
        STARTUP_WAIT_MS: '300',
      });
      expect(code).toBe(1);
      expect(lines).toEqual([
        `PostgreSQL at 127.0.0.1:${closedPort} did not answer within 300 ms (connect ECONNREFUSED 127.0.0.1:${closedPort}): ` +
          'start PostgreSQL there, or set DATABASE_URL to where it runs.',
      ]);
    });

    it('exits with 1 and one line naming Redis, REDIS_URL and what to do when Redis does not answer', async () => {
      const { code, lines } = await exitOf(entry, {
        REDIS_URL: `redis://127.0.0.1:${closedPort}`,
        STARTUP_WAIT_MS: '300',
      });
      expect(code).toBe(1);
      expect(lines).toEqual([
        `Redis at 127.0.0.1:${closedPort} did not answer within 300 ms (connect ECONNREFUSED 127.0.0.1:${closedPort}): ` +
          'start Redis there, or set REDIS_URL to where it runs.',
      ]);
    });

    it('exits with 1 and one line naming the cluster and REDIS_CLUSTER_NODES when no node answers, starting no Redis of its own', async () => {
      const { code, lines } = await exitOf(entry, {
        REDIS_URL: '',
        REDIS_CLUSTER_NODES: `127.0.0.1:${closedPort}`,
        STARTUP_WAIT_MS: '300',
      });
      expect(code).toBe(1);
      expect(lines).toEqual([
        `Redis Cluster at 127.0.0.1:${closedPort} did not answer within 300 ms (connect ECONNREFUSED 127.0.0.1:${closedPort}): ` +
          'start Redis Cluster there, or set REDIS_CLUSTER_NODES to where it runs.',
      ]);
    });
  });

  it('exits with 1 before connecting anywhere when REDIS_URL and REDIS_CLUSTER_NODES are both set', async () => {
    const { code, lines } = await exitOf('scripts/start-all.js', {
      REDIS_URL: 'redis://127.0.0.1:6379',
      REDIS_CLUSTER_NODES: '127.0.0.1:7001',
    });
    expect(code).toBe(1);
    expect(lines).toEqual([
      'Invalid configuration:',
      '  REDIS_URL and REDIS_CLUSTER_NODES are both set: set REDIS_URL for one Redis, or REDIS_CLUSTER_NODES for a cluster',
    ]);
  });

  it.each([
    ['DATABASE_URL', 'postgres:// or postgresql:// URL such as postgres://postgres@127.0.0.1:5432/pet_adoption'],
    ['REDIS_URL', 'redis:// or rediss:// URL such as redis://127.0.0.1:6379'],
  ])(
    'exits with 1 before connecting anywhere when %s is not a URL, naming it and what it must be',
    async (name, rule) => {
      const { code, lines } = await exitOf('scripts/start-all.js', { [name]: 'notaurl' });
      expect(code).toBe(1);
      expect(lines).toEqual(['Invalid configuration:', `  ${name}="notaurl": ${name} must be a ${rule}`]);
    },
  );
});

describe('a process whose Redis starts after it', () => {
  const redis = new ThrowawayRedis();
  let api: (AppProcess & { baseUrl: string }) | undefined;
  afterAll(async () => {
    await api?.stop();
    await redis.destroy();
  });

  it('waits for it, up to STARTUP_WAIT_MS, then serves', async () => {
    // Until Redis starts, its port hangs up on every connection and counts the api's attempts.
    let attempts = 0;
    const hangingUp = createServer((socket) => {
      attempts += 1;
      socket.destroy();
    });
    hangingUp.listen(0, '127.0.0.1');
    await once(hangingUp, 'listening');
    redis.port = (hangingUp.address() as AddressInfo).port;
    const starting = startServing('api', { REDIS_URL: redis.url, STARTUP_WAIT_MS: '60000' });
    try {
      await waitFor(async () => attempts >= 2, 30_000, 'the api to try Redis twice');
    } finally {
      hangingUp.close();
      await once(hangingUp, 'close');
    }
    await redis.start();
    api = await starting;
    expect((await fetch(`${api.baseUrl}/health/ready`)).status).toBe(200);
  });
});

describe('the heap growth bound (HEAP_GROWTH_PERCENT)', () => {
  /** The factors V8 grew the heap's limit by at a full collection, as `--trace-gc-verbose` prints them. */
  async function growthFactors(percent: number): Promise<string[]> {
    const heapGrowth = join(DIST, 'libs', 'core', 'src', 'start-up', 'heap-growth.js');
    const { stdout } = await promisify(execFile)(process.execPath, [
      '--trace-gc-verbose',
      '--expose-gc',
      '--eval',
      `require(${JSON.stringify(heapGrowth)}).limitHeapGrowth(${percent}); gc();`,
    ]);
    return [...stdout.matchAll(/\[HeapController\] factor (\d+\.\d)/g)].map((match) => match[1]!);
  }

  it('sets the factor of the next full collection', async () => {
    expect(await growthFactors(150)).toEqual(['2.5']);
  });
});
