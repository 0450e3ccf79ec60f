import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AccountEvents } from './account-events';
import { AccountEntity } from './account.entity';
import { AccountsService } from './accounts.service';
import { ApiKeyAuthenticator } from './api-keys/api-key-authenticator';
import { ApiKeyEntity } from './api-keys/api-key.entity';
import { ApiKeyGuard } from './api-keys/api-key.guard';
import { ApiKeysService } from './api-keys/api-keys.service';
import { LastUsedRecorder } from './api-keys/last-used-recorder';

/** Accounts and keys without HTTP: used by the HTTP apps and the operator CLI. */
@Module({
  imports: [TypeOrmModule.forFeature([AccountEntity, ApiKeyEntity])],
  providers: [AccountsService, ApiKeysService, AccountEvents, ApiKeyAuthenticator, LastUsedRecorder, ApiKeyGuard],
  exports: [AccountsService, ApiKeysService, ApiKeyAuthenticator, ApiKeyGuard],
})
export class AccountsModule {}
