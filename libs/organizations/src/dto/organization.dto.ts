import { CharacterCount } from '@app/core';
import { HttpsUrlField, LocationField, PetLocationDto, TextField } from '@app/pets';
import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import {
  IsEmail,
  IsISO31661Alpha2,
  IsObject,
  IsOptional,
  IsString,
  Matches,
  MaxLength,
  ValidateIf,
  ValidateNested,
} from 'class-validator';

const trimmed = Transform(({ value }) => (typeof value === 'string' ? value.trim() : value));

/** A required text field of 1 to `max` characters, trimmed. */
const RequiredText = (max: number, description: string, example: string) =>
  applyDecorators(
    ApiProperty({ type: 'string', minLength: 1, maxLength: max, description, example }),
    trimmed,
    IsString(),
    CharacterCount(1, max),
  );

/** An address part of 1 to 100 characters. */
const Part = (description: string, example: string) => TextField(100, description, example);

@ApiSchema({ name: 'OrganizationAddress' })
export class OrganizationAddressDto {
  @RequiredText(100, 'Street and number.', 'Tierheimstraße 1')
  line1: string;

  @IsOptional()
  @Part('More of the street address.', 'Gate B')
  line2?: string;

  @RequiredText(100, 'City or town.', 'Berlin')
  city: string;

  @IsOptional()
  @Part('State, province or region.', 'Berlin')
  region?: string;

  @IsOptional()
  @Part('Postal code.', '13057')
  postcode?: string;

  @ApiProperty({ pattern: '^[A-Z]{2}$', description: 'ISO 3166-1 alpha-2 country code, upper case.', example: 'DE' })
  @IsString()
  @Matches(/^[A-Z]{2}$/, { message: 'country must be an ISO 3166-1 alpha-2 code in upper case, such as DE' })
  @IsISO31661Alpha2({ message: 'country must be an ISO 3166-1 alpha-2 code in upper case, such as DE' })
  country: string;
}

/** Opening hours of one day: free text. */
const Day = (example: string) => applyDecorators(IsOptional(), TextField(100, 'Free text.', example));

@ApiSchema({ name: 'OrganizationHours', description: 'Opening hours by day, as free text; a day absent is unknown.' })
export class OrganizationHoursDto {
  @Day('10:00–16:00')
  monday?: string;
  @Day('10:00–16:00')
  tuesday?: string;
  @Day('10:00–16:00')
  wednesday?: string;
  @Day('10:00–18:00')
  thursday?: string;
  @Day('10:00–16:00')
  friday?: string;
  @Day('11:00–15:00')
  saturday?: string;
  @Day('closed')
  sunday?: string;
}

const Profile = (network: string) =>
  applyDecorators(
    IsOptional(),
    HttpsUrlField(`The organisation’s ${network} page.`, `https://${network}.example/shelter`),
  );

@ApiSchema({ name: 'OrganizationSocialMedia' })
export class OrganizationSocialMediaDto {
  @Profile('facebook')
  facebook?: string;
  @Profile('instagram')
  instagram?: string;
  @Profile('tiktok')
  tiktok?: string;
  @Profile('youtube')
  youtube?: string;
  @Profile('x')
  x?: string;
}

/** The pets' location field, described as the organisation's. */
const OrganizationLocationField = () =>
  applyDecorators(
    LocationField(),
    ApiPropertyOptional({ description: 'Where the organisation is: `near` searches measure from this point.' }),
  );

/** A nested object, validated as its class. */
const Nested = (type: new () => object, description: string) =>
  applyDecorators(
    ApiPropertyOptional({ type, description }),
    IsObject(),
    ValidateNested(),
    Type(() => type),
  );

/**
 * The body of `PUT /v1/organization`: the whole profile (fields absent are cleared). The PATCH body takes
 * the same fields, each optional, `null` clearing it.
 */
@ApiSchema({ name: 'OrganizationProfile' })
export class OrganizationProfileDto {
  @RequiredText(100, 'The organisation’s name.', 'Tierheim Berlin')
  name: string;

  @IsOptional()
  @TextField(4000, 'Its mission: what adopters should know about it.', 'We rehome 1,500 animals a year.')
  description?: string;

  @IsOptional()
  @ApiPropertyOptional({ type: 'string', format: 'email', maxLength: 254, example: 'adopt@tierheim.example' })
  @IsString()
  @MaxLength(254)
  @IsEmail()
  email?: string;

  @IsOptional()
  @ApiPropertyOptional({ pattern: '^[0-9 +().-]{1,30}$', example: '+49 30 768880' })
  @IsString()
  @Matches(/^[0-9 +().-]{1,30}$/, { message: 'phone must be 1 to 30 digits, spaces and + ( ) - .' })
  phone?: string;

