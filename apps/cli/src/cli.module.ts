import { AccountsModule } from '@app/accounts';
import { CoreModule } from '@app/core';
import { Module } from '@nestjs/common';

@Module({ imports: [CoreModule, AccountsModule] })
export class CliModule {}
