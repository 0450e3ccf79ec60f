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
  /**
   * One module per plan mode in a process: scripts and tests build several apps in one, and TypeORM's
   * module expects its default data source registered once.
   */
  private static readonly modules = new Map<PlanMode, DynamicModule>();

  static forRoot(plans: PlanMode = 'custom'): DynamicModule {
    const existing = DatabaseModule.modules.get(plans);
    if (existing) return existing;
    const module: DynamicModule = {
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
    DatabaseModule.modules.set(plans, module);
    return module;
  }
}