  @IsOptional()
  @HttpsUrlField('The organisation’s website.', 'https://tierheim.example')
  website?: string;

  @IsOptional()
  @TextField(4000, 'How adoptions work there: fees, visits, home checks.', 'A home visit precedes every adoption.')
  adoptionPolicy?: string;

  @IsOptional()
  @HttpsUrlField('Where adopters apply.', 'https://tierheim.example/adopt')
  adoptionUrl?: string;

  @IsOptional()
  @Nested(OrganizationAddressDto, 'Where the organisation is.')
  address?: OrganizationAddressDto;

  @IsOptional()
  @OrganizationLocationField()
  location?: PetLocationDto;

  @IsOptional()
  @Nested(OrganizationHoursDto, 'When adopters can visit.')
  hours?: OrganizationHoursDto;

  @IsOptional()
  @Nested(OrganizationSocialMediaDto, 'The organisation’s pages on social networks.')
  socialMedia?: OrganizationSocialMediaDto;
}

/** May be omitted, or null to clear it. */
const Clearable = () => applyDecorators(ApiPropertyOptional({ nullable: true }), IsOptional());

/**
 * The body of `PATCH /v1/organization` (JSON or an RFC 7396 merge patch), as it is once merged into the
 * profile: the fields to change, at least one; `null` clears an optional field. A nested object merges
 * member by member into the field's current value, and the result is validated whole.
 */
@ApiSchema({ name: 'OrganizationChange' })
export class UpdateOrganizationDto {
  @ApiPropertyOptional()
  @ValidateIf((_, value) => value !== undefined)
  @RequiredText(100, 'The organisation’s name.', 'Tierheim Berlin')
  name?: string;

  @Clearable()
  @TextField(4000, 'Its mission.', 'We rehome 1,500 animals a year.')
  description?: string | null;

  // Types said outright: `string | null` reflects as Object, which the document would call an object.
  @Clearable()
  @ApiPropertyOptional({ type: 'string', format: 'email', maxLength: 254, example: 'adopt@tierheim.example' })
  @IsString()
  @MaxLength(254)
  @IsEmail()
  email?: string | null;

  @Clearable()
  @ApiPropertyOptional({ type: 'string', pattern: '^[0-9 +().-]{1,30}$', example: '+49 30 123456' })
  @IsString()
  @Matches(/^[0-9 +().-]{1,30}$/, { message: 'phone must be 1 to 30 digits, spaces and + ( ) - .' })
  phone?: string | null;

  @Clearable()
  @HttpsUrlField('The organisation’s website.', 'https://tierheim.example')
  website?: string | null;

  @Clearable()
  @TextField(4000, 'How adoptions work there.', 'A home visit precedes every adoption.')
  adoptionPolicy?: string | null;

  @Clearable()
  @HttpsUrlField('Where adopters apply.', 'https://tierheim.example/adopt')
  adoptionUrl?: string | null;

  @Clearable()
  @Nested(OrganizationAddressDto, 'Where the organisation is.')
  address?: OrganizationAddressDto | null;

  @Clearable()
  @OrganizationLocationField()
  location?: PetLocationDto | null;

  @Clearable()
  @Nested(OrganizationHoursDto, 'When adopters can visit.')
  hours?: OrganizationHoursDto | null;

  @Clearable()
  @Nested(OrganizationSocialMediaDto, 'The organisation’s pages on social networks.')
  socialMedia?: OrganizationSocialMediaDto | null;
}

@ApiSchema({ name: 'AnimalCounts', description: 'How many of the organisation’s animals have each status.' })
export class AnimalCountsDto {
  @ApiProperty({ type: 'integer', example: 42 })
  available: number;
  @ApiProperty({ type: 'integer', example: 3 })
  pending: number;
  @ApiProperty({ type: 'integer', example: 118 })
  sold: number;
}

@ApiSchema({ name: 'Organization' })
export class OrganizationDto extends OrganizationProfileDto {
  @ApiProperty({ description: 'Opaque identifier of the organisation.', example: 'org_4k9w2x7q1m3z8c5v' })
  id: string;

  @ApiProperty({ type: AnimalCountsDto })
  animalCounts: AnimalCountsDto;

  @ApiPropertyOptional({
    type: 'number',
    description: 'With `near`: kilometres from the point, rounded to 0.1.',
    example: 3.2,
  })
  distanceKm?: number;

  @ApiProperty({ type: 'string', format: 'date-time', description: 'When the organisation was published.' })
  createdAt: string;

  @ApiProperty({ type: 'string', format: 'date-time', description: 'When its profile last changed.' })
  updatedAt: string;
}
