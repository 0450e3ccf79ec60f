import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Environment } from '../config/environment';
import { dataSourceOptions } from './data-source-options';
import { Sql } from './sql';

/** PostgreSQL for every module: TypeORM's DataSource, and `Sql` on the same pool for hot paths. */
@Global()
@Module({
  imports: [
    TypeOrmModule.forRootAsync({
      inject: [Environment],
      useFactory: (env: Environment) => ({
        ...dataSourceOptions(env),
        entities: [],
        autoLoadEntities: true,
        retryAttempts: 3,
        retryDelay: 1000,
      }),
    }),
  ],
  providers: [Sql],
  exports: [Sql],
})
export class DatabaseModule {}
