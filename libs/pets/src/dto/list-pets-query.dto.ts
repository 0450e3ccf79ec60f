import { characterCount } from '@app/core';
import { PageQueryDto, toQueryInt } from '@app/http';
import { applyDecorators } from '@nestjs/common';
import { ApiHideProperty, ApiPropertyOptional, ApiQueryOptions } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsBoolean, IsIn, IsInt, IsNumber, IsOptional, IsString, Matches, Max, Min, ValidateBy } from 'class-validator';
import {
  PET_AGE_GROUPS,
  PET_COATS,
  PET_COMPANIONS,
  PET_SEXES,
  PET_SIZES,
  PET_STATUSES,
  PetAgeGroup,
  PetCoat,
  PetCompanion,
  PetSex,
  PetSize,
  PetStatus,
} from '../pet-status';
import { EXTERNAL_ID, MAX_COLOR_LENGTH, MAX_TAG_LENGTH } from './pet-fields';

const PET_SORTS = ['id', '-createdAt', 'updatedAt', 'distance'] as const;
export type PetSort = (typeof PET_SORTS)[number];

const MAX_QUERY_LENGTH = 200;
export const DEFAULT_RADIUS_KM = 50;
const MAX_RADIUS_KM = 500;

/** `lat,lon`, each a plain decimal number. */
const POINT = /^(-?\d{1,3}(?:\.\d{1,15})?),(-?\d{1,3}(?:\.\d{1,15})?)$/;
/** An ISO 8601 date-time with its offset; the fraction may carry microseconds, as updatedAt's precision. */
const DATE_TIME = /^(\d{4})-(\d\d)-(\d\d)T(\d\d):(\d\d)(?::(\d\d)(?:\.\d{1,6})?)?(?:Z|[+-](\d\d):(\d\d))$/;

/** Whether each field of the date-time is within its range, as PostgreSQL checks them (JavaScript rolls over). */
function isDateTime(value: unknown): boolean {
  const match = typeof value === 'string' ? DATE_TIME.exec(value) : null;
  if (!match) return false;
  const [year, month, day, hour, minute, second, offsetHours, offsetMinutes] = match
    .slice(1)
    .map((field) => Number(field ?? 0));
  const daysInMonth = new Date(Date.UTC(year!, month!, 0)).getUTCDate();
  return (
    year! >= 1 &&
    month! >= 1 &&
    month! <= 12 &&
    day! >= 1 &&
    day! <= daysInMonth &&
    hour! <= 23 &&
    minute! <= 59 &&
    second! <= 59 &&
    offsetHours! <= 15 &&
    offsetMinutes! <= 59
  );
}

const trimmedQuery = Transform(({ value }) => (typeof value === 'string' ? value.trim() : value));

/** A query string value between `min` and `max` characters. */
const Text = (min: number, max: number) =>
  ValidateBy({
    name: 'queryText',
    validator: {
      validate: (value) => typeof value === 'string' && characterCount(value) >= min && characterCount(value) <= max,
      defaultMessage: () => `$property must be ${min} to ${max} characters`,
    },
  });

/** A point `lat,lon`, read from `near`. */
export interface Point {
  latitude: number;
  longitude: number;
}

export function parsePoint(near: string): Point {
  const [, latitude, longitude] = POINT.exec(near)!;
  return { latitude: Number(latitude), longitude: Number(longitude) };
}

const IsPoint = () =>
  ValidateBy({
    name: 'isPoint',
    validator: {
      validate: (value) => {
        if (typeof value !== 'string' || !POINT.test(value)) return false;
        const { latitude, longitude } = parsePoint(value);
        return Math.abs(latitude) <= 90 && Math.abs(longitude) <= 180;
      },
      defaultMessage: () => '$property must be latitude,longitude within −90..90 and −180..180',
    },
  });

const IsDateTime = () =>
  ValidateBy({
    name: 'isDateTime',
    validator: {
      validate: isDateTime,
      defaultMessage: () => '$property must be an ISO 8601 date-time such as 2026-06-01T12:00:00Z',
    },
  });

/** Needs `near`: a distance means nothing without a point. */
export const NeedsNear = (what: (value: unknown) => boolean) =>
  ValidateBy({
    name: 'needsNear',
    validator: {
      validate: (value, args) => !what(value) || (args?.object as { near?: unknown }).near !== undefined,
      defaultMessage: (args) => `${args?.property}=${String(args?.value)} needs near`,
    },
  });

