import { CharacterCount } from '@app/core';
import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayUnique,
  IsArray,
  IsIn,
  IsInt,
  IsNumber,
  IsObject,
  IsString,
  IsUrl,
  Max,
  MaxLength,
  Min,
  ValidateNested,
} from 'class-validator';
import { PET_AGE_GROUPS, PET_SEXES, PET_SIZES, PET_STATUSES } from '../pet-status';

/**
 * The validation and documentation of each writable field of a pet, shared by the create and change
 * bodies: each body says only whether the field may be omitted or cleared.
 */

const MAX_ID = Number.MAX_SAFE_INTEGER;
export const MAX_TAGS = 10;
export const MAX_TAG_LENGTH = 30;
export const MAX_PHOTOS = 10;
export const MAX_PHOTO_URL_LENGTH = 2048;

/** Text fields are trimmed, as `name` is (CONTRACT 3). */
const trimmed = Transform(({ value }) => (typeof value === 'string' ? value.trim() : value));

/** Tags are stored trimmed and lower-cased, so that `Calm` and ` calm` are one tag. */
const normalisedTags = Transform(({ value }) =>
  Array.isArray(value) ? value.map((tag) => (typeof tag === 'string' ? tag.trim().toLowerCase() : tag)) : value,
);

export const NameField = () =>
  applyDecorators(
    ApiProperty({ description: 'The animal’s name.', minLength: 1, maxLength: 100, example: 'Rex' }),
    trimmed,
    IsString(),
    CharacterCount(1, 100),
  );

export const CategoryIdField = () =>
  applyDecorators(
    ApiProperty({
      type: 'integer',
      format: 'int64',
      minimum: 1,
      maximum: MAX_ID,
      description: 'Identifier of the category the animal belongs to (see GET /categories).',
      example: 1,
    }),
    IsInt(),
    Min(1),
    Max(MAX_ID),
  );

export const StatusField = () =>
  applyDecorators(
    ApiPropertyOptional({ enum: PET_STATUSES, enumName: 'PetStatus', description: 'Availability of the animal.' }),
    IsIn(PET_STATUSES),
  );

/** An optional text field of `min` to `max` characters. */
const TextField = (max: number, description: string, example: string) =>
  applyDecorators(
    ApiPropertyOptional({ type: 'string', description, minLength: 1, maxLength: max, example }),
    trimmed,
    IsString(),
    CharacterCount(1, max),
  );

export const DescriptionField = () =>
  TextField(2000, 'What adopters should know about the animal.', 'Calm, house-trained, good with children.');

export const BreedField = () => TextField(100, 'The breed, or the likely mix.', 'Beagle');

export const SexField = () =>
  applyDecorators(ApiPropertyOptional({ enum: PET_SEXES, enumName: 'PetSex', example: 'male' }), IsIn(PET_SEXES));

export const AgeGroupField = () =>
  applyDecorators(
    ApiPropertyOptional({ enum: PET_AGE_GROUPS, enumName: 'PetAgeGroup', example: 'adult' }),
    IsIn(PET_AGE_GROUPS),
  );

export const SizeField = () =>
  applyDecorators(ApiPropertyOptional({ enum: PET_SIZES, enumName: 'PetSize', example: 'medium' }), IsIn(PET_SIZES));

export const TagsField = () =>
  applyDecorators(
    ApiPropertyOptional({
      type: 'array',
      items: { type: 'string', minLength: 1, maxLength: MAX_TAG_LENGTH },
      maxItems: MAX_TAGS,
      uniqueItems: true,
      description: 'Distinct words adopters can filter by; stored trimmed and lower-cased.',
      example: ['house-trained', 'good-with-kids'],
    }),
    normalisedTags,
    IsArray(),
    ArrayMaxSize(MAX_TAGS),
    IsString({ each: true }),
    CharacterCount(1, MAX_TAG_LENGTH, { each: true }),
    ArrayUnique(),
  );

export const PhotoUrlsField = () =>
  applyDecorators(
    ApiPropertyOptional({
      type: 'array',
      items: { type: 'string', format: 'uri', pattern: '^https://', maxLength: MAX_PHOTO_URL_LENGTH },
      maxItems: MAX_PHOTOS,
      description: 'Absolute `https` URLs of photos of the animal.',
      example: ['https://photos.example.com/rex.jpg'],
    }),
    IsArray(),
    ArrayMaxSize(MAX_PHOTOS),
    IsString({ each: true }),
    MaxLength(MAX_PHOTO_URL_LENGTH, { each: true }),
    IsUrl({ protocols: ['https'], require_protocol: true, require_tld: false }, { each: true }),
  );

/**
 * Below this magnitude a coordinate is stored as 0: it is far below any real position, and earthdistance's
 * arithmetic underflows on the smallest doubles (an error, not a place).
 */
const NEGLIGIBLE_DEGREES = 1e-300;

const coordinate = (limit: number) =>
  applyDecorators(
    Transform(({ value }) => (typeof value === 'number' && Math.abs(value) < NEGLIGIBLE_DEGREES ? 0 : value)),
    IsNumber({ allowNaN: false, allowInfinity: false }),
    Min(-limit),
    Max(limit),
  );

@ApiSchema({ name: 'PetLocation' })
export class PetLocationDto {
  @ApiProperty({ type: 'number', format: 'double', minimum: -90, maximum: 90, example: 52.52 })
  @coordinate(90)
  latitude: number;

  @ApiProperty({ type: 'number', format: 'double', minimum: -180, maximum: 180, example: 13.405 })
  @coordinate(180)
  longitude: number;
}

export const LocationField = () =>
  applyDecorators(
    ApiPropertyOptional({ type: PetLocationDto, description: 'Where the animal can be met.' }),
    IsObject(),
    ValidateNested(),
    Type(() => PetLocationDto),
  );
