import { AccountsModule } from '@app/accounts';
import { CoreModule } from '@app/core';
import { DatabaseModule } from '@app/database';
import { EmailModule } from '@app/email';
import { Module } from '@nestjs/common';

@Module({ imports: [CoreModule, DatabaseModule.forRoot(), AccountsModule, EmailModule] })
export class CliModule {}
