import { PageQueryDto } from '@app/http';
import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { IsString, Matches } from 'class-validator';
import { EVENT_ID_FORMAT, EVENT_TYPES } from '../event-types';
import type { AttemptRow } from '../delivery/webhook-attempts.repository';

@ApiSchema({ name: 'WebhookDelivery', description: 'One attempt to deliver an event to the endpoint.' })
export class WebhookDeliveryDto {
  @ApiProperty({ type: 'integer', format: 'int64' })
  id!: number;

  @ApiProperty({ example: 'evt_3kTzq0m1Yd9c2XwB7nQe5RfA' })
  eventId!: string;

  @ApiProperty({ enum: EVENT_TYPES, enumName: 'EventType', description: 'The type of the event delivered.' })
  eventType!: string;

  @ApiProperty({ type: 'integer', minimum: 1, description: 'Which attempt of this event to this endpoint.' })
  attempt!: number;

  @ApiProperty({ enum: ['succeeded', 'failed', 'pending'], description: '`pending` while the attempt is under way.' })
  status!: AttemptRow['status'];

  @ApiProperty({
    description:
      '`true` for an attempt the account asked for (`redeliverWebhookEvent`, `testWebhookEndpoint`): made once, ' +
      'never retried.',
    example: false,
  })
  manual!: boolean;

  @ApiProperty({ type: 'integer', nullable: true, description: 'The HTTP status the endpoint answered.' })
  responseStatus!: number | null;

  @ApiProperty({ type: 'integer', nullable: true })
  durationMs!: number | null;

  @ApiProperty({ type: 'string', nullable: true, description: 'Why the attempt failed, in short.' })
  error!: string | null;

  @ApiProperty({ type: 'string', format: 'date-time' })
  createdAt!: string;

  static from(row: AttemptRow): WebhookDeliveryDto {
    return { ...row, createdAt: row.createdAt.toISOString() };
  }
}

export class ListWebhookDeliveriesQueryDto extends PageQueryDto {}

@ApiSchema({ name: 'WebhookRedelivery' })
export class RedeliverWebhookEventDto {
  @ApiProperty({
    description: 'The event to send again: one of the caller’s, kept 30 days.',
    example: 'evt_3kTzq0m1Yd9c2XwB7nQe5RfA',
    pattern: EVENT_ID_FORMAT.source,
  })
  @IsString()
  @Matches(EVENT_ID_FORMAT, { message: 'eventId must be an event id (evt_ and 24 characters)' })
  eventId!: string;
}
