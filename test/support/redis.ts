import { Queue } from 'bullmq';
import { Cluster } from 'ioredis';
import {
  CoreSettings,
  createRedisClient,
  loadSettings,
  queuePrefix,
  type RedisClient,
  workerConnection,
} from '../../libs/core/src';

/** The Redis the apps under test use: TEST_REDIS_URL's db, or the cluster of TEST_REDIS_CLUSTER_NODES. */
export const testRedisTarget = () => loadSettings(CoreSettings, process.env).redis;

/** A client of the test Redis, for a suite to look at what the apps keep there. */
export function testRedis(): RedisClient {
  return createRedisClient(testRedisTarget());
}

/** Runs `use` with a client of the test Redis, closed afterwards. */
export async function withTestRedis<T>(use: (redis: RedisClient) => Promise<T>): Promise<T> {
  const redis = testRedis();
  try {
    return await use(redis);
  } finally {
    redis.disconnect();
  }
}

/** Every node a command must reach to touch the whole of the test Redis: its masters, or itself. */
export function everyNode(redis: RedisClient) {
  return redis instanceof Cluster ? redis.nodes('master') : [redis];
}

/** One of the apps' queues, named and prefixed as they name it, on the test Redis; `close` closes all it opened. */
export function testQueue(name: string): Queue {
  const connection = workerConnection(testRedisTarget());
  const queue = new Queue(name, { connection, prefix: queuePrefix(name) });
  const close = queue.close.bind(queue);
  // BullMQ leaves a connection it was given open.
  queue.close = async () => {
    await close();
    if (connection instanceof Cluster) connection.disconnect();
  };
  return queue;
}
