import { CharacterCount, LabelText } from '@app/core';
import { PageQueryDto, toQueryInt } from '@app/http';
import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import {
  IsBoolean,
  IsEmail,
  IsIn,
  IsInt,
  IsObject,
  IsOptional,
  IsString,
  Max,
  Min,
  ValidateBy,
  ValidateNested,
} from 'class-validator';
import { FIELD_TYPES, FieldType, isPhone, type AnswerValue } from '../application-form';
import {
  APPLICATION_ROLES,
  APPLICATION_STATUSES,
  ApplicationActor,
  ApplicationRole,
  ApplicationStatus,
  CLOSED_REASONS,
  ClosedReason,
} from '../application-transitions';

const MAX_ID = Number.MAX_SAFE_INTEGER;
const trim = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);

const IsPhone = () =>
  ValidateBy({
    name: 'isPhone',
    validator: {
      validate: (value) => typeof value === 'string' && isPhone(value),
      defaultMessage: () => '$property must be 7 to 20 digits, spaces and + - ( ), with at least 7 digits',
    },
  });

@ApiSchema({ name: 'ApplicationContact' })
export class ContactDto {
  @ApiProperty({ minLength: 1, maxLength: 100, description: 'Trimmed.', example: 'Alex Doe' })
  @LabelText(1, 100)
  name: string;

  @ApiProperty({
    format: 'email',
    maxLength: 254,
    description:
      'Trimmed, and compared in the canonical form of sign-up emails: one person, one open application per pet.',
    example: 'alex@example.com',
  })
  @Transform(trim)
  @IsString()
  @CharacterCount(1, 254)
  @IsEmail()
  email: string;

  @ApiPropertyOptional({
    minLength: 7,
    maxLength: 20,
    pattern: '^[0-9 +()-]{7,20}$',
    description: 'Digits, spaces and `+ - ( )`, with at least 7 digits.',
    example: '+44 20 7946 0000',
  })
  @IsOptional()
  @IsPhone()
  phone?: string;
}

@ApiSchema({ name: 'NewApplication' })
export class SubmitApplicationDto {
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description:
      'Each answer keyed by its field’s `name`, checked against the lister’s form as it is now; `{}` for a form ' +
      'without required fields.',
    example: { housing: 'A house' },
  })
  @IsObject()
  answers: Record<string, unknown>;

  @ApiProperty({ type: ContactDto, description: 'Whom the shelter contacts: shown to it from `under_review` on.' })
  @IsObject()
  @ValidateNested()
  @Type(() => ContactDto)
  contact: ContactDto;

  @ApiPropertyOptional({ description: 'Whether the service may email the applicant about it; `false` when absent.' })
  @IsOptional()
  @IsBoolean()
  emailConsent?: boolean;

  @ApiPropertyOptional({
    minLength: 1,
    maxLength: 5000,
    description: 'The conversation’s first message, trimmed.',
    example: 'We would love to meet her.',
  })
  @IsOptional()
  @LabelText(1, 5000)
  message?: string;
}

/** The optional body of `declineApplication` and `withdrawApplication`. */
@ApiSchema({ name: 'ApplicationReason' })
export class ApplicationReasonDto {
  @ApiPropertyOptional({ minLength: 1, maxLength: 500, description: 'Why, trimmed: the note of the history entry.' })
  @IsOptional()
  @LabelText(1, 500)
  reason?: string;
}

@ApiSchema({ name: 'ApplicationAnswer' })
export class AnswerDto {
  @ApiProperty({ example: 'has_garden' })
  name: string;

  @ApiProperty({ description: 'The question as it was asked.', example: 'Do you have a garden?' })
  label: string;

  @ApiProperty({ enum: FIELD_TYPES, enumName: 'ApplicationFieldType', example: 'yesno' })
  type: FieldType;

  @ApiProperty({
    oneOf: [{ type: 'string' }, { type: 'number' }, { type: 'boolean' }, { type: 'array', items: { type: 'string' } }],
    example: true,
  })
  value: AnswerValue;
}

@ApiSchema({ name: 'ApplicationHistoryEntry' })
export class HistoryEntryDto {
  @ApiProperty({ enum: APPLICATION_STATUSES, enumName: 'ApplicationStatus', example: 'submitted' })
  status: ApplicationStatus;

  @ApiProperty({ format: 'date-time', example: '2026-06-01T12:00:00.000Z' })
  at: string;

  @ApiProperty({
    enum: ['applicant', 'lister', 'service'],
    description: 'Who made the change: `service` when it followed the order or the pet.',
    example: 'applicant',
  })
  by: ApplicationActor;

  @ApiPropertyOptional({ description: 'A decline’s or withdrawal’s reason.' })
  note?: string;
}

@ApiSchema({ name: 'Application' })
export class ApplicationDto {
  @ApiProperty({ example: 'app_3kTzq0m1Yd9c2XwB7nQe5RfA' })
  id: string;

  @ApiProperty({ type: 'integer', format: 'int64', example: 1 })
  petId: number;

  @ApiProperty({
    enum: APPLICATION_STATUSES,
    enumName: 'ApplicationStatus',
    description: '`submitted`, `under_review` and `approved` are open; the others are final.',
    example: 'submitted',
  })
  status: ApplicationStatus;

  @ApiProperty({
    enum: APPLICATION_ROLES,
    enumName: 'ApplicationRole',
    description: 'The caller’s part: `applicant` made it, `lister` listed the pet.',
    example: 'applicant',
  })
  role: ApplicationRole;

  @ApiProperty({ type: 'integer', minimum: 0, description: 'The version of the form it answered.', example: 1 })
  formVersion: number;

  @ApiProperty({ type: [AnswerDto], description: 'In the order of that form, with its labels as they were then.' })
  answers: AnswerDto[];

  @ApiPropertyOptional({
    type: ContactDto,
    description: 'Always the applicant’s; the lister’s only from `under_review` on.',
  })
  contact?: ContactDto;

  @ApiProperty({ example: false })
  emailConsent: boolean;

  @ApiPropertyOptional({
    type: 'integer',
    format: 'int64',
    description: 'The order its approval placed.',
    example: 7,
  })
  orderId?: number;

  @ApiPropertyOptional({ enum: CLOSED_REASONS, enumName: 'ApplicationClosedReason', description: 'When `closed`.' })
  closedReason?: ClosedReason;

  @ApiProperty({ type: [HistoryEntryDto], description: 'Every change of state, oldest first.' })
  history: HistoryEntryDto[];

  @ApiProperty({ format: 'date-time', example: '2026-06-01T12:00:00.000Z' })
  createdAt: string;

  @ApiProperty({ format: 'date-time', example: '2026-06-01T12:00:00.000Z' })
  updatedAt: string;
}

export class ListApplicationsQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ enum: APPLICATION_ROLES, enumName: 'ApplicationRole', description: 'Keeps one side.' })
  @IsOptional()
  @IsIn(APPLICATION_ROLES)
  role?: ApplicationRole;

  @ApiPropertyOptional({ enum: APPLICATION_STATUSES, enumName: 'ApplicationStatus', description: 'Keeps one state.' })
  @IsOptional()
  @IsIn(APPLICATION_STATUSES)
  status?: ApplicationStatus;

  @ApiPropertyOptional({ type: 'integer', format: 'int64', minimum: 1, description: 'Keeps one pet’s.' })
  @IsOptional()
  @Transform(toQueryInt)
  @IsInt()
  @Min(1)
  @Max(MAX_ID)
  petId?: number;
}
