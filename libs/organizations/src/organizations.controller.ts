import { Endpoint } from '@app/accounts';
import { CurrentPrincipal, Principal } from '@app/core';
import {
  AcceptsMergePatch,
  formatEntityTag,
  locationHeader,
  matchingVersions,
  putPrecondition,
  MergePatch,
  nextPageLink,
  PAGE_HEADERS,
} from '@app/http';
import { parsePoint, IF_MATCH_HEADER, DEFAULT_RADIUS_KM } from '@app/pets';
import { Body, Controller, Headers, Param, Query, Req, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { ListOrganizationsQueryDto } from './dto/list-organizations-query.dto';
import { OrganizationDto, OrganizationProfileDto, UpdateOrganizationDto } from './dto/organization.dto';
import { decodeOrganizationCursor, encodeOrganizationCursor } from './organization-cursor';
import { EmptyOrganizationChangeError } from './organizations.errors';
import {
  NO_ORGANIZATION,
  ORGANIZATION_ETAG_HEADER,
  ORGANIZATION_ID_PARAM,
  ORGANIZATION_NOT_FOUND,
  ORGANIZATION_PRECONDITION_FAILED,
  ORGANIZATIONS_API_TAG,
} from './organizations-openapi';
import type { StoredOrganization } from './organizations.repository';
import { OrganizationsService } from './organizations.service';

@ApiTags(ORGANIZATIONS_API_TAG.name)
@ApiBearerAuth()
@Controller()
export class OrganizationsController {
  constructor(private readonly organizations: OrganizationsService) {}

  @Endpoint({
    method: 'PUT',
    path: 'organization',
    id: 'putOrganization',
    scope: 'organization:write',
    summary: 'Publish or replace your organisation',
    description:
      'The whole profile of the organisation the caller’s account runs: created (201) or replaced (200; fields ' +
      'absent are cleared). Publishing it gives each of the account’s animals its `organizationId`. With ' +
      '`If-Match`, replaces nothing unless the profile is still at one of the ETags named (any, for `*`), and ' +
      'publishes none (`412`).',
    headers: [IF_MATCH_HEADER],
    success: [
      {
        status: 200,
        description: 'The profile was replaced.',
        type: OrganizationDto,
        headers: ORGANIZATION_ETAG_HEADER,
      },
      {
        status: 201,
        description: 'The organisation was published.',
        type: OrganizationDto,
        headers: { ...locationHeader('/v1/organization'), ...ORGANIZATION_ETAG_HEADER },
      },
    ],
    errors: [400, 401, ORGANIZATION_PRECONDITION_FAILED],
  })
  async putOrganization(
    @Body() body: OrganizationProfileDto,
    @Headers('if-match') ifMatch: string | undefined,
    @CurrentPrincipal() principal: Principal,
    @Res({ passthrough: true }) response: Response,
  ): Promise<OrganizationDto> {
    const { stored, created } = await this.organizations.put(principal.accountId, body, putPrecondition(ifMatch));
    if (created) {
      response.status(201);
      response.setHeader('Location', '/v1/organization');
    }
    return withETag(response, stored);
  }

  @AcceptsMergePatch()
  @Endpoint({
    method: 'PATCH',
    path: 'organization',
    id: 'updateOrganization',
    scope: 'organization:write',
    summary: 'Change your organisation',
    description:
      'Changes the fields given; `null` clears an optional field. Takes `application/json` or an RFC 7396 ' +
      'merge patch, both read as a merge patch: `address`, `location`, `hours` and `socialMedia` merge member by member. ' +
      'Changes no animal. With `If-Match`, changes nothing unless the profile is still at one of the ETags named.',
    consumes: ['application/json', 'application/merge-patch+json'],
    body: { type: UpdateOrganizationDto },
    headers: [IF_MATCH_HEADER],
    success: {
      status: 200,
      description: 'The profile after the change.',
      type: OrganizationDto,
      headers: ORGANIZATION_ETAG_HEADER,
    },
    errors: [400, 401, NO_ORGANIZATION, ORGANIZATION_PRECONDITION_FAILED],
  })
  async updateOrganization(
    // Validated as an UpdateOrganizationDto once merged (OrganizationsService.update): a nested object is checked whole.
    @Body() patch: MergePatch,
    @Headers('if-match') ifMatch: string | undefined,
    @CurrentPrincipal() principal: Principal,
    @Res({ passthrough: true }) response: Response,
  ): Promise<OrganizationDto> {
    if (Object.keys(patch).length === 0) throw new EmptyOrganizationChangeError();
    return withETag(response, await this.organizations.update(principal.accountId, patch, matchingVersions(ifMatch)));
  }

  @Endpoint({
    method: 'GET',
    path: 'organization',
    id: 'getOwnOrganization',
    scope: 'organization:read',
    summary: 'Get your organisation',
    description: 'The profile the caller’s account published; 404 until it publishes one.',
    success: { status: 200, description: 'The profile.', type: OrganizationDto, headers: ORGANIZATION_ETAG_HEADER },
    errors: [401, NO_ORGANIZATION],
  })
  async getOwnOrganization(
    @CurrentPrincipal() principal: Principal,
    @Res({ passthrough: true }) response: Response,
  ): Promise<OrganizationDto> {
    return withETag(response, await this.organizations.getOwn(principal.accountId));
  }

  @Endpoint({
    method: 'DELETE',
    path: 'organization',
    id: 'deleteOrganization',
    scope: 'organization:write',
    summary: 'Unpublish your organisation',
    description:
      'Removes the profile; the account’s animals lose their `organizationId`. With `If-Match`, removes ' +
      'nothing unless the profile is still at one of the ETags named.',
    headers: [IF_MATCH_HEADER],
    success: { status: 204, description: 'The organisation was unpublished.' },
    errors: [401, NO_ORGANIZATION, ORGANIZATION_PRECONDITION_FAILED],
  })
  async deleteOrganization(
    @Headers('if-match') ifMatch: string | undefined,
    @CurrentPrincipal() principal: Principal,
  ): Promise<void> {
    await this.organizations.delete(principal.accountId, matchingVersions(ifMatch));
  }

  @Endpoint({
    method: 'GET',
    path: 'organizations',
    id: 'listOrganizations',
    scope: 'pets:read',
    publishable: true,
    summary: 'Find shelters and rescues',
    description:
      'Every published organisation, or those matching all the filters given, ordered by `sort` (name, then ' +
      'id, by default). When more follow, the response carries `Link: <…&cursor=…>; rel="next"`.',
    success: { status: 200, description: 'A page of organisations.', type: [OrganizationDto], headers: PAGE_HEADERS },
    errors: [400, 401],
  })
  async listOrganizations(
    @Query() query: ListOrganizationsQueryDto,
    @Req() request: Request,
    @Res({ passthrough: true }) response: Response,
  ): Promise<OrganizationDto[]> {
    const page = await this.organizations.search({
      q: query.q,
      near: query.near === undefined ? undefined : parsePoint(query.near),
      radiusKm: query.radiusKm ?? DEFAULT_RADIUS_KM,
      country: query.country,
      sort: query.sort,
      after: decodeOrganizationCursor(query.sort, query.cursor),
      limit: query.limit,
    });
    if (page.next) {
      const sort = query.sort === 'name' ? undefined : query.sort;
      response.setHeader(
        'Link',
        nextPageLink(request, { ...query, sort }, encodeOrganizationCursor(query.sort, page.next)),
      );
    }
    return page.organizations;
  }

  @Endpoint({
    method: 'GET',
    path: 'organizations/:organizationId',
    id: 'getOrganization',
    scope: 'pets:read',
    publishable: true,
    summary: 'Get an organisation',
    description: 'A published organisation.',
    params: [ORGANIZATION_ID_PARAM],
    success: {
      status: 200,
      description: 'The organisation.',
      type: OrganizationDto,
      headers: ORGANIZATION_ETAG_HEADER,
    },
    errors: [400, 401, ORGANIZATION_NOT_FOUND],
  })
  async getOrganization(
    @Param('organizationId') organizationId: string,
    @Res({ passthrough: true }) response: Response,
  ): Promise<OrganizationDto> {
    return withETag(response, await this.organizations.get(organizationId));
  }
}

/** Sets the profile's strong ETag on the response and gives the Organization to send. */
function withETag(response: Response, stored: StoredOrganization): OrganizationDto {
  response.setHeader('ETag', formatEntityTag(stored.version));
  return stored.organization;
}
