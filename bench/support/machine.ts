import { cpus, release } from 'node:os';
import { Redis } from 'ioredis';
import { Stores, withClient } from './database';
import { cpuCount } from './processes';

/** What the figures were measured on: the CPU, Node, the kernel and the stores' versions. */
export async function describeMachine(stores: Stores): Promise<Record<string, string>> {
  const { version, autovacuum } = await withClient(stores, async (client) => {
    const { rows } = await client.query<{ version: string; autovacuum: string }>(
      `SELECT current_setting('server_version') AS version, current_setting('autovacuum') AS autovacuum`,
    );
    return rows[0]!;
  });
  const redis = new Redis(stores.redisUrl);
  const info = await redis.info('server');
  redis.disconnect();
  return {
    cpu: `${cpus()[0]?.model.trim() ?? 'unknown'} × ${cpuCount()} (nproc)`,
    node: process.version,
    kernel: `Linux ${release()}`,
    postgres: `${version} (autovacuum ${autovacuum}${autovacuum === 'off' ? ': ANALYZE before each turn' : ''})`,
    redis: /redis_version:(\S+)/.exec(info)?.[1] ?? 'unknown',
  };
}
