import { settingsModule } from '@app/core';
import { Module } from '@nestjs/common';
import { EventsRecorder } from './events.recorder';
import { EventsRepository } from './events.repository';
import { EventsSettings } from './events.settings';

/** What other contexts import to emit events: the recorder, on their own transactions. */
@Module({
  imports: [settingsModule(EventsSettings)],
  providers: [EventsRepository, EventsRecorder],
  exports: [settingsModule(EventsSettings), EventsRepository, EventsRecorder],
})
export class EventsModule {}
