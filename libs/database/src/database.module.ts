import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Environment } from '@app/core';
import { dataSourceOptions } from './data-source-options';
import { Sql } from './sql';

/**
 * PostgreSQL for every module: TypeORM's DataSource, which opens the pool (and serves the health check),
 * and `Sql` on that pool, through which the repositories run every statement.
 */
@Global()
@Module({
  imports: [
    TypeOrmModule.forRootAsync({
      inject: [Environment],
      useFactory: (env: Environment) => ({
        ...dataSourceOptions(env),
        retryAttempts: 3,
        retryDelay: 1000,
      }),
    }),
  ],
  providers: [Sql],
  exports: [Sql],
})
export class DatabaseModule {}
