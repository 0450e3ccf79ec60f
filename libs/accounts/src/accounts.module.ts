import { settingsModule } from '@app/core';
import { Module } from '@nestjs/common';
import { AccountEvents } from './account-events';
import { AccountsRepository } from './accounts.repository';
import { AccountsService } from './accounts.service';
import { ApiKeyAuthenticator } from './api-keys/api-key-authenticator';
import { ApiKeyGuard } from './api-keys/api-key.guard';
import { ApiKeySettings } from './api-keys/api-key.settings';
import { ApiKeysRepository } from './api-keys/api-keys.repository';
import { ApiKeysService } from './api-keys/api-keys.service';
import { LastUsedRecorder } from './api-keys/last-used-recorder';

/** Accounts and keys without HTTP: used by the HTTP apps and the operator CLI. */
@Module({
  imports: [settingsModule(ApiKeySettings)],
  providers: [
    AccountsRepository,
    ApiKeysRepository,
    AccountsService,
    ApiKeysService,
    AccountEvents,
    ApiKeyAuthenticator,
    LastUsedRecorder,
    ApiKeyGuard,
  ],
  exports: [
    AccountsService,
    ApiKeysService,
    ApiKeyAuthenticator,
    ApiKeyGuard,
    // For the personal-data module beside it: the index exports neither repository.
    AccountsRepository,
    ApiKeysRepository,
    AccountEvents,
  ],
})
export class AccountsModule {}
