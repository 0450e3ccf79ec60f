import { BooleanSetting, IntegerSetting } from '@app/core';
import { IsBoolean, IsInt, IsUrl, Max, Min } from 'class-validator';

/** PostgreSQL: where it is, how many connections each process opens, and whether start-up migrates. */
export class DatabaseSettings {
  @IsUrl({ protocols: ['postgres', 'postgresql'], require_tld: false, require_host: true })
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
}
