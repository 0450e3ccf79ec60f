import { DynamicModule, Global, Module } from '@nestjs/common';
import { ConfigModule } from '@nestjs/config';
import { CoreSettings } from './core.settings';
import { ENVIRONMENT_VARIABLES, settingsProvider } from './settings';

/**
 * The one source of every context's settings: the process environment, with `.env` (when present)
 * loaded into it. ConfigModule loads the file when `forRoot` is called, which is when `CoreModule` is
 * declared, so `process.env` includes it for the main files too. Provides core's own settings.
 */
@Global()
@Module({})
export class AppConfigModule {
  static forRoot(): DynamicModule {
    return {
      module: AppConfigModule,
      imports: [ConfigModule.forRoot({ cache: true })],
      providers: [{ provide: ENVIRONMENT_VARIABLES, useFactory: () => process.env }, settingsProvider(CoreSettings)],
      exports: [ENVIRONMENT_VARIABLES, CoreSettings],
    };
  }
}
