import { settingsModule } from '@app/core';
import { Module } from '@nestjs/common';
import { EventsRecorder } from './events.recorder';
import { EventsRepository } from './events.repository';
import { EventsSettings } from './events.settings';
import { PetChangeFeed } from './pet-change-feed';

/**
 * What other contexts import to emit events (the recorder, on their own transactions) and to match pet
 * changes (the feed). The repository is exported for the events' own modules: the index leaves it out.
 */
@Module({
  imports: [settingsModule(EventsSettings)],
  providers: [EventsRepository, EventsRecorder, { provide: PetChangeFeed, useExisting: EventsRepository }],
  exports: [settingsModule(EventsSettings), EventsRepository, EventsRecorder, PetChangeFeed],
})
export class EventsModule {}