/** An organisation's id as the organisations library gives them out: `org_` and letters and digits. */
const ORGANIZATION_ID = /^org_[A-Za-z0-9]{1,64}$/;

/** Needs `listedBy=me`: an external id is unique only among one lister's pets. */
const NeedsListedByMe = () =>
  ValidateBy({
    name: 'needsListedByMe',
    validator: {
      validate: (_, args) => (args?.object as { listedBy?: unknown }).listedBy === 'me',
      defaultMessage: (args) => `${args?.property} needs listedBy=me`,
    },
  });

/** A comma-separated list, as `status` and `goodWith` take one. */
const commaSeparated = Transform(({ value }) => (typeof value === 'string' ? value.split(',') : value));

/** `true` or `false`: a pet of whom nothing is known matches neither. */
const BooleanQuery = (description: string) =>
  applyDecorators(
    ApiPropertyOptional({
      type: 'boolean',
      description: `${description} (\`true\` or \`false\`; unknown matches neither).`,
    }),
    IsOptional(),
    Transform(({ value }) => (value === 'true' ? true : value === 'false' ? false : value)),
    IsBoolean({ message: '$property must be true or false' }),
  );

/** `q`: every word of it in `what`. */
export const WordsQuery = (what: string) =>
  applyDecorators(
    ApiPropertyOptional({
      minLength: 1,
      maxLength: MAX_QUERY_LENGTH,
      description: `Keeps only ${what} contain every word of \`q\` (case- and accent-insensitive).`,
    }),
    IsOptional(),
    trimmedQuery,
    Text(1, MAX_QUERY_LENGTH),
  );

/** `near`: a point, around which `radiusKm` keeps `what`. */
export const NearQuery = (what: string) =>
  applyDecorators(
    ApiPropertyOptional({
      pattern: POINT.source,
      // No `example`: Swagger UI would send it, and find only what is near it.
      description:
        `A point \`latitude,longitude\` (e.g. \`52.52,13.405\`): keeps only ${what} within \`radiusKm\` of it, ` +
        'each with `distanceKm`.',
    }),
    IsOptional(),
    IsString(),
    IsPoint(),
  );

/** `radiusKm`, which needs `near`. */
export const RadiusKmQuery = () =>
  applyDecorators(
    ApiPropertyOptional({
      type: 'number',
      minimum: 1,
      maximum: MAX_RADIUS_KM,
      // No `default`: Swagger UI would send it, and without `near` it is refused.
      description: `With \`near\`: the radius in kilometres (${DEFAULT_RADIUS_KM} when omitted).`,
    }),
    IsOptional(),
    NeedsNear(() => true),
    Transform(({ value }) =>
      typeof value === 'string' && /^\d{1,3}(\.\d{1,6})?$/.test(value) ? Number(value) : value,
    ),
    IsNumber({ allowNaN: false, allowInfinity: false }),
    Min(1),
    Max(MAX_RADIUS_KM),
  );

/** `status` as the document describes it: one PetStatus, or several separated by commas. */
export const STATUS_QUERY: ApiQueryOptions = {
  name: 'status',
  required: false,
  style: 'form',
  explode: false,
  schema: { type: 'array', items: { $ref: '#/components/schemas/PetStatus' } },
  description: 'Keeps only animals with one of these availabilities (comma-separated: `available,pending`).',
};

/** `goodWith` as the document describes it: several companions separated by commas. */
export const GOOD_WITH_QUERY: ApiQueryOptions = {
  name: 'goodWith',
  required: false,
  style: 'form',
  explode: false,
  schema: { type: 'array', items: { type: 'string', enum: [...PET_COMPANIONS] } },
  // No `example`: Swagger UI would send it, and find only the animals good with those.
  description: 'Keeps only animals good with each of these (comma-separated: `children,cats`).',
};

/** The query of `GET /v1/pets`: filters, all combinable, and a sort. */
export class ListPetsQueryDto extends PageQueryDto {
  // Documented by the operation (LIST_PETS_STATUS_PARAM): a comma-separated list needs `explode: false`.
  @ApiHideProperty()
  @IsOptional()
  @commaSeparated
  @IsIn(PET_STATUSES, { each: true })
  status?: PetStatus[];

  @ApiPropertyOptional({ type: 'integer', format: 'int64', minimum: 1, description: 'Keeps only this category.' })
  @IsOptional()
  @Transform(toQueryInt)
  @IsInt()
  @Min(1)
  @Max(Number.MAX_SAFE_INTEGER)
  categoryId?: number;

