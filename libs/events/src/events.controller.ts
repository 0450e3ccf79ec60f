import { CurrentPrincipal, Principal } from '@app/core';
import { decodeCursor, linkNextPage, PAGE_HEADERS } from '@app/http';
import { Controller, Param, Query, Req, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { EventDto, ListEventsQueryDto } from './dto/event.dto';
import { EVENT_NOT_FOUND, EVENTS_API_TAG } from './events-openapi';
import { EventsService } from './events.service';
import { Endpoint } from '@app/accounts';

@ApiTags(EVENTS_API_TAG.name)
@ApiBearerAuth()
@Controller('events')
export class EventsController {
  constructor(private readonly events: EventsService) {}

  @Endpoint({
    method: 'GET',
    id: 'listEvents',
    scope: 'events:read',
    summary: 'List the caller’s events',
    description:
      'Newest first; kept 30 days. When older events follow, the response carries `Link: <…&cursor=…>; rel="next"`.',
    success: { status: 200, description: 'A page of events.', type: [EventDto], headers: PAGE_HEADERS },
    errors: [400, 401],
  })
  async listEvents(
    @Query() query: ListEventsQueryDto,
    @CurrentPrincipal() principal: Principal,
    @Req() request: Request,
    @Res({ passthrough: true }) response: Response,
  ): Promise<EventDto[]> {
    const page = await this.events.list(principal.accountId, {
      limit: query.limit,
      type: query.type,
      beforeSeq: decodeCursor(query.cursor),
    });
    linkNextPage(request, response, { limit: query.limit, type: query.type }, page.lastSeq);
    return page.events;
  }

  @Endpoint({
    method: 'GET',
    path: ':eventId',
    id: 'getEvent',
    scope: 'events:read',
    summary: 'Get an event',
    description: 'One of the caller’s events; another account’s answers 404.',
    params: [
      {
        name: 'eventId',
        description: 'Identifier of the event: `evt_` and 24 characters.',
        schema: { type: 'string' },
        example: 'evt_3kTzq0m1Yd9c2XwB7nQe5RfA',
      },
    ],
    success: { status: 200, description: 'The event.', type: EventDto },
    errors: [401, EVENT_NOT_FOUND],
  })
  getEvent(@Param('eventId') id: string, @CurrentPrincipal() principal: Principal): Promise<EventDto> {
    return this.events.get(principal.accountId, id);
  }
}
