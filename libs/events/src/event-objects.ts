import type { EventDto } from './dto/event.dto';
import type { EventType } from './event-types';

/**
 * What an event's object becomes when the event is read (the feed, a webhook's body): events keep objects as
 * their contexts store them, and a context that forms part of its objects at read time (libs/photos, the URLs
 * of a pet's photos) provides this. Every app that reads events has it.
 */
export abstract class EventObjects {
  abstract served(type: EventType, object: Record<string, unknown>): Record<string, unknown>;

  /** The event as clients and endpoints receive it. */
  servedEvent(event: EventDto): EventDto {
    return { ...event, data: { ...event.data, object: this.served(event.type, event.data.object) } };
  }
}
