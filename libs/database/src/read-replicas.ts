import { AsyncLocalStorage } from 'node:async_hooks';
import { performance } from 'node:perf_hooks';
import { Inject, Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Pool, type PoolConfig } from 'pg';
import { DataSource } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';
import { PLAN_MODE, type PlanMode, poolOptions } from './data-source-options';
import { DatabaseSettings } from './database.settings';

/** How often the primary's WAL position and each replica's replay position are read. */
const POLL_MS = 250;

/** A replica that stops answering is given up on this fast, so that its reads go to the primary. */
const REPLICA_CONNECT_TIMEOUT_MS = 1000;

interface Replica {
  /** Its address without credentials, for the logs. */
  name: string;
  pool: Pool;
  /**
   * The latest poll (`performance.now()`) whose primary position the replica had replayed when last
   * asked: everything committed on the primary before then is on the replica. Unset while it is unreachable.
   */
  caughtUpAt?: number;
  down: boolean;
}

/** A WAL position (`16/B374D848`) as a number that compares. */
function walPosition(lsn: string): bigint {
  const [high, low] = lsn.split('/');
  return (BigInt(`0x${high}`) << 32n) | BigInt(`0x${low}`);
}

/**
 * Streaming replicas (`DATABASE_REPLICA_URLS`) and which of them may serve a read that may lag.
 *
 * Every `POLL_MS` it reads the primary's WAL position, then each replica's replay position. A replica has
 * replayed everything committed before poll T once its replay position reaches the primary's at T; it
 * serves reads while that T is within `DATABASE_REPLICA_MAX_LAG_MS` of now. An account's reads go to the
 * primary for that same bound after its change (`fromPrimary`), so a read that does reach a replica comes
 * after a poll that followed the change, on a replica that has replayed that poll's position: every change
 * of the account is there. Only durations on this process's monotonic clock are compared, never clocks of
 * two machines. Polling starts with the first read that asks for a replica, so processes that never do
 * (the worker) never poll.
 */
@Injectable()
export class ReadReplicas implements OnModuleDestroy {
  private readonly logger = new Logger(ReadReplicas.name);
  private readonly replicas: Replica[];
  /** `DATABASE_REPLICA_MAX_LAG_MS`: the most a replica that serves reads lags, and the read-your-writes window. */
  readonly maxLagMs: number;
  /** The primary's positions at the polls of the last `maxLagMs`, oldest first. */
  private positions: Array<{ at: number; lsn: bigint }> = [];
  private readonly primaryOnly = new AsyncLocalStorage<true>();
  private poller?: NodeJS.Timeout;
  private stopped = false;
  private turn = 0;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    settings: DatabaseSettings,
    @Inject(PLAN_MODE) plans: PlanMode,
  ) {
    this.maxLagMs = settings.DATABASE_REPLICA_MAX_LAG_MS;
    this.replicas = settings.DATABASE_REPLICA_URLS.map((url) => {
      // pg's types take no arguments for `Client`, which pg constructs with the pool's options.
      const pool = new Pool({
        ...poolOptions(settings, plans),
        connectionString: url,
        connectionTimeoutMillis: REPLICA_CONNECT_TIMEOUT_MS,
      } as unknown as PoolConfig);
      // A connection lost while idle in the pool: the next poll or read finds the replica down.
      pool.on('error', () => undefined);
      const { protocol, host, pathname } = new URL(url);
      return { name: `${protocol}//${host}${pathname}`, pool, down: false };
    });
  }

  /** Whether any replica is configured: without one, every read goes to the primary as it always did. */
  get configured(): boolean {
    return this.replicas.length > 0;
  }

  /** Runs `work` with every read it makes on the primary: an account's reads shortly after its change. */
  fromPrimary<T>(work: () => T): T {
    return this.primaryOnly.run(true, work);
  }

  /** Whether a read made here may go to a replica (not in `fromPrimary`). */
  get mayLag(): boolean {
    return this.configured && this.primaryOnly.getStore() === undefined;
  }

  /** A replica caught up within the bound, taken in turn, or undefined: the read goes to the primary. */
  pick(): Pool | undefined {
    if (!this.mayLag) return undefined;
    this.startPolling();
    const since = performance.now() - this.maxLagMs;
    const fresh = this.replicas.filter((replica) => replica.caughtUpAt !== undefined && replica.caughtUpAt >= since);
    if (fresh.length === 0) return undefined;
    return fresh[this.turn++ % fresh.length]!.pool;
  }

  /** A read on `pool` failed: its replica serves no more reads until a poll reaches it again. */
  failed(pool: Pool, error: unknown): void {
    const replica = this.replicas.find((candidate) => candidate.pool === pool);
    if (replica) this.markDown(replica, error);
  }

  private startPolling(): void {
    if (this.poller || this.stopped) return;
    const loop = async () => {
      await this.poll();
      if (!this.stopped) this.poller = setTimeout(() => void loop(), POLL_MS).unref();
    };
    this.poller = setTimeout(() => void loop(), 0).unref();
  }

  private async poll(): Promise<void> {
    const at = performance.now();
    try {
      const primary = (this.dataSource.driver as PostgresDriver).master as Pool;
      const { rows } = await primary.query<{ lsn: string }>('SELECT pg_current_wal_lsn()::text AS lsn');
      this.positions.push({ at, lsn: walPosition(rows[0]!.lsn) });
    } catch {
      // The primary is away: no poll vouches for any replica, which serve no longer than the bound.
    }
    // Keep the newest poll older than the bound: a replica that replayed it is still caught up to it.
    const since = performance.now() - this.maxLagMs;
    while (this.positions.length > 1 && this.positions[1]!.at < since) this.positions.shift();
    await Promise.all(this.replicas.map((replica) => this.pollReplica(replica)));
  }

  private async pollReplica(replica: Replica): Promise<void> {
    try {
      const { rows } = await replica.pool.query<{ lsn: string | null }>('SELECT pg_last_wal_replay_lsn()::text AS lsn');
      // Null on a server that is no replica: it may be anything, so it serves nothing.
      if (rows[0]!.lsn === null) throw new Error('it is not a streaming replica (pg_last_wal_replay_lsn() is null)');
      const replayed = walPosition(rows[0]!.lsn);
      const caughtUp = this.positions.findLast((position) => position.lsn <= replayed);
      if (caughtUp) replica.caughtUpAt = Math.max(replica.caughtUpAt ?? caughtUp.at, caughtUp.at);
      if (replica.down) this.logger.log(`read replica ${replica.name} answers again`);
      replica.down = false;
    } catch (error) {
      this.markDown(replica, error);
    }
  }

  private markDown(replica: Replica, error: unknown): void {
    replica.caughtUpAt = undefined;
    if (!replica.down) {
      this.logger.warn(
        `read replica ${replica.name} is unavailable, its reads go to the primary: ${(error as Error).message}`,
      );
    }
    replica.down = true;
  }

  async onModuleDestroy(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.poller);
    await Promise.all(this.replicas.map((replica) => replica.pool.end()));
  }
}
