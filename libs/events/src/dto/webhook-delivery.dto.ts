import { PageQueryDto } from '@app/http';
import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { EVENT_TYPES } from '../event-types';
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
