import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { IsOptional } from 'class-validator';
import type { PetAgeGroup, PetCoat, PetSex, PetSize, PetStatus } from '../pet-status';
import {
  AgeGroupField,
  AttributesField,
  BreedField,
  CategoryIdField,
  CoatField,
  ColorsField,
  DescriptionField,
  EnvironmentField,
  ExternalIdField,
  Kept,
  LocationChangeField,
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

/** May be omitted, or null to clear it. */
const Clearable = () => applyDecorators(ApiPropertyOptional({ nullable: true }), IsOptional());

/**
 * The body of `PATCH /v1/pets/{petId}` (JSON or an RFC 7396 merge patch): the fields to change, at least
 * one; `null` clears an optional field (`sex` back to `unknown`). `location`, `attributes` and `environment`
 * merge member by member, a member `null` clearing it; `colors` is replaced as a whole (PetsService.update
 * merges the patch before validating it with this class).
 */
@ApiSchema({ name: 'PetChange' })
export class UpdatePetDto {
  @Kept()
  @NameField()
  name?: string;

  @Kept()
  @CategoryIdField()
  categoryId?: number;

  @Kept()
  @StatusField()
  status?: PetStatus;

  @Clearable()
  @DescriptionField()
  description?: string | null;

  @Clearable()
  @BreedField()
  breed?: string | null;

  @Clearable()
  @SexField()
  sex?: PetSex | null;

  @Clearable()
  @AgeGroupField()
  ageGroup?: PetAgeGroup | null;

  @Clearable()
  @SizeField()
  size?: PetSize | null;

  @Clearable()
  @TagsField()
  tags?: string[] | null;

  @Clearable()
  @PhotoUrlsField()
  photoUrls?: string[] | null;

  @Clearable()
  @LocationChangeField()
  location?: PetLocationDto | null;

  @Clearable()
  @AttributesField()
  attributes?: PetAttributesDto | null;

  @Clearable()
  @SpecialNeedsNotesField()
  specialNeedsNotes?: string | null;

  @Clearable()
  @EnvironmentField()
  environment?: PetEnvironmentDto | null;

  @Clearable()
  @CoatField()
  coat?: PetCoat | null;

  @Clearable()
  @ColorsField()
  colors?: string[] | null;

  @Clearable()
  @SecondaryBreedField()
  secondaryBreed?: string | null;

  @Clearable()
  @MixedBreedField()
  mixedBreed?: boolean | null;

  @Clearable()
  @ExternalIdField()
  externalId?: string | null;
}
