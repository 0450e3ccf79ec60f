import { AccountsModule } from '@app/accounts';
import { settingsModule } from '@app/core';
import { EmailModule } from '@app/email';
import { EventsModule } from '@app/events';
import { PetsModule } from '@app/pets';
import { Module } from '@nestjs/common';
import { SavedSearchDigests } from './digests/saved-search-digests';
import { SavedSearchDigestsRepository } from './digests/saved-search-digests.repository';
import { SavedSearchMatcher } from './matching/saved-search-matcher';
import { SavedSearchMatchingRepository } from './matching/saved-search-matching.repository';
import { SavedSearchesController } from './saved-searches.controller';
import { SavedSearchesRepository } from './saved-searches.repository';
import { SavedSearchesService } from './saved-searches.service';
import { SavedSearchesSettings } from './saved-searches.settings';

/** Saved searches themselves: what the HTTP module serves. */
@Module({
  imports: [PetsModule, AccountsModule, EmailModule],
  providers: [SavedSearchesRepository, SavedSearchesService],
  exports: [SavedSearchesRepository, SavedSearchesService],
})
class SavedSearchesModule {}

/** `/v1/saved-searches`. */
@Module({
  imports: [SavedSearchesModule],
  controllers: [SavedSearchesController],
})
export class SavedSearchesHttpModule {}

/**
 * The matcher, which turns pet changes into `saved_search.matched` events, and the email digests of the searches
 * with email alerts. Imported by the worker app only.
 */
@Module({
  imports: [SavedSearchesModule, EventsModule, EmailModule, settingsModule(SavedSearchesSettings)],
  providers: [SavedSearchMatchingRepository, SavedSearchMatcher, SavedSearchDigestsRepository, SavedSearchDigests],
  exports: [SavedSearchMatcher],
})
export class SavedSearchesWorkerModule {}
