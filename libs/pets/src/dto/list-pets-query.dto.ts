import { characterCount } from '@app/core';
import { PageQueryDto, toQueryInt } from '@app/http';
import { ApiHideProperty, ApiPropertyOptional, ApiQueryOptions } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsIn, IsInt, IsNumber, IsOptional, IsString, Max, Min, ValidateBy } from 'class-validator';
import {
  PET_AGE_GROUPS,
  PET_SEXES,
  PET_SIZES,
  PET_STATUSES,
  PetAgeGroup,
  PetSex,
  PetSize,
  PetStatus,
} from '../pet-status';
import { MAX_TAG_LENGTH } from './pet-fields';

export const PET_SORTS = ['id', '-createdAt', 'updatedAt', 'distance'] as const;
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

const trimmed = Transform(({ value }) => (typeof value === 'string' ? value.trim() : value));

/** A query string value between `min` and `max` characters (a repeated parameter is an array, refused). */
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
const NeedsNear = (what: (value: unknown) => boolean) =>
  ValidateBy({
    name: 'needsNear',
    validator: {
      validate: (value, args) => !what(value) || (args?.object as { near?: unknown }).near !== undefined,
      defaultMessage: (args) => `${args?.property}=${String(args?.value)} needs near`,
    },
  });

/** `status` as the document describes it: one PetStatus, or several separated by commas. */
export const STATUS_QUERY: ApiQueryOptions = {
  name: 'status',
  required: false,
  style: 'form',
  explode: false,
  schema: { type: 'array', items: { $ref: '#/components/schemas/PetStatus' } },
  description: 'Keeps only animals with one of these availabilities (comma-separated: `available,pending`).',
};

/** The query of `GET /v1/pets`: filters, all combinable, and a sort (CONTRACT 9). */
export class ListPetsQueryDto extends PageQueryDto {
  // Documented by the operation (LIST_PETS_STATUS_PARAM): a comma-separated list needs `explode: false`.
  @ApiHideProperty()
  @IsOptional()
  @Transform(({ value }) => (typeof value === 'string' ? value.split(',') : value))
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

  @ApiPropertyOptional({
    minLength: 1,
    maxLength: MAX_QUERY_LENGTH,
    description:
      'Keeps only animals whose name, breed or description contain every word of `q` (case- and accent-insensitive).',
  })
  @IsOptional()
  @trimmed
  @Text(1, MAX_QUERY_LENGTH)
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

  @ApiPropertyOptional({
    pattern: POINT.source,
    // No `example`: Swagger UI would send it, and find only the animals near it.
    description:
      'A point `latitude,longitude` (e.g. `52.52,13.405`): keeps only animals within `radiusKm` of it, each ' +
      'with `distanceKm`.',
  })
  @IsOptional()
  @IsString()
  @IsPoint()
  near?: string;

  @ApiPropertyOptional({
    type: 'number',
    minimum: 1,
    maximum: MAX_RADIUS_KM,
    // No `default`: Swagger UI would send it, and without `near` it is refused.
    description: `With \`near\`: the radius in kilometres (${DEFAULT_RADIUS_KM} when omitted).`,
  })
  @IsOptional()
  @NeedsNear(() => true)
  @Transform(({ value }) => (typeof value === 'string' && /^\d{1,3}(\.\d{1,6})?$/.test(value) ? Number(value) : value))
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(1)
  @Max(MAX_RADIUS_KM)
  radiusKm?: number;

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
