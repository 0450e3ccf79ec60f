import { Queue, Worker } from 'bullmq';
import { Cluster, Redis } from 'ioredis';
import { queuePrefix, workerConnection } from '@app/core';
import { createApiApp } from '../support/api-app';
import { withDatabase } from '../support/database';
import { signUp, TestAccount } from '../support/factories';
import type { TestHttpApp } from '../support/http-app';
import { waitFor } from '../support/processes';
import { testRedis, testRedisTarget } from '../support/redis';
import { describeOnCluster } from '../support/redis-suites';

/** Where every master of the test cluster listens. */
async function mastersOf(cluster: Cluster): Promise<Array<{ host: string; port: number }>> {
  if (cluster.status !== 'ready') await new Promise((resolve) => cluster.once('ready', resolve));
  return cluster.nodes('master').map(({ options: { host, port } }) => ({ host: host!, port: port! }));
}

describeOnCluster('on a Redis Cluster', () => {
  let cluster: Cluster;
  let masters: Array<{ host: string; port: number }>;

  beforeAll(async () => {
    cluster = testRedis() as Cluster;
    masters = await mastersOf(cluster);
  });
  afterAll(() => cluster.disconnect());

  describe('the rate limiter', () => {
    let app: TestHttpApp;
    let fresh: TestHttpApp;
    let accounts: TestAccount[];

    beforeAll(async () => {
      app = await createApiApp();
      // A process that has cached no key: each first request of a key is paid for by its address, and given back.
      fresh = await createApiApp();
      accounts = [];
      for (let i = 0; i < 8; i++) accounts.push(await signUp(app.http));
    });
    afterAll(async () => {
      await fresh.close();
      await app.close();
    });

    it('decides requests of many accounts arriving together, whose keys lie on every node, without CROSSSLOT', async () => {
      const requests = accounts.flatMap((account) => [account, account, account]);
      // Twice: first the key lookups (an address's counters given back beside an account's), then cached keys.
      for (const round of [1, 2]) {
        const responses = await Promise.all(requests.map((account) => fresh.http.get('/v1/account').set(account.auth)));
        for (const [at, account] of accounts.entries()) {
          const own = responses.slice(at * 3, at * 3 + 3);
          expect(own.map((response) => response.status)).toEqual([200, 200, 200]);
          // Every request counted once in its account's minute (60 on the free plan), whatever the order.
          const remaining = own.map((response) => Number(response.headers['x-ratelimit-remaining']));
          const used = (round - 1) * 3;
          expect({ account: account.accountId, remaining: remaining.sort((a, b) => a - b) }).toEqual({
            account: account.accountId,
            remaining: [60 - used - 3, 60 - used - 2, 60 - used - 1],
          });
        }
      }
      // The accounts' counters are spread over the masters: the calls went to more than one node.
      const nodesHolding = await Promise.all(
        cluster.nodes('master').map(async (node) => (await node.keys('rate-limit:minute:{account:*')).length > 0),
      );
      expect(nodesHolding.filter(Boolean).length).toBeGreaterThan(1);
    });
  });

  describe('a BullMQ queue', () => {
    const name = `cluster-check-${process.pid}`;

    it('refuses jobs with BullMQ’s default prefix, whose keys hash to different slots', async () => {
      const untagged = new Queue(name, { connection: cluster });
      try {
        await expect(untagged.add('job', {})).rejects.toThrow(/CROSSSLOT/);
      } finally {
        await untagged.close();
      }
    });

    it('runs delayed jobs and their retries under the service’s prefix, all of its keys in one slot', async () => {
      const prefix = queuePrefix(name);
      const queue = new Queue(name, { connection: cluster, prefix });
      const seen: number[] = [];
      const workerRedis = workerConnection(testRedisTarget()) as Cluster;
      const worker = new Worker(
        name,
        async (job) => {
          seen.push(job.attemptsMade);
          if (job.attemptsMade === 0) throw new Error('first attempt fails');
        },
        { connection: workerRedis, prefix },
      );
      try {
        const job = await queue.add('job', {}, { delay: 50, attempts: 2, backoff: { type: 'fixed', delay: 50 } });
        await waitFor(async () => (await queue.getJobState(job.id!)) === 'completed', 10_000, 'the job to complete');
        expect(seen).toEqual([0, 1]);
        const slots = new Set<number>();
        for (const node of cluster.nodes('master')) {
          for (const key of await node.keys(`${prefix}:*`)) slots.add(Number(await cluster.cluster('KEYSLOT', key)));
        }
        expect(slots.size).toBe(1);
      } finally {
        await worker.close();
        await queue.obliterate({ force: true });
        await queue.close();
        workerRedis.disconnect();
      }
    });
  });

  describe('key revocation', () => {
    let app: TestHttpApp;

    beforeAll(async () => {
      // Cached keys outlive the test: only the announcement can stop one.
      app = await createApiApp({ env: { API_KEY_CACHE_TTL_MS: '600000' } });
    });
    afterAll(() => app.close());

    it('reaches a process whichever node the announcement is published on', async () => {
      // The process subscribes through one node: at least two of these announcements cross to it from another.
      for (const { host, port } of masters) {
        const account = await signUp(app.http);
        await app.http.get('/v1/account').set(account.auth).expect(200);
        await withDatabase((client) =>
          client.query('UPDATE api_keys SET revoked_at = now() WHERE id = $1', [account.keyId]),
        );
        // Still cached: only the announcement can tell this process.
        await app.http.get('/v1/account').set(account.auth).expect(200);

        const node = new Redis({ host, port });
        try {
          const event = JSON.stringify({ type: 'key-revoked', keyId: account.keyId });
          await node.publish('pet-adoption:accounts:changed', event);
        } finally {
          node.disconnect();
        }
        await waitFor(
          async () => (await app.http.get('/v1/account').set(account.auth)).status === 401,
          1000,
          `the revocation published on the node at port ${port}`,
        );
      }
    });
  });
});
