import { CurrentPrincipal, Principal } from '@app/core';
import {
  AcceptsMergePatch,
  conditionTags,
  formatEntityTag,
  IdParamPipe,
  locationHeader,
  matchingVersions,
  putPrecondition,
  MergePatch,
  nextPageLink,
  PAGE_HEADERS,
  parseEntityTagCondition,
} from '@app/http';
import { Idempotent } from '@app/idempotency';
import { Body, Controller, Headers, Param, Query, Req, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import {
  DEFAULT_RADIUS_KM,
  GOOD_WITH_QUERY,
  ListPetsQueryDto,
  parsePoint,
  STATUS_QUERY,
} from './dto/list-pets-query.dto';
import { CategoryDto, CreatePetDto, PetDto, PetRecordDto } from './dto/pet.dto';
import { decodePetCursor, encodePetCursor } from './pet-cursor';
import { UpdatePetDto } from './dto/update-pet.dto';
import { EmptyPetChangeError } from './pet.errors';
import { ExternalIdParamPipe } from './external-id-param.pipe';
import {
  DEPRECATION_HEADERS,
  ETAG_HEADER,
  EXTERNAL_ID_PARAM,
  EXTERNAL_ID_TAKEN,
  GET_PET_GONE,
  IF_MATCH_HEADER,
  IF_NONE_MATCH_HEADER,
  PET_CHANGE_ERRORS,
  PET_HAS_OPEN_ORDER,
  PET_ID_PARAM,
  PET_NOT_FOUND,
  PET_PRECONDITION_FAILED,
  PETS_API_TAG,
} from './pets-openapi';
import { PhotoUrls } from './pet-photo-urls';
import type { StoredPet } from './pet-row';
import { PetsService } from './pets.service';
import { Endpoint } from '@app/accounts';

@ApiTags(PETS_API_TAG.name)
@ApiBearerAuth()
@Controller()
export class PetsController {
  constructor(
    private readonly pets: PetsService,
    private readonly photoUrls: PhotoUrls,
  ) {}

  @Endpoint({
    method: 'GET',
    path: 'pets',
    id: 'listPets',
    scope: 'pets:read',
    publishable: true,
    summary: 'Find animals',
    description:
      'Every animal, or those matching all the filters given, ordered by `sort` (ascending id by default). ' +
      'When more follow, the response carries `Link: <…&cursor=…>; rel="next"`, which keeps every filter; ' +
      'following those links visits every matching animal once.',
    query: [STATUS_QUERY, GOOD_WITH_QUERY],
    success: { status: 200, description: 'A page of animals.', type: [PetDto], headers: PAGE_HEADERS },
    errors: [400, 401],
  })
  async listPets(
    @Query() query: ListPetsQueryDto,
    @CurrentPrincipal() principal: Principal,
    @Req() request: Request,
    @Res({ passthrough: true }) response: Response,
  ): Promise<readonly PetDto[]> {
    const page = await this.pets.search({
      statuses: query.status,
      categoryId: query.categoryId,
      sex: query.sex,
      ageGroup: query.ageGroup,
      size: query.size,
      tag: query.tag,
      q: query.q,
      listerAccountId: query.listedBy === 'me' ? principal.accountId : undefined,
      goodWith: query.goodWith,
      houseTrained: query.houseTrained,
      spayedNeutered: query.spayedNeutered,
      specialNeeds: query.specialNeeds,
      coat: query.coat,
      color: query.color,
      organizationId: query.organizationId,
      externalId: query.externalId,
      updatedSince: query.updatedSince,
      near: query.near === undefined ? undefined : parsePoint(query.near),
      radiusKm: query.radiusKm ?? DEFAULT_RADIUS_KM,
      sort: query.sort,
      after: decodePetCursor(query.sort, query.cursor),
      limit: query.limit,
    });
    if (page.next) {
      const link = nextPageLink(
        request,
        {
          // nextPageLink puts the next cursor in place of this one.
          ...query,
          status: query.status?.join(','),
          goodWith: query.goodWith?.join(','),
          houseTrained: query.houseTrained?.toString(),
          spayedNeutered: query.spayedNeutered?.toString(),
          specialNeeds: query.specialNeeds?.toString(),
          // The default sort stays implicit, so the links stay as the API guide shows them.
          sort: query.sort === 'id' ? undefined : query.sort,
        },
        encodePetCursor(query.sort, page.next),
      );
      response.setHeader('Link', link);
    }
    return page.pets.map((pet) => this.photoUrls.servedPet(pet));
  }

  @Idempotent()
  @Endpoint({
    method: 'POST',
    path: 'pets',
    id: 'createPet',
    scope: 'pets:write',
    summary: 'Add an animal',
    description: 'Adds an animal to the shared catalogue. `status` defaults to `available`.',
    success: {
      status: 201,
      description: 'The created animal, with its id.',
      type: PetDto,
      headers: { ...locationHeader('/v1/pets/1'), ...ETAG_HEADER },
      links: {
        getPet: {
          operationId: 'getPet',
          parameters: { petId: '$response.body#/id' },
          description: 'The animal just created.',
        },
      },
    },
    errors: [400, 401, EXTERNAL_ID_TAKEN],
  })
  async createPet(
    @Body() body: CreatePetDto,
    @CurrentPrincipal() principal: Principal,
    @Res({ passthrough: true }) response: Response,
  ): Promise<PetDto> {
    const created = await this.pets.create({ ...body, listerAccountId: principal.accountId });
    response.setHeader('Location', `/v1/pets/${created.pet.id}`);
    return this.withETag(response, created);
  }

  @Endpoint({
    method: 'PUT',
    path: 'pets/external/:externalId',
    id: 'putPetByExternalId',
    scope: 'pets:write',
    summary: 'Create or replace an animal by the shelter’s own id',
    description:
      'For syncing from shelter software: creates the caller’s animal with this `externalId` (201), or replaces ' +
      'it whole (200): optional fields absent are cleared, and a replacement without `status` keeps the ' +
      'animal’s. Retrying it never makes a second animal, also when two arrive at once. With `If-Match`, ' +
      'replaces nothing unless the animal is still at one of the ETags named (any, for `*`), and creates none ' +
      '(`412`).',
    params: [EXTERNAL_ID_PARAM],
    headers: [IF_MATCH_HEADER],
    success: [
      { status: 200, description: 'The animal after its replacement.', type: PetDto, headers: ETAG_HEADER },
      {
        status: 201,
        description: 'The animal was created.',
        type: PetDto,
        headers: { ...locationHeader('/v1/pets/1'), ...ETAG_HEADER },
      },
    ],
    errors: [400, 401, PET_HAS_OPEN_ORDER, PET_PRECONDITION_FAILED],
  })
  async putPetByExternalId(
    @Param('externalId', ExternalIdParamPipe) externalId: string,
    @Body() body: PetRecordDto,
    @Headers('if-match') ifMatch: string | undefined,
    @CurrentPrincipal() principal: Principal,
    @Res({ passthrough: true }) response: Response,
  ): Promise<PetDto> {
    const { stored, created } = await this.pets.putByExternalId(
      principal.accountId,
      externalId,
      body,
      putPrecondition(ifMatch),
    );
    if (created) {
      response.status(201);
      response.setHeader('Location', `/v1/pets/${stored.pet.id}`);
    }
    return this.withETag(response, stored);
  }

  @Endpoint({
    method: 'GET',
    path: 'pets/:petId',
    id: 'getPet',
    scope: 'pets:read',
    publishable: true,
    summary: 'Get an animal (deprecated)',
    description:
      'Deprecated: removed on 5 December 2030 (answers 410 from then on). Use GET /pets with `status`. ' +
      'With `If-None-Match` naming the current ETag, answers 304 with no body.',
    deprecated: true,
    params: [PET_ID_PARAM],
    headers: [IF_NONE_MATCH_HEADER],
    success: [
      { status: 200, description: 'The animal.', type: PetDto, headers: ETAG_HEADER },
      {
        status: 304,
        description: 'The animal has not changed since the ETag in `If-None-Match`: no body.',
        headers: ETAG_HEADER,
      },
    ],
    everyResponseHeaders: DEPRECATION_HEADERS,
    errors: [400, 401, PET_NOT_FOUND, GET_PET_GONE],
  })
  async getPet(
    @Param('petId', IdParamPipe) petId: number,
    @Headers('if-none-match') ifNoneMatch: string | undefined,
    @Res({ passthrough: true }) response: Response,
  ): Promise<PetDto | undefined> {
    const stored = await this.pets.get(petId);
    const condition = parseEntityTagCondition(ifNoneMatch, 'If-None-Match');
    const tags = condition && conditionTags(condition, 'weak');
    if (condition && (tags === undefined || tags.includes(stored.version))) {
      response.setHeader('ETag', etagOf(stored));
      response.status(304);
      return undefined;
    }
    return this.withETag(response, stored);
  }

  @AcceptsMergePatch()
  @Endpoint({
    method: 'PATCH',
    path: 'pets/:petId',
    id: 'updatePet',
    scope: 'pets:write',
    summary: 'Change an animal',
    description:
      'Changes the fields given, by the account that listed the animal; `null` clears an optional field. ' +
      'Takes `application/json` or an RFC 7396 merge patch, both read as a merge patch: `location` merges ' +
      'member by member. With `If-Match`, changes nothing unless the animal is still at one of the ETags named.',
    consumes: ['application/json', 'application/merge-patch+json'],
    body: { type: UpdatePetDto },
    params: [PET_ID_PARAM],
    headers: [IF_MATCH_HEADER],
    success: { status: 200, description: 'The animal after the change.', type: PetDto, headers: ETAG_HEADER },
    errors: [400, 401, PET_NOT_FOUND, PET_CHANGE_ERRORS, EXTERNAL_ID_TAKEN],
  })
  async updatePet(
    @Param('petId', IdParamPipe) petId: number,
    // Validated as an UpdatePetDto once merged (PetsService.update): a nested object is checked whole.
    @Body() patch: MergePatch,
    @Headers('if-match') ifMatch: string | undefined,
    @CurrentPrincipal() principal: Principal,
    @Res({ passthrough: true }) response: Response,
  ): Promise<PetDto> {
    if (Object.keys(patch).length === 0) throw new EmptyPetChangeError();
    const updated = await this.pets.update({
      petId,
      listerAccountId: principal.accountId,
      patch,
      versions: matchingVersions(ifMatch),
    });
    return this.withETag(response, updated);
  }

  @Endpoint({
    method: 'DELETE',
    path: 'pets/:petId',
    id: 'deletePet',
    scope: 'pets:write',
    summary: 'Remove an animal',
    description:
      'Removes the animal from the catalogue, by the account that listed it. With `If-Match`, removes ' +
      'nothing unless the animal is still at one of the ETags named.',
    params: [PET_ID_PARAM],
    headers: [IF_MATCH_HEADER],
    success: { status: 204, description: 'The animal was removed.' },
    errors: [400, 401, PET_NOT_FOUND, PET_CHANGE_ERRORS],
  })
  async deletePet(
    @Param('petId', IdParamPipe) petId: number,
    @Headers('if-match') ifMatch: string | undefined,
    @CurrentPrincipal() principal: Principal,
  ): Promise<void> {
    await this.pets.delete({ petId, listerAccountId: principal.accountId, versions: matchingVersions(ifMatch) });
  }

  @Endpoint({
    method: 'GET',
    path: 'categories',
    id: 'listCategories',
    scope: 'pets:read',
    publishable: true,
    summary: 'List categories',
    description: 'The categories an animal’s `categoryId` can name.',
    success: { status: 200, description: 'Every category.', type: [CategoryDto] },
    errors: [401],
  })
  listCategories(): Promise<CategoryDto[]> {
    return this.pets.listCategories();
  }

  /** Sets the pet's ETag on the response and gives the Pet to send. */
  private withETag(response: Response, stored: StoredPet): PetDto {
    response.setHeader('ETag', etagOf(stored));
    return this.photoUrls.servedPet(stored.pet);
  }
}

/** A strong ETag: the pet's version, which every change moves. */
function etagOf(stored: StoredPet): string {
  return formatEntityTag(stored.version);
}
