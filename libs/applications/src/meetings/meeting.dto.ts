import { LabelText } from '@app/core';
import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { applyDecorators } from '@nestjs/common';
import { IsISO8601, Matches, ValidateIf } from 'class-validator';
import { MEETING_STATUSES, MeetingStatus } from './meeting-transitions';

/** An instant: a date, a time and its offset from UTC (`Z` or `±hh:mm`), a real one. */
const IsInstant = () =>
  applyDecorators(
    IsISO8601({ strict: true, strictSeparator: true }),
    Matches(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/, {
      message: '$property must be a date-time with its offset, such as 2026-06-06T10:00:00Z',
    }),
  );

@ApiSchema({ name: 'NewMeeting' })
export class ProposeMeetingDto {
  @ApiProperty({
    format: 'date-time',
    description: 'In the future, and at most 90 days ahead.',
    example: '2026-06-06T10:00:00.000Z',
  })
  @IsInstant()
  startsAt: string;

  @ApiProperty({
    format: 'date-time',
    description: '15 minutes to 4 hours after `startsAt`, both bounds included.',
    example: '2026-06-06T11:00:00.000Z',
  })
  @IsInstant()
  endsAt: string;

  @ApiPropertyOptional({ minLength: 1, maxLength: 500, description: 'Trimmed.', example: 'The shelter, 12 Mill Lane' })
  // Absent or a place: `null` is refused as a wrong type.
  @ValidateIf((_body: object, value: unknown) => value !== undefined)
  @LabelText(1, 500)
  location?: string;
}

@ApiSchema({ name: 'Meeting' })
export class MeetingDto {
  @ApiProperty({ example: 'mtg_3kTzq0m1Yd9c2XwB7nQe5RfA' })
  id: string;

  @ApiProperty({ example: 'app_3kTzq0m1Yd9c2XwB7nQe5RfA' })
  applicationId: string;

  @ApiProperty({ format: 'date-time', example: '2026-06-06T10:00:00.000Z' })
  startsAt: string;

  @ApiProperty({ format: 'date-time', example: '2026-06-06T11:00:00.000Z' })
  endsAt: string;

  @ApiPropertyOptional({ example: 'The shelter, 12 Mill Lane' })
  location?: string;

  @ApiProperty({ enum: MEETING_STATUSES, enumName: 'MeetingStatus', example: 'proposed' })
  status: MeetingStatus;

  @ApiProperty({ format: 'date-time', example: '2026-06-01T12:00:00.000Z' })
  createdAt: string;

  @ApiProperty({
    format: 'date-time',
    description: 'When the meeting last changed.',
    example: '2026-06-01T12:00:00.000Z',
  })
  updatedAt: string;
}
