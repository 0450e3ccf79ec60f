import { CharacterCount } from '@app/core';
import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  ArrayUnique,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Max,
  MaxLength,
  Min,
  ValidateIf,
} from 'class-validator';
import { ALL_EVENT_TYPES, SUBSCRIBABLE_EVENT_TYPES } from '../event-types';
import type { WebhookEndpoint } from '../webhooks/webhook-endpoints.repository';

const SUBSCRIBABLE = [...SUBSCRIBABLE_EVENT_TYPES, ALL_EVENT_TYPES];
const trim = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);

const URL_PROPERTY = {
  description: '`https` (or `http` in development) URL that receives the events; at most 2048 characters.',
  example: 'https://shelter.example/hooks/pets',
  maxLength: 2048,
};
const EVENTS_PROPERTY = {
  description: 'The event types to receive, or `["*"]` for every type.',
  example: ['pet.created', 'message.failed'],
  type: 'array',
  items: { type: 'string', enum: SUBSCRIBABLE },
  minItems: 1,
} as const;

@ApiSchema({ name: 'WebhookEndpoint' })
export class WebhookEndpointDto {
  @ApiProperty({ type: 'integer', format: 'int64', example: 3 })
  id!: number;

  @ApiProperty(URL_PROPERTY)
  url!: string;

  @ApiProperty(EVENTS_PROPERTY)
  events!: string[];

  @ApiPropertyOptional({ maxLength: 500, example: 'Shelter website' })
  description?: string;

  @ApiProperty({ description: 'Whether events are delivered to it.' })
  enabled!: boolean;

  @ApiProperty({ type: 'string', format: 'date-time' })
  createdAt!: string;

  @ApiProperty({ type: 'string', format: 'date-time' })
  updatedAt!: string;

  static from(endpoint: WebhookEndpoint): WebhookEndpointDto {
    return {
      id: endpoint.id,
      url: endpoint.url,
      events: endpoint.eventTypes,
      ...(endpoint.description !== null && { description: endpoint.description }),
      enabled: endpoint.enabled,
      createdAt: endpoint.createdAt.toISOString(),
      updatedAt: endpoint.updatedAt.toISOString(),
    };
  }
}

@ApiSchema({ name: 'WebhookEndpointWithSecret' })
export class WebhookEndpointWithSecretDto extends WebhookEndpointDto {
  @ApiProperty({
    description:
      'The signing secret: `whsec_` and the base64 of 32 random bytes. Shown only in this response: store it now.',
    example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw2uyqmN6yB+4=',
  })
  secret!: string;
}

/** Validation shared by creation and PATCH; `null` is refused by the type checks. */
const UrlField = () => applyDecorators(IsString(), MaxLength(2048));
const EventsField = () =>
  applyDecorators(
    IsArray(),
    ArrayMinSize(1),
    ArrayMaxSize(SUBSCRIBABLE.length),
    ArrayUnique(),
    IsIn(SUBSCRIBABLE, { each: true }),
  );
const DescriptionField = () => applyDecorators(IsOptional(), Transform(trim), IsString(), CharacterCount(1, 500));
/** May be omitted, but never `null`. */
const IfPresent = () => ValidateIf((_body: object, value: unknown) => value !== undefined);

@ApiSchema({ name: 'NewWebhookEndpoint' })
export class CreateWebhookEndpointDto {
  @ApiProperty(URL_PROPERTY)
  @UrlField()
  url!: string;

  @ApiProperty(EVENTS_PROPERTY)
  @EventsField()
  events!: string[];

  @ApiPropertyOptional({ maxLength: 500, example: 'Shelter website' })
  @DescriptionField()
  description?: string;
}

@ApiSchema({ name: 'WebhookEndpointChange' })
export class UpdateWebhookEndpointDto {
  @ApiPropertyOptional(URL_PROPERTY)
  @IfPresent()
  @UrlField()
  url?: string;

  @ApiPropertyOptional(EVENTS_PROPERTY)
  @IfPresent()
  @EventsField()
  events?: string[];

  // The type said outright: `string | null` reflects as Object, which the document would call an object.
  @ApiPropertyOptional({
    type: 'string',
    maxLength: 500,
    nullable: true,
    example: 'Shelter website',
    description: '`null` removes the description.',
  })
  @DescriptionField()
  description?: string | null;

  @ApiPropertyOptional({ description: '`false` stops deliveries to it until it is enabled again.' })
  @IfPresent()
  @IsBoolean()
  enabled?: boolean;
}

/** How long a rotated-out secret signs by default, and at most: Stripe's choices reach a week. */
const DEFAULT_OVERLAP_HOURS = 24;
const MAX_OVERLAP_HOURS = 168;

@ApiSchema({ name: 'WebhookSecretRotationRequest' })
export class RotateWebhookSecretDto {
  @ApiPropertyOptional({
    type: 'integer',
    minimum: 0,
    maximum: MAX_OVERLAP_HOURS,
    // The default said in words: a request schema's `default` makes openapi-typescript require the field.
    description:
      'How long the secret being replaced keeps signing beside the new one, in hours (' +
      `${DEFAULT_OVERLAP_HOURS} when omitted): \`0\` stops it at once.`,
  })
  // Omitted takes the default; null is refused, as any other value that is not a number of hours.
  @IfPresent()
  @IsInt()
  @Min(0)
  @Max(MAX_OVERLAP_HOURS)
  previousSecretExpiresInHours: number = DEFAULT_OVERLAP_HOURS;
}

@ApiSchema({ name: 'WebhookSecretRotation' })
export class WebhookSecretRotationDto {
  @ApiProperty({ type: 'integer', format: 'int64', example: 3, description: 'The endpoint whose secret changed.' })
  endpointId!: number;

  @ApiProperty({
    description:
      'The new signing secret: `whsec_` and the base64 of 32 random bytes. Shown only in this response: store it now.',
    example: 'whsec_9d4VnGq0CqS4YF2aDk3qv8m1L0bXo7ZrJk5t6uWcPEs=',
  })
  secret!: string;

  @ApiProperty({
    type: 'string',
    format: 'date-time',
    description:
      'Until then every delivery carries two signatures, one per secret; after it, only the new secret signs.',
    example: '2026-06-02T12:00:00.000Z',
  })
  previousSecretExpiresAt!: string;
}
