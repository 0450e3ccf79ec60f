import { PageQueryDto } from '@app/http';
import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import { EVENT_TYPES, EventType } from '../event-types';

@ApiSchema({ name: 'EventData' })
export class EventDataDto {
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description:
      'The resource right after the change: a Pet, an Order as the recipient’s `role` sees it, or a Message.',
  })
  object!: Record<string, unknown>;
}

@ApiSchema({ name: 'Event' })
export class EventDto {
  @ApiProperty({ example: 'evt_3kTzq0m1Yd9c2XwB7nQe5RfA', description: 'Also the `webhook-id` of its deliveries.' })
  id!: string;

  @ApiProperty({ enum: EVENT_TYPES, enumName: 'EventType', description: 'What happened.', example: 'pet.created' })
  type!: EventType;

  @ApiProperty({ type: 'string', format: 'date-time', description: 'When it happened, ISO 8601 in UTC.' })
  createdAt!: string;

  @ApiProperty({ type: EventDataDto })
  data!: EventDataDto;
}

export class ListEventsQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ enum: EVENT_TYPES, enumName: 'EventType', description: 'Only events of this type.' })
  @IsOptional()
  @IsIn(EVENT_TYPES)
  type?: EventType;
}
