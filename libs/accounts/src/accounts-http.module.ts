import { Module } from '@nestjs/common';
import { AccountsController } from './accounts.controller';
import { AccountsModule } from './accounts.module';
import { ApiKeysController } from './api-keys/api-keys.controller';
import { PersonalDataController } from './personal-data/personal-data.controller';
import { PersonalDataModule } from './personal-data/personal-data.module';

/** `/v1/accounts`, `/v1/account` (with its export and deletion) and `/v1/keys`. */
@Module({
  imports: [AccountsModule, PersonalDataModule],
  controllers: [AccountsController, ApiKeysController, PersonalDataController],
  exports: [AccountsModule],
})
export class AccountsHttpModule {}
