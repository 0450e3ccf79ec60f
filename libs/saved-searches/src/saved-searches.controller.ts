import { RequiredScope } from '@app/accounts';
import { CurrentPrincipal, Principal } from '@app/core';
import { ApiErrors, locationHeader } from '@app/http';
import { Idempotent } from '@app/idempotency';
import { Body, Controller, Delete, Get, HttpCode, Param, Post, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiParam, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { CreateSavedSearchDto, SavedSearchDto } from './dto/saved-search.dto';
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

  @Post()
  @RequiredScope('searches:write')
  @HttpCode(201)
  @Idempotent()
  @ApiOperation({
    operationId: 'createSavedSearch',
    summary: 'Save a search',
    description:
      'Keeps a search of the catalogue: whenever an animal listed by another account comes to match it (added ' +
      'matching, or changed so that it matches where it did not), the caller receives one `saved_search.matched` ' +
      'event, in its feed and at its webhook endpoints subscribed to it, within 60 seconds. At most 20 per account.',
  })
  @ApiResponse({
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
  })
  @ApiErrors(400, 401, TOO_MANY_SAVED_SEARCHES)
  async createSavedSearch(
    @Body() body: CreateSavedSearchDto,
    @CurrentPrincipal() principal: Principal,
    @Res({ passthrough: true }) response: Response,
  ): Promise<SavedSearchDto> {
    const search = await this.searches.create(principal.accountId, body);
    response.setHeader('Location', `/v1/saved-searches/${search.id}`);
    return SavedSearchDto.from(search);
  }

  @Get()
  @RequiredScope('searches:read')
  @ApiOperation({
    operationId: 'listSavedSearches',
    summary: 'List saved searches',
    description: 'The caller’s saved searches (at most 20), oldest first.',
  })
  @ApiResponse({ status: 200, description: 'The account’s saved searches.', type: [SavedSearchDto] })
  @ApiErrors(401)
  async listSavedSearches(@CurrentPrincipal() principal: Principal): Promise<SavedSearchDto[]> {
    return (await this.searches.list(principal.accountId)).map((search) => SavedSearchDto.from(search));
  }

  @Get(':savedSearchId')
  @RequiredScope('searches:read')
  @ApiOperation({ operationId: 'getSavedSearch', summary: 'Get a saved search', description: 'One of the caller’s.' })
  @ApiParam(SAVED_SEARCH_ID_PARAM)
  @ApiResponse({ status: 200, description: 'The saved search.', type: SavedSearchDto })
  @ApiErrors(401, SAVED_SEARCH_NOT_FOUND)
  async getSavedSearch(
    @Param('savedSearchId') id: string,
    @CurrentPrincipal() principal: Principal,
  ): Promise<SavedSearchDto> {
    return SavedSearchDto.from(await this.searches.get(principal.accountId, id));
  }

  @Delete(':savedSearchId')
  @RequiredScope('searches:write')
  @HttpCode(204)
  @ApiOperation({
    operationId: 'deleteSavedSearch',
    summary: 'Remove a saved search',
    description: 'It sends no more alerts.',
  })
  @ApiParam(SAVED_SEARCH_ID_PARAM)
  @ApiResponse({ status: 204, description: 'The saved search was removed.' })
  @ApiErrors(401, SAVED_SEARCH_NOT_FOUND)
  async deleteSavedSearch(@Param('savedSearchId') id: string, @CurrentPrincipal() principal: Principal): Promise<void> {
    await this.searches.delete(principal.accountId, id);
  }
}
