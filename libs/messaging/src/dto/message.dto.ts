import { CharacterCount } from '@app/core';
import { PageQueryDto } from '@app/http';
import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString } from 'class-validator';
import { MESSAGE_STATUSES, MessageStatus } from '../message-status';

const MAX_MESSAGE_LENGTH = 1600;

@ApiSchema({ name: 'NewMessage' })
export class SendMessageDto {
  @ApiProperty({
    description: 'The text to send: 1 to 1600 characters (Unicode code points). It is stored exactly as sent.',
    minLength: 1,
    maxLength: MAX_MESSAGE_LENGTH,
    example: 'Rex has found a home!',
  })
  @IsString()
  @CharacterCount(1, MAX_MESSAGE_LENGTH)
  message: string;
}

@ApiSchema({ name: 'Message' })
export class MessageDto {
  @ApiProperty({ description: 'Identifier of the message.', example: 'msg_4ZfQ0hB2kT9xLmN7pR1sV3wY' })
  id: string;

  @ApiProperty({ description: 'The text that was sent.', example: 'Rex has found a home!' })
  message: string;

  @ApiProperty({
    enum: MESSAGE_STATUSES,
    enumName: 'MessageStatus',
    description:
      'Processing status: `queued` (accepted, waiting for a worker), `sending`, `sent`, or `failed` ' +
      '(every delivery attempt failed).',
    example: 'queued',
  })
  status: MessageStatus;

  @ApiProperty({
    format: 'date-time',
    description: 'Creation time, ISO 8601 in UTC.',
    example: '2026-06-01T12:00:00.000Z',
  })
  createdAt: string;

  @ApiProperty({
    type: 'integer',
    minimum: 0,
    description: 'Delivery attempts started so far: `0` while the first waits for a worker.',
    example: 1,
  })
  attempts: number;

  @ApiProperty({
    type: 'string',
    format: 'date-time',
    nullable: true,
    description: 'When the message was delivered (`status` became `sent`), ISO 8601 in UTC; `null` until then.',
    example: '2026-06-01T12:00:01.000Z',
  })
  sentAt: string | null;

  @ApiProperty({
    type: 'string',
    nullable: true,
    description:
      'Why the latest failed attempt failed (kept when a later attempt succeeds); `null` while none has failed.',
    example: 'webhook answered 503',
  })
  lastError: string | null;
}

export class ListMessagesQueryDto extends PageQueryDto {
  @ApiPropertyOptional({
    enum: MESSAGE_STATUSES,
    enumName: 'MessageStatus',
    description: 'Keeps only messages with this status.',
  })
  @IsOptional()
  @IsIn(MESSAGE_STATUSES)
  status?: MessageStatus;
}
