import { PageQueryDto } from '@app/http';
import { NearQuery, NeedsNear, RadiusKmQuery, WordsQuery } from '@app/pets';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, Matches } from 'class-validator';

const ORGANIZATION_SORTS = ['name', '-createdAt', 'distance'] as const;
export type OrganizationSort = (typeof ORGANIZATION_SORTS)[number];

/** The query of `GET /v1/organizations`: `q`, `near` and `radiusKm` as pets take them. */
export class ListOrganizationsQueryDto extends PageQueryDto {
  @WordsQuery('organisations whose name, city or description')
  q?: string;

  @NearQuery('organisations')
  near?: string;

  @RadiusKmQuery()
  radiusKm?: number;

  @ApiPropertyOptional({
    pattern: '^[A-Z]{2}$',
    // No `example`: Swagger UI would send it, and find only the organisations in that country.
    description: 'Keeps only organisations in this country (e.g. `DE`).',
  })
  @IsOptional()
  @IsString()
  @Matches(/^[A-Z]{2}$/, { message: 'country must be an ISO 3166-1 alpha-2 code in upper case, such as DE' })
  country?: string;

  @ApiPropertyOptional({
    enum: ORGANIZATION_SORTS,
    default: 'name',
    description: '`name` (then id), `-createdAt` (newest first) or `distance` (nearest first; needs `near`).',
  })
  @IsOptional()
  @IsIn(ORGANIZATION_SORTS)
  @NeedsNear((value) => value === 'distance')
  sort: OrganizationSort = 'name';
}
