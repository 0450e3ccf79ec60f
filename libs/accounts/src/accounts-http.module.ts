import { Module } from '@nestjs/common';
import { AccountsController } from './accounts.controller';
import { AccountsModule } from './accounts.module';
import { ApiKeysController } from './api-keys/api-keys.controller';

/** `/v1/accounts`, `/v1/account` and `/v1/keys`. */
@Module({
  imports: [AccountsModule],
  controllers: [AccountsController, ApiKeysController],
  exports: [AccountsModule],
})
export class AccountsHttpModule {}
