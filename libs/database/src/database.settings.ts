import { BooleanSetting, IntegerSetting, UrlSetting } from '@app/core';
import { IsBoolean, IsInt, Max, Min } from 'class-validator';

/** PostgreSQL: where it is, how many connections each process opens, and whether start-up migrates. */
export class DatabaseSettings {
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
}
