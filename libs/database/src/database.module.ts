import { DynamicModule, Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { settingsModule } from '@app/core';
import { DatabaseSettings } from './database.settings';
import { dataSourceOptions, PlanMode } from './data-source-options';
import { Sql } from './sql';

/**
 * PostgreSQL for every module: TypeORM's DataSource, which opens the pool (and serves the health check),
 * and `Sql` on that pool, through which the repositories run every statement. `plans` says how the
 * process's statements are planned (`dataSourceOptions`).
 */
@Global()
@Module({})
export class DatabaseModule {
  static forRoot(plans: PlanMode = 'custom'): DynamicModule {
    return {
      module: DatabaseModule,
      imports: [
        TypeOrmModule.forRootAsync({
          imports: [settingsModule(DatabaseSettings)],
          inject: [DatabaseSettings],
          useFactory: (settings: DatabaseSettings) => ({
            ...dataSourceOptions(settings, plans),
            retryAttempts: 3,
            retryDelay: 1000,
          }),
        }),
      ],
      providers: [Sql],
      exports: [Sql],
    };
  }
}