  @ApiPropertyOptional({ enum: PET_SEXES, enumName: 'PetSex', description: 'Keeps only animals of this sex.' })
  @IsOptional()
  @IsIn(PET_SEXES)
  sex?: PetSex;

  @ApiPropertyOptional({
    enum: PET_AGE_GROUPS,
    enumName: 'PetAgeGroup',
    description: 'Keeps only animals of this age group.',
  })
  @IsOptional()
  @IsIn(PET_AGE_GROUPS)
  ageGroup?: PetAgeGroup;

  @ApiPropertyOptional({ enum: PET_SIZES, enumName: 'PetSize', description: 'Keeps only animals of this size.' })
  @IsOptional()
  @IsIn(PET_SIZES)
  size?: PetSize;

  @ApiPropertyOptional({
    minLength: 1,
    maxLength: MAX_TAG_LENGTH,
    description: 'Keeps only animals carrying this tag (compared lower-cased).',
  })
  @IsOptional()
  @Transform(({ value }) => (typeof value === 'string' ? value.trim().toLowerCase() : value))
  @Text(1, MAX_TAG_LENGTH)
  tag?: string;

  @WordsQuery('animals whose name, breed or description')
  q?: string;

  @ApiPropertyOptional({ enum: ['me'], description: 'Keeps only the animals the caller’s account listed.' })
  @IsOptional()
  @IsIn(['me'])
  listedBy?: 'me';

  @ApiPropertyOptional({
    type: 'string',
    format: 'date-time',
    description: 'Keeps only animals whose `updatedAt` is at or after this instant.',
  })
  @IsOptional()
  @IsDateTime()
  updatedSince?: string;

  @NearQuery('animals')
  near?: string;

  @RadiusKmQuery()
  radiusKm?: number;

  // Documented by the operation (GOOD_WITH_QUERY), as `status`.
  @ApiHideProperty()
  @IsOptional()
  @commaSeparated
  @IsIn(PET_COMPANIONS, { each: true })
  goodWith?: PetCompanion[];

  @BooleanQuery('Keeps only animals whose `attributes.houseTrained` is this')
  houseTrained?: boolean;

  @BooleanQuery('Keeps only animals whose `attributes.spayedNeutered` is this')
  spayedNeutered?: boolean;

  @BooleanQuery('Keeps only animals whose `attributes.specialNeeds` is this')
  specialNeeds?: boolean;

  @ApiPropertyOptional({ enum: PET_COATS, enumName: 'PetCoat', description: 'Keeps only animals with this coat.' })
  @IsOptional()
  @IsIn(PET_COATS)
  coat?: PetCoat;

  @ApiPropertyOptional({
    minLength: 1,
    maxLength: MAX_COLOR_LENGTH,
    // No `example`: Swagger UI would send it, and find only the animals of that colour.
    description:
      'Keeps only animals with this colour among their `colors` (e.g. `black`; ignoring case; not a part of one).',
  })
  @IsOptional()
  @trimmedQuery
  @Text(1, MAX_COLOR_LENGTH)
  color?: string;

  @ApiPropertyOptional({
    pattern: ORGANIZATION_ID.source,
    // No `example`: Swagger UI would send it, and an id naming no organisation is refused.
    description:
      'Keeps only the animals of this organisation (e.g. `org_4k9w2x7q1m3z8c5v`; an id naming none is refused).',
  })
  @IsOptional()
  @IsString()
  @Matches(ORGANIZATION_ID, { message: 'organizationId must be an organisation id such as org_4k9w2x7q1m3z8c5v' })
  organizationId?: string;

  @ApiPropertyOptional({
    pattern: EXTERNAL_ID.source,
    // No `example`: Swagger UI would send it, and without `listedBy=me` it is refused.
    description: 'With `listedBy=me`: keeps only the caller’s animal with this `externalId` (e.g. `A-2024-0117`).',
  })
  @IsOptional()
  @IsString()
  @Matches(EXTERNAL_ID, { message: 'externalId must be 1 to 64 characters of A–Z a–z 0–9 . _ : -' })
  @NeedsListedByMe()
  externalId?: string;

  @ApiPropertyOptional({
    enum: PET_SORTS,
    default: 'id',
    description:
      '`id` (ascending), `-createdAt` (newest first), `updatedAt` (least recently changed first), `distance` ' +
      '(nearest first; needs `near`).',
  })
  @IsOptional()
  @IsIn(PET_SORTS)
  @NeedsNear((value) => value === 'distance')
  sort: PetSort = 'id';
}
