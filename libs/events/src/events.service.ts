import { Injectable } from '@nestjs/common';
import type { EventDto } from './dto/event.dto';
import { EventObjects } from './event-objects';
import { EVENT_ID_FORMAT, EventType } from './event-types';
import { EventNotFoundError } from './events.errors';
import { EventPage, EventsRepository } from './events.repository';

/** Each account's feed of the events it received. */
@Injectable()
export class EventsService {
  constructor(
    private readonly events: EventsRepository,
    private readonly objects: EventObjects,
  ) {}

  async get(accountId: number, id: string): Promise<EventDto> {
    const event = EVENT_ID_FORMAT.test(id) ? await this.events.findOne(accountId, id) : undefined;
    if (!event) throw new EventNotFoundError(id);
    return this.objects.servedEvent(event);
  }

  async list(accountId: number, options: { limit: number; type?: EventType; beforeSeq?: number }): Promise<EventPage> {
    const page = await this.events.list(accountId, options);
    return { ...page, events: page.events.map((event) => this.objects.servedEvent(event)) };
  }
}
