import { DynamicModule, Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { settingsModule } from '@app/core';
import { DatabaseSettings } from './database.settings';
import { dataSourceOptions, PLAN_MODE, PlanMode } from './data-source-options';
import { ReadReplicas } from './read-replicas';
import { Sql } from './sql';

/**
 * TypeORM's module, declared once per process: it registers its default data source when declared and
 * warns at a second declaration, which a process that loads several apps' modules (`npm start`'s launcher,
 * the OpenAPI generator, the tests) would otherwise make for every plan mode. Each app's `DatabaseModule`,
 * global, provides the plan mode it reads.
 */
const TYPEORM = TypeOrmModule.forRootAsync({
  imports: [settingsModule(DatabaseSettings)],
  inject: [DatabaseSettings, PLAN_MODE],
  useFactory: (settings: DatabaseSettings, plans: PlanMode) => ({
    ...dataSourceOptions(settings, plans),
    retryAttempts: 3,
    retryDelay: 1000,
  }),
});

/**
 * PostgreSQL for every module: TypeORM's DataSource, which opens the pool (and serves the health check),
 * and `Sql` on that pool, through which the repositories run every statement, and the read replicas that
 * `Sql` sends reads that may lag to. `plans` says how the
 * process's statements are planned (`dataSourceOptions`).
 */
@Global()
@Module({})
export class DatabaseModule {
  /** One module per plan mode, so that importing it twice in an app declares it once. */
  private static readonly modules = new Map<PlanMode, DynamicModule>();

  static forRoot(plans: PlanMode = 'custom'): DynamicModule {
    const existing = DatabaseModule.modules.get(plans);
    if (existing) return existing;
    const module: DynamicModule = {
      module: DatabaseModule,
      imports: [TYPEORM, settingsModule(DatabaseSettings)],
      providers: [Sql, ReadReplicas, { provide: PLAN_MODE, useValue: plans }],
      exports: [Sql, ReadReplicas, PLAN_MODE],
    };
    DatabaseModule.modules.set(plans, module);
    return module;
  }
}
