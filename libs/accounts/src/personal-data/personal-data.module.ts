import { Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { AccountsModule } from '../accounts.module';
import { AccountDeletion } from './account-deletion';
import { AccountErasure } from './account-erasure';
import { accountErasureProcessorProvider, AccountErasureReconciler } from './account-erasure.processor';
import {
  ACCOUNT_ERASURE_QUEUE_MODULE,
  AccountErasureProducer,
  ERASURE_QUEUE_REDIS_MODULE,
} from './account-erasure.queue';
import { AccountExport } from './account-export';
import { AccountsPersonalData } from './accounts-personal-data.part';
import { PersonalDataRepository } from './personal-data.repository';
import { PersonalDataParts } from './personal-data-parts';

/**
 * Every context's personal-data part, found in the app, with the start-up check that no table holding
 * accounts' data is left out; the erasure queue. Imported by the api and the worker.
 */
@Module({
  imports: [AccountsModule, DiscoveryModule, ERASURE_QUEUE_REDIS_MODULE, ACCOUNT_ERASURE_QUEUE_MODULE],
  providers: [
    PersonalDataRepository,
    PersonalDataParts,
    AccountsPersonalData,
    AccountExport,
    AccountDeletion,
    AccountErasureProducer,
  ],
  exports: [AccountsModule, PersonalDataParts, AccountExport, AccountDeletion, AccountErasureProducer],
})
export class PersonalDataModule {}

/** The erasures' processor and their reconciler. Imported by the worker app only. */
@Module({
  imports: [PersonalDataModule],
  providers: [AccountErasure, accountErasureProcessorProvider, AccountErasureReconciler],
})
export class AccountsWorkerModule {}
