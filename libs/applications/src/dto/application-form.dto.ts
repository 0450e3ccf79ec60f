import { CharacterCount, LabelText } from '@app/core';
import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsEmail,
  IsIn,
  IsOptional,
  IsString,
  Matches,
  ValidateNested,
} from 'class-validator';
import { FIELD_NAME, FIELD_TYPES, FieldType, FormField } from '../application-form';

@ApiSchema({ name: 'ApplicationFormField' })
export class FormFieldDto {
  @ApiProperty({
    pattern: FIELD_NAME.source,
    description: 'The key of its answer in `answers`, unique in the form.',
    example: 'housing',
  })
  @IsString()
  @Matches(FIELD_NAME, { message: '$property must match ^[a-z][a-z0-9_]{0,39}$' })
  name: string;

  @ApiProperty({
    minLength: 1,
    maxLength: 200,
    description: 'The question, trimmed.',
    example: 'Where do you live?',
  })
  @LabelText(1, 200)
  label: string;

  @ApiProperty({
    enum: FIELD_TYPES,
    enumName: 'ApplicationFieldType',
    description:
      'What an answer must be: `text` (1–500 characters), `textarea` (1–5000), `yesno` (a boolean), `choice` (one ' +
      'of `options`), `multichoice` (one or more distinct members of `options`), `number` (a finite number), ' +
      '`date` (`YYYY-MM-DD`, a real date), `email` (an address), `phone` (7–20 digits, spaces and `+ - ( )`, ' +
      'with at least 7 digits).',
    example: 'choice',
  })
  @IsIn(FIELD_TYPES)
  type: FieldType;

  @ApiPropertyOptional({ description: 'Whether an application must answer it; `false` when absent.', example: false })
  @IsOptional()
  @IsBoolean()
  required?: boolean;

  @ApiPropertyOptional({
    type: [String],
    minItems: 1,
    maxItems: 20,
    uniqueItems: true,
    description: 'The choices, 1 to 100 characters each: required for `choice` and `multichoice`, refused otherwise.',
    example: ['A flat', 'A house'],
  })
  @IsOptional()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(20)
  @IsString({ each: true })
  @CharacterCount(1, 100, { each: true })
  options?: string[];

  @ApiPropertyOptional({
    minLength: 1,
    maxLength: 500,
    description: 'A hint shown with the question, trimmed.',
    example: 'Where the animal would live.',
  })
  @IsOptional()
  @LabelText(1, 500)
  help?: string;
}

@ApiSchema({ name: 'PutApplicationForm' })
export class PutApplicationFormDto {
  @ApiProperty({ type: [FormFieldDto], maxItems: 30, description: 'The questions, in the order they are asked.' })
  @IsArray()
  @ArrayMaxSize(30)
  @ValidateNested({ each: true })
  @Type(() => FormFieldDto)
  fields: FormFieldDto[];

  @ApiPropertyOptional({
    format: 'email',
    maxLength: 254,
    description: 'Where the shelter’s staff are told of new applications and applicants’ messages.',
    example: 'adoptions@shelter.example',
  })
  @IsOptional()
  @Transform(({ value }) => (typeof value === 'string' ? value.trim() : value))
  @IsString()
  @CharacterCount(1, 254)
  @IsEmail()
  notifyEmail?: string;
}

@ApiSchema({ name: 'PetApplicationForm' })
export class PetApplicationFormDto {
  @ApiProperty({
    type: 'integer',
    minimum: 0,
    description: '1 on the first `PUT`, one more on each that changes `fields`; 0 for a lister that never set one.',
    example: 1,
  })
  version: number;

  @ApiProperty({ type: [FormFieldDto] })
  fields: FormField[];
}

@ApiSchema({ name: 'ApplicationForm' })
export class ApplicationFormDto extends PetApplicationFormDto {
  @ApiPropertyOptional({ format: 'email', example: 'adoptions@shelter.example' })
  notifyEmail?: string;

  @ApiPropertyOptional({
    format: 'date-time',
    description: 'When it was last put; absent for a lister that never set one.',
    example: '2026-06-01T12:00:00.000Z',
  })
  updatedAt?: string;
}
