import { LabelText } from '@app/core';
import { PetDto } from '@app/pets';
import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { IsBoolean, IsOptional, IsString, Length } from 'class-validator';
import type { SavedSearch } from '../saved-searches.repository';

/** The query string as sent, percent-encoded. */
const MAX_SAVED_QUERY_LENGTH = 2000;

const EMAIL_ALERTS_DESCRIPTION =
  'Whether the account’s email receives the pets that came to match, at most one email per ' +
  '`SAVED_SEARCH_EMAIL_MINUTES` (60 by default). Turning it on asks again for an address that refused or unsubscribed.';

const QUERY_DESCRIPTION =
  'A `GET /v1/pets` query string without the `?`: any of its filters (not `cursor`, `limit`, `sort`, ' +
  '`listedBy`, `updatedSince` or `externalId`), validated as `listPets` validates them.';

/** The body of `POST /v1/saved-searches`. */
@ApiSchema({ name: 'NewSavedSearch' })
export class CreateSavedSearchDto {
  @ApiPropertyOptional({ minLength: 1, maxLength: 100, example: 'Young dogs near Berlin' })
  @IsOptional()
  @LabelText(1, 100)
  name?: string;

  @ApiProperty({
    minLength: 1,
    maxLength: MAX_SAVED_QUERY_LENGTH,
    example: 'categoryId=1&ageGroup=young&near=52.52,13.405&radiusKm=30',
    description: QUERY_DESCRIPTION,
  })
  @IsString()
  @Length(1, MAX_SAVED_QUERY_LENGTH)
  query: string;

  @ApiPropertyOptional({ description: `${EMAIL_ALERTS_DESCRIPTION} False when absent.` })
  @IsOptional()
  @IsBoolean()
  emailAlerts?: boolean;
}

/** The body of `PATCH /v1/saved-searches/{savedSearchId}`: what it names changes, the rest stays. */
@ApiSchema({ name: 'SavedSearchChanges' })
export class UpdateSavedSearchDto {
  @ApiPropertyOptional({ minLength: 1, maxLength: 100, example: 'Young dogs near Berlin' })
  @IsOptional()
  @LabelText(1, 100)
  name?: string;

  @ApiPropertyOptional({ description: EMAIL_ALERTS_DESCRIPTION })
  @IsOptional()
  @IsBoolean()
  emailAlerts?: boolean;
}

@ApiSchema({ name: 'SavedSearch' })
export class SavedSearchDto {
  @ApiProperty({ example: 'srch_3kTzq0m1Yd9c2XwB7nQe5RfA', description: 'Unique identifier of the saved search.' })
  id: string;

  @ApiPropertyOptional({ example: 'Young dogs near Berlin' })
  name?: string;

  @ApiProperty({
    example: 'categoryId=1&ageGroup=young&near=52.52,13.405&radiusKm=30',
    description: 'The query, as given.',
  })
  query: string;

  @ApiProperty({ description: EMAIL_ALERTS_DESCRIPTION })
  emailAlerts: boolean;

  @ApiProperty({ type: 'string', format: 'date-time' })
  createdAt: string;

  static from(search: SavedSearch): SavedSearchDto {
    return {
      id: search.id,
      ...(search.name !== null && { name: search.name }),
      query: search.query,
      emailAlerts: search.emailAlerts,
      createdAt: search.createdAt.toISOString(),
    };
  }
}

/** `data.object` of a `saved_search.matched` event. */
@ApiSchema({ name: 'SavedSearchMatch' })
export class SavedSearchMatchDto {
  @ApiProperty({ example: 'srch_3kTzq0m1Yd9c2XwB7nQe5RfA', description: 'The saved search the pet came to match.' })
  savedSearchId: string;

  @ApiProperty({ type: PetDto, description: 'The animal as it was right after the change that made it match.' })
  pet: PetDto;
}
