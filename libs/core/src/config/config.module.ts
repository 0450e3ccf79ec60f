import { DynamicModule, Global, Module } from '@nestjs/common';
import { ConfigModule } from '@nestjs/config';
import { Environment, validateEnvironment } from './environment';

/**
 * Loads `.env` (when present) and the process environment, validates them once at boot, and
 * provides the typed `Environment` for injection.
 */
@Global()
@Module({})
export class AppConfigModule {
  static forRoot(): DynamicModule {
    let environment: Environment | undefined;
    return {
      module: AppConfigModule,
      imports: [
        ConfigModule.forRoot({
          cache: true,
          validate: (raw) => (environment = validateEnvironment(raw)),
        }),
      ],
      providers: [{ provide: Environment, useFactory: () => environment ?? validateEnvironment(process.env) }],
      exports: [Environment],
    };
  }
}
