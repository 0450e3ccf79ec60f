import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { IsOptional } from 'class-validator';
import { PetPhotoDto } from './pet-photo.dto';
import {
  AgeGroupField,
  AttributesField,
  BreedField,
  CategoryIdField,
  CoatField,
  ColorsField,
  DescriptionField,
  EnvironmentField,
  EXTERNAL_ID,
  ExternalIdField,
  Kept,
  LocationField,
  MixedBreedField,
  NameField,
  PetAttributesDto,
  PetEnvironmentDto,
  PetLocationDto,
  PhotoUrlsField,
  SecondaryBreedField,
  SexField,
  SizeField,
  SpecialNeedsNotesField,
  StatusField,
  TagsField,
} from './pet-fields';
import {
  PET_AGE_GROUPS,
  PET_COATS,
  PET_SEXES,
  PET_SIZES,
  PET_STATUSES,
  PetAgeGroup,
  PetCoat,
  PetSex,
  PetSize,
  PetStatus,
} from '../pet-status';

/** A pet's record as a lister writes it, but its `externalId`: what `PUT /v1/pets/external/{externalId}` takes. */
@ApiSchema({ name: 'PetRecord' })
export class PetRecordDto {
  @NameField()
  name: string;

  @CategoryIdField()
  categoryId: number;

  // Defaults said in words: a schema's `default` makes openapi-typescript require the field.
  @ApiPropertyOptional({ description: 'Availability of the animal; `available` when omitted.' })
  @Kept()
  @StatusField()
  status?: PetStatus;

  @IsOptional()
  @DescriptionField()
  description?: string;

  @IsOptional()
  @BreedField()
  breed?: string;

  @ApiPropertyOptional({ description: '`unknown` when omitted.' })
  @IsOptional()
  @SexField()
  sex?: PetSex;

  @IsOptional()
  @AgeGroupField()
  ageGroup?: PetAgeGroup;

  @IsOptional()
  @SizeField()
  size?: PetSize;

  @IsOptional()
  @TagsField()
  tags?: string[];

  @IsOptional()
  @PhotoUrlsField()
  photoUrls?: string[];

  @IsOptional()
  @LocationField()
  location?: PetLocationDto;

  @IsOptional()
  @AttributesField()
  attributes?: PetAttributesDto;

  @IsOptional()
  @SpecialNeedsNotesField()
  specialNeedsNotes?: string;

  @IsOptional()
  @EnvironmentField()
  environment?: PetEnvironmentDto;

  @IsOptional()
  @CoatField()
  coat?: PetCoat;

  @IsOptional()
  @ColorsField()
  colors?: string[];

  @IsOptional()
  @SecondaryBreedField()
  secondaryBreed?: string;

  @IsOptional()
  @MixedBreedField()
  mixedBreed?: boolean;
}

/** The body of `POST /v1/pets`. */
@ApiSchema({ name: 'NewPet' })
export class CreatePetDto extends PetRecordDto {
  @IsOptional()
  @ExternalIdField()
  externalId?: string;
}

@ApiSchema({ name: 'Pet' })
export class PetDto {
  @ApiProperty({
    type: 'integer',
    format: 'int64',
    description: 'Unique identifier assigned by the service.',
    example: 1,
  })
  id: number;

  @ApiProperty({ example: 'Rex' })
  name: string;

  @ApiProperty({ type: 'integer', format: 'int64', example: 1 })
  categoryId: number;

  @ApiProperty({ enum: PET_STATUSES, enumName: 'PetStatus', example: 'available' })
  status: PetStatus;

  @ApiPropertyOptional({ example: 'Calm, house-trained, good with children.' })
  description?: string;

  @ApiPropertyOptional({ example: 'Beagle' })
  breed?: string;

  @ApiProperty({ enum: PET_SEXES, enumName: 'PetSex', example: 'male' })
  sex: PetSex;

  @ApiPropertyOptional({ enum: PET_AGE_GROUPS, enumName: 'PetAgeGroup', example: 'adult' })
  ageGroup?: PetAgeGroup;

  @ApiPropertyOptional({ enum: PET_SIZES, enumName: 'PetSize', example: 'medium' })
  size?: PetSize;

  @ApiPropertyOptional({ type: [String], example: ['house-trained', 'good-with-kids'] })
  tags?: string[];

  @ApiPropertyOptional({ type: [String], example: ['https://photos.example.com/rex.jpg'] })
  photoUrls?: string[];

  @ApiPropertyOptional({ type: PetLocationDto })
  location?: PetLocationDto;

  @ApiPropertyOptional({ type: PetAttributesDto })
  attributes?: PetAttributesDto;

  @ApiPropertyOptional({ example: 'Needs daily medication for a thyroid condition.' })
  specialNeedsNotes?: string;

  @ApiPropertyOptional({ type: PetEnvironmentDto })
  environment?: PetEnvironmentDto;

  @ApiPropertyOptional({ enum: PET_COATS, enumName: 'PetCoat', example: 'short' })
  coat?: PetCoat;

  @ApiPropertyOptional({ type: [String], example: ['Black', 'White'] })
  colors?: string[];

  @ApiPropertyOptional({ example: 'Labrador Retriever' })
  secondaryBreed?: string;

  @ApiPropertyOptional({ type: 'boolean', example: true })
  mixedBreed?: boolean;

  @ApiPropertyOptional({ pattern: EXTERNAL_ID.source, example: 'A-2024-0117' })
  externalId?: string;

  @ApiPropertyOptional({
    description: 'The organisation of the animal’s lister, while it has published one.',
    example: 'org_4k9w2x7q1m3z8c5v',
  })
  organizationId?: string;

  @ApiProperty({
    type: [PetPhotoDto],
    description:
      'The photos the service hosts (POST /pets/{petId}/photos) once ready, by position: the first is the primary one.',
  })
  photos: PetPhotoDto[];

  @ApiPropertyOptional({
    type: 'number',
    description: 'With `near`: kilometres from the point, rounded to 0.1.',
    example: 3.2,
  })
  distanceKm?: number;

  @ApiProperty({ type: 'string', format: 'date-time', description: 'When the animal was added.' })
  createdAt: string;

  @ApiProperty({ type: 'string', format: 'date-time', description: 'When the animal’s record last changed.' })
  updatedAt: string;
}

@ApiSchema({ name: 'Category' })
export class CategoryDto {
  @ApiProperty({ type: 'integer', format: 'int64', example: 1 })
  id: number;

  @ApiProperty({ example: 'Dogs' })
  name: string;
}
