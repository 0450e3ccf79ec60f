import { cpus, release } from 'node:os';
import { Redis } from 'ioredis';
import { Stores, withClient } from './database';
import { cpuCount } from './processes';

/** What the figures were measured on: the CPU, Node, the kernel and the stores' versions. */
export async function describeMachine(stores: Stores): Promise<Record<string, string>> {
  const postgres = await withClient(stores, (client) =>
    client.query<{ server_version: string }>('SHOW server_version'),
  );
  const redis = new Redis(stores.redisUrl);
  const info = await redis.info('server');
  redis.disconnect();
  return {
    cpu: `${cpus()[0]?.model.trim() ?? 'unknown'} × ${cpuCount()} (nproc)`,
    node: process.version,
    kernel: `Linux ${release()}`,
    postgres: postgres.rows[0]!.server_version,
    redis: /redis_version:(\S+)/.exec(info)?.[1] ?? 'unknown',
  };
}
