import { settingsModule } from '@app/core';
import { EventsModule } from '@app/events';
import { PetsModule } from '@app/pets';
import { Module } from '@nestjs/common';
import { SavedSearchMatcher } from './matching/saved-search-matcher';
import { SavedSearchMatchingRepository } from './matching/saved-search-matching.repository';
import { SavedSearchesController } from './saved-searches.controller';
import { SavedSearchesPersonalData } from './saved-searches-personal-data.part';
import { SavedSearchesRepository } from './saved-searches.repository';
import { SavedSearchesService } from './saved-searches.service';
import { SavedSearchesSettings } from './saved-searches.settings';

/** Saved searches themselves: what the HTTP module serves. */
@Module({
  imports: [PetsModule],
  providers: [SavedSearchesRepository, SavedSearchesService, SavedSearchesPersonalData],
  exports: [SavedSearchesRepository, SavedSearchesService],
})
class SavedSearchesModule {}

/** `/v1/saved-searches`. */
@Module({
  imports: [SavedSearchesModule],
  controllers: [SavedSearchesController],
})
export class SavedSearchesHttpModule {}

/** The matcher, which turns pet changes into `saved_search.matched` events. Imported by the worker app only. */
@Module({
  imports: [SavedSearchesModule, EventsModule, settingsModule(SavedSearchesSettings)],
  providers: [SavedSearchMatchingRepository, SavedSearchMatcher],
  exports: [SavedSearchMatcher],
})
export class SavedSearchesWorkerModule {}
