import { Injectable } from '@nestjs/common';
import type { EventDto } from './dto/event.dto';
import { EVENT_ID_FORMAT, EventType } from './event-types';
import { EventNotFoundError } from './events.errors';
import { EventPage, EventsRepository } from './events.repository';

/** Each account's feed of the events it received. */
@Injectable()
export class EventsService {
  constructor(private readonly events: EventsRepository) {}

  async get(accountId: number, id: string): Promise<EventDto> {
    const event = EVENT_ID_FORMAT.test(id) ? await this.events.findOne(accountId, id) : undefined;
    if (!event) throw new EventNotFoundError(id);
    return event;
  }

  list(accountId: number, options: { limit: number; type?: EventType; beforeSeq?: number }): Promise<EventPage> {
    return this.events.list(accountId, options);
  }
}
