import { CharacterCount, IsStorableText } from '@app/core';
import { PageQueryDto } from '@app/http';
import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Max, Min } from 'class-validator';
import { PET_STATUSES, PetStatus } from '../pet-status';

const MAX_ID = Number.MAX_SAFE_INTEGER;

@ApiSchema({ name: 'NewPet' })
export class NewPetDto {
  @ApiProperty({ description: 'The animal’s name.', minLength: 1, maxLength: 100, example: 'Rex' })
  @Transform(({ value }) => (typeof value === 'string' ? value.trim() : value))
  @IsString()
  @CharacterCount(1, 100)
  @IsStorableText()
  name: string;

  @ApiProperty({
    type: 'integer',
    format: 'int64',
    minimum: 1,
    maximum: MAX_ID,
    description: 'Identifier of the category the animal belongs to (see GET /categories).',
    example: 1,
  })
  @IsInt()
  @Min(1)
  @Max(MAX_ID)
  categoryId: number;

  @ApiPropertyOptional({
    enum: PET_STATUSES,
    enumName: 'PetStatus',
    default: 'available',
    description: 'Availability of the animal.',
  })
  @IsOptional()
  @IsIn(PET_STATUSES)
  status?: PetStatus;
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
}

export class ListPetsQueryDto extends PageQueryDto {
  @ApiPropertyOptional({
    enum: PET_STATUSES,
    enumName: 'PetStatus',
    description: 'Keeps only animals with this availability.',
  })
  @IsOptional()
  @IsIn(PET_STATUSES)
  status?: PetStatus;
}

@ApiSchema({ name: 'Category' })
export class CategoryDto {
  @ApiProperty({ type: 'integer', format: 'int64', example: 1 })
  id: number;

  @ApiProperty({ example: 'Dogs' })
  name: string;
}
