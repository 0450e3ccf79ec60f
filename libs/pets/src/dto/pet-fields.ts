import { CharacterCount } from '@app/core';
import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  ArrayUnique,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsNumber,
  IsObject,
  IsString,
  IsUrl,
  Max,
  MaxLength,
  Matches,
  Min,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import { PET_AGE_GROUPS, PET_COATS, PET_SEXES, PET_SIZES, PET_STATUSES } from '../pet-status';

/**
 * The validation and documentation of each writable field of a pet, shared by the create and change
 * bodies: each body says only whether the field may be omitted or cleared.
 */

const MAX_ID = Number.MAX_SAFE_INTEGER;
const MAX_TAGS = 10;
export const MAX_TAG_LENGTH = 30;
const MAX_PHOTOS = 10;
const MAX_PHOTO_URL_LENGTH = 2048;
const MAX_COLORS = 3;
export const MAX_COLOR_LENGTH = 40;
/** A shelter's own animal id: characters safe in a URL path segment as they are. */
export const EXTERNAL_ID = /^[A-Za-z0-9._:-]{1,64}$/;

/** What an `https` URL field takes: absolute, `https` only. */
const HTTPS_URL = { protocols: ['https'], require_protocol: true, require_tld: false };

/** Text fields are trimmed, as `name` is. */
const trimmed = Transform(({ value }) => (typeof value === 'string' ? value.trim() : value));

/** Tags are stored trimmed and lower-cased, so that `Calm` and ` calm` are one tag. */
const normalisedTags = Transform(({ value }) =>
  Array.isArray(value) ? value.map((tag) => (typeof tag === 'string' ? tag.trim().toLowerCase() : tag)) : value,
);

/** May be omitted, but not null: a null is validated, and refused (the field has no empty state). */
export const Kept = () =>
  applyDecorators(
    ApiPropertyOptional(),
    ValidateIf((_, value) => value !== undefined),
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
export const TextField = (max: number, description: string, example: string) =>
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
    IsUrl(HTTPS_URL, { each: true }),
  );

/** An optional absolute `https` URL of at most 2048 characters: a web page of the animal's lister. */
export const HttpsUrlField = (description: string, example: string) =>
  applyDecorators(
    ApiPropertyOptional({
      type: 'string',
      format: 'uri',
      pattern: '^https://',
      maxLength: MAX_PHOTO_URL_LENGTH,
      description,
      example,
    }),
    IsString(),
    MaxLength(MAX_PHOTO_URL_LENGTH),
    IsUrl(HTTPS_URL),
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

/** Validated whole: in a change, once merged into the pet's location (mergePatchChange). */
const WholeLocation = () =>
  applyDecorators(
    IsObject(),
    ValidateNested(),
    Type(() => PetLocationDto),
  );

export const LocationField = () =>
  applyDecorators(
    ApiPropertyOptional({ type: PetLocationDto, description: 'Where the animal can be met.' }),
    WholeLocation(),
  );

export const LocationChangeField = () =>
  applyDecorators(
    ApiPropertyOptional({
      // Written out, not a schema of its own: the document would keep it unused once inlined (nullable).
      type: 'object',
      properties: {
        latitude: { type: 'number', format: 'double', minimum: -90, maximum: 90, example: 52.52 },
        longitude: { type: 'number', format: 'double', minimum: -180, maximum: 180, example: 13.405 },
      },
      description:
        'Merged member by member into the animal’s location (RFC 7396): `{"latitude": 11}` keeps its longitude. ' +
        'The location that results must have both.',
    }),
    WholeLocation(),
  );

export const SpecialNeedsNotesField = () =>
  TextField(500, 'What the animal’s special needs are.', 'Needs daily medication for a thyroid condition.');

export const SecondaryBreedField = () => TextField(100, 'The second breed of a mix.', 'Labrador Retriever');

export const CoatField = () =>
  applyDecorators(ApiPropertyOptional({ enum: PET_COATS, enumName: 'PetCoat', example: 'short' }), IsIn(PET_COATS));

export const MixedBreedField = () =>
  applyDecorators(ApiPropertyOptional({ type: 'boolean', description: 'Whether the animal is a mix.' }), IsBoolean());

/** Colours are kept as written, and told apart ignoring case: `Black` and `black` are one colour. */
export const ColorsField = () =>
  applyDecorators(
    ApiPropertyOptional({
      type: 'array',
      items: { type: 'string', minLength: 1, maxLength: MAX_COLOR_LENGTH },
      minItems: 1,
      maxItems: MAX_COLORS,
      uniqueItems: true,
      description: 'Up to three distinct colours, the primary first; stored trimmed, compared ignoring case.',
      example: ['Black', 'White'],
    }),
    Transform(({ value }) =>
      Array.isArray(value) ? value.map((color) => (typeof color === 'string' ? color.trim() : color)) : value,
    ),
    IsArray(),
    ArrayMinSize(1),
    ArrayMaxSize(MAX_COLORS),
    IsString({ each: true }),
    CharacterCount(1, MAX_COLOR_LENGTH, { each: true }),
    ArrayUnique((color: unknown) => (typeof color === 'string' ? color.toLowerCase() : color), {
      message: 'colors must be distinct, ignoring case',
    }),
  );

export const ExternalIdField = () =>
  applyDecorators(
    ApiPropertyOptional({
      type: 'string',
      pattern: EXTERNAL_ID.source,
      description: 'The shelter’s own identifier of the animal, unique among its lister’s animals.',
      example: 'A-2024-0117',
    }),
    IsString(),
    Matches(EXTERNAL_ID, { message: 'externalId must be 1 to 64 characters of A–Z a–z 0–9 . _ : -' }),
  );

/** A boolean member of `attributes` or `environment`: in a change, `null` clears it. */
const Flag = (description: string) =>
  applyDecorators(
    ApiPropertyOptional({ type: 'boolean', nullable: true, description }),
    ValidateIf((_, value) => value !== undefined && value !== null),
    IsBoolean(),
  );

@ApiSchema({ name: 'PetAttributes', description: 'What is known of the animal’s care; a member absent is unknown.' })
export class PetAttributesDto {
  @Flag('Spayed or neutered.')
  spayedNeutered?: boolean | null;

  @Flag('House-trained (or litter-trained).')
  houseTrained?: boolean | null;

  @Flag('Declawed.')
  declawed?: boolean | null;

  @Flag('Has special needs (see `specialNeedsNotes`).')
  specialNeeds?: boolean | null;

  @Flag('Vaccinations are up to date.')
  shotsCurrent?: boolean | null;
}

@ApiSchema({ name: 'PetEnvironment', description: 'Whom the animal is good with; a member absent is unknown.' })
export class PetEnvironmentDto {
  @Flag('Good with children.')
  children?: boolean | null;

  @Flag('Good with dogs.')
  dogs?: boolean | null;

  @Flag('Good with cats.')
  cats?: boolean | null;
}

/** A nested object of flags, validated member by member; in a change its members merge (RFC 7396). */
const FlagsField = (type: typeof PetAttributesDto | typeof PetEnvironmentDto, description: string, example: object) =>
  applyDecorators(
    ApiPropertyOptional({ type, description, example }),
    IsObject(),
    ValidateNested(),
    Type(() => type),
  );

export const AttributesField = () =>
  FlagsField(PetAttributesDto, 'The animal’s care.', { spayedNeutered: true, houseTrained: true, shotsCurrent: true });

export const EnvironmentField = () =>
  FlagsField(PetEnvironmentDto, 'Whom the animal is good with.', { children: true, dogs: true, cats: false });
