import { Endpoint } from '@app/accounts';
import { CurrentPrincipal, Principal } from '@app/core';
import { locationHeader } from '@app/http';
import { Idempotent } from '@app/idempotency';
import { Body, Controller, Param, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { CreateSavedSearchDto, SavedSearchDto, UpdateSavedSearchDto } from './dto/saved-search.dto';
import {
  SAVED_SEARCH_ID_PARAM,
  SAVED_SEARCH_NOT_FOUND,
  SAVED_SEARCHES_API_TAG,
  TOO_MANY_SAVED_SEARCHES,
} from './saved-searches-openapi';
import { SavedSearchesService } from './saved-searches.service';

@ApiTags(SAVED_SEARCHES_API_TAG.name)
@ApiBearerAuth()
@Controller('saved-searches')
export class SavedSearchesController {
  constructor(private readonly searches: SavedSearchesService) {}

  @Idempotent()
  @Endpoint({
    method: 'POST',
    id: 'createSavedSearch',
    scope: 'searches:write',
    summary: 'Save a search',
    description:
      'Keeps a search of the catalogue: whenever an animal listed by another account comes to match it (added ' +
      'matching, or changed so that it matches where it did not), the caller receives one `saved_search.matched` ' +
      'event, in its feed and at its webhook endpoints subscribed to it, within 60 seconds; with `emailAlerts: true`, its ' +
      'email too, at most one email per `SAVED_SEARCH_EMAIL_MINUTES`. At most 20 per account.',
    success: {
      status: 201,
      description: 'The saved search.',
      type: SavedSearchDto,
      headers: locationHeader('/v1/saved-searches/srch_3kTzq0m1Yd9c2XwB7nQe5RfA'),
      links: {
        getSavedSearch: {
          operationId: 'getSavedSearch',
          parameters: { savedSearchId: '$response.body#/id' },
          description: 'The saved search just created.',
        },
      },
    },
    errors: [400, 401, TOO_MANY_SAVED_SEARCHES],
  })
  async createSavedSearch(
    @Body() body: CreateSavedSearchDto,
    @CurrentPrincipal() principal: Principal,
    @Res({ passthrough: true }) response: Response,
  ): Promise<SavedSearchDto> {
    const search = await this.searches.create(principal.accountId, body);
    response.setHeader('Location', `/v1/saved-searches/${search.id}`);
    return SavedSearchDto.from(search);
  }

  @Endpoint({
    method: 'GET',
    id: 'listSavedSearches',
    scope: 'searches:read',
    summary: 'List saved searches',
    description: 'The caller’s saved searches (at most 20), oldest first.',
    success: { status: 200, description: 'The account’s saved searches.', type: [SavedSearchDto] },
    errors: [401],
  })
  async listSavedSearches(@CurrentPrincipal() principal: Principal): Promise<SavedSearchDto[]> {
    return (await this.searches.list(principal.accountId)).map((search) => SavedSearchDto.from(search));
  }

  @Endpoint({
    method: 'GET',
    path: ':savedSearchId',
    id: 'getSavedSearch',
    scope: 'searches:read',
    summary: 'Get a saved search',
    description: 'One of the caller’s.',
    params: [SAVED_SEARCH_ID_PARAM],
    success: { status: 200, description: 'The saved search.', type: SavedSearchDto },
    errors: [401, SAVED_SEARCH_NOT_FOUND],
  })
  async getSavedSearch(
    @Param('savedSearchId') id: string,
    @CurrentPrincipal() principal: Principal,
  ): Promise<SavedSearchDto> {
    return SavedSearchDto.from(await this.searches.get(principal.accountId, id));
  }

  @Endpoint({
    method: 'PATCH',
    path: ':savedSearchId',
    id: 'updateSavedSearch',
    scope: 'searches:write',
    summary: 'Rename a saved search, or turn its email alerts on or off',
    description:
      'Changes what the body names and keeps the rest. With `emailAlerts: true`, the account’s email receives the ' +
      'pets that come to match, at most one email per `SAVED_SEARCH_EMAIL_MINUTES`; turning them on asks again for ' +
      'an address that refused email or unsubscribed from this search’s.',
    params: [SAVED_SEARCH_ID_PARAM],
    success: { status: 200, description: 'The saved search as changed.', type: SavedSearchDto },
    errors: [400, 401, SAVED_SEARCH_NOT_FOUND],
  })
  async updateSavedSearch(
    @Param('savedSearchId') id: string,
    @Body() body: UpdateSavedSearchDto,
    @CurrentPrincipal() principal: Principal,
  ): Promise<SavedSearchDto> {
    return SavedSearchDto.from(await this.searches.update(principal.accountId, id, body));
  }

  @Endpoint({
    method: 'DELETE',
    path: ':savedSearchId',
    id: 'deleteSavedSearch',
    scope: 'searches:write',
    summary: 'Remove a saved search',
    description: 'It sends no more alerts.',
    params: [SAVED_SEARCH_ID_PARAM],
    success: { status: 204, description: 'The saved search was removed.' },
    errors: [401, SAVED_SEARCH_NOT_FOUND],
  })
  async deleteSavedSearch(@Param('savedSearchId') id: string, @CurrentPrincipal() principal: Principal): Promise<void> {
    await this.searches.delete(principal.accountId, id);
  }
}
