import { BooleanSetting, CrossFieldRules, IntegerSetting, ListSetting, UrlSetting } from '@app/core';
import { IsBoolean, IsIn, IsInt, IsOptional, Max, Min } from 'class-validator';

const POOL_MODES = ['session', 'transaction'] as const;
export type PoolMode = (typeof POOL_MODES)[number];

/**
 * PostgreSQL: where it is, how many connections each process opens, whether a pooler stands between, and
 * whether start-up migrates.
 */
export class DatabaseSettings implements CrossFieldRules {
  @UrlSetting(['postgres', 'postgresql'], 'postgres://postgres@127.0.0.1:5432/pet_adoption')
  DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/pet_adoption';

  @IntegerSetting()
  @IsInt()
  @Min(1)
  @Max(500)
  DATABASE_POOL_SIZE = 10;

  /** Create the database when it is missing and apply pending migrations on start. */
  @BooleanSetting()
  @IsBoolean()
  DATABASE_MIGRATE_ON_START = true;

  /**
   * `session`: every connection of the pool is this process's own (PostgreSQL itself, or a pooler in session
   * mode), so statements are prepared once per connection and settings are made as the connection opens.
   * `transaction`: a pooler in transaction mode (PgBouncer) may hand each transaction another server
   * connection, so statements run unnamed and nothing is set on a session.
   */
  @IsIn(POOL_MODES)
  DATABASE_POOL_MODE: PoolMode = 'session';

  /**
   * PostgreSQL itself, bypassing any pooler: what migrations use, with their session-level lock. Needed in
   * `transaction` mode; otherwise `DATABASE_URL` serves.
   */
  @IsOptional()
  @UrlSetting(['postgres', 'postgresql'], 'postgres://postgres@127.0.0.1:5432/pet_adoption')
  DATABASE_DIRECT_URL?: string;

  /**
   * Streaming replicas of PostgreSQL, comma-separated: reads that may lag go to them (Operations: read
   * replicas). None: every statement goes to `DATABASE_URL`.
   */
  @ListSetting()
  @UrlSetting(['postgres', 'postgresql'], 'postgres://postgres@replica-1:5432/pet_adoption', { each: true })
  DATABASE_REPLICA_URLS: string[] = [];

  /**
   * How far behind the primary a replica may be and still serve reads, and for how long after an account's
   * change its reads go to the primary: the one bound makes both read-your-writes and the lag that others see.
   */
  @IntegerSetting()
  @IsInt()
  @Min(100)
  @Max(600_000)
  DATABASE_REPLICA_MAX_LAG_MS = 5000;

  /** Where migrations and the database's creation connect. */
  get directUrl(): string {
    return this.DATABASE_DIRECT_URL ?? this.DATABASE_URL;
  }

  violations(): string[] {
    return this.DATABASE_POOL_MODE === 'transaction' && !this.DATABASE_DIRECT_URL
      ? [
          'DATABASE_DIRECT_URL must be set when DATABASE_POOL_MODE=transaction: migrations take a session lock, ' +
            'which a pooler in transaction mode cannot keep (set it to PostgreSQL itself, bypassing the pooler)',
        ]
      : [];
  }
}
