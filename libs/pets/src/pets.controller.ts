import { ApiErrors, decodeCursor, IdParamPipe, linkNextPage, PAGE_HEADERS, RATE_LIMIT_HEADERS } from '@app/http';
import { Idempotent } from '@app/idempotency';
import { Body, Controller, Get, HttpCode, Param, Post, Query, Req, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiParam, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { CategoryDto, ListPetsQueryDto, NewPetDto, PetDto } from './dto/pet.dto';
import { PetsService } from './pets.service';
import { PETS_API_TAG } from './pets-openapi';

const DEPRECATION_HEADERS = {
  Deprecation: { description: 'RFC 9745: when this operation was deprecated.', schema: { type: 'string' } },
  Sunset: { description: 'RFC 8594: Thu, 05 Dec 2030 00:00:00 GMT.', schema: { type: 'string' } },
  Link: { description: '`</v1/pets>; rel="successor-version"`.', schema: { type: 'string' } },
};

@ApiTags(PETS_API_TAG.name)
@ApiBearerAuth()
@Controller()
export class PetsController {
  constructor(private readonly pets: PetsService) {}

  @Get('pets')
  @ApiOperation({
    operationId: 'listPets',
    summary: 'List animals',
    description:
      'Ordered by id. When more animals follow, the response carries `Link: <…&cursor=…>; rel="next"`; ' +
      'following those links visits every animal once.',
  })
  @ApiResponse({
    status: 200,
    description: 'A page of animals.',
    type: [PetDto],
    headers: PAGE_HEADERS,
  })
  @ApiErrors(400, 401)
  async listPets(
    @Query() query: ListPetsQueryDto,
    @Req() request: Request,
    @Res({ passthrough: true }) response: Response,
  ): Promise<readonly PetDto[]> {
    const page = await this.pets.list({
      limit: query.limit,
      status: query.status,
      afterId: decodeCursor(query.cursor),
    });
    linkNextPage(request, response, { limit: query.limit, status: query.status }, page.lastId);
    return page.pets;
  }

  @Post('pets')
  @HttpCode(201)
  @Idempotent()
  @ApiOperation({
    operationId: 'createPet',
    summary: 'Add an animal',
    description: 'Adds an animal to the shared catalogue. `status` defaults to `available`.',
  })
  @ApiResponse({
    status: 201,
    description: 'The created animal, with its id.',
    type: PetDto,
    headers: { ...RATE_LIMIT_HEADERS, Location: { description: '/v1/pets/{id}', schema: { type: 'string' } } },
  })
  @ApiErrors(400, 401)
  async createPet(@Body() body: NewPetDto, @Res({ passthrough: true }) response: Response): Promise<PetDto> {
    const pet = await this.pets.create(body);
    response.setHeader('Location', `/v1/pets/${pet.id}`);
    return pet;
  }

  @Get('pets/:petId')
  @ApiOperation({
    operationId: 'getPet',
    summary: 'Get an animal (deprecated)',
    description: 'Deprecated: removed on 5 December 2030 (answers 410 from then on). Use GET /pets with `status`.',
    deprecated: true,
  })
  @ApiParam({
    name: 'petId',
    description: 'Identifier of the animal.',
    schema: { type: 'integer', format: 'int64', minimum: 1 },
  })
  @ApiResponse({ status: 200, type: PetDto, headers: { ...RATE_LIMIT_HEADERS, ...DEPRECATION_HEADERS } })
  @ApiErrors(400, 401, 404, 410)
  getPet(@Param('petId', IdParamPipe) petId: number): Promise<PetDto> {
    return this.pets.get(petId);
  }

  @Get('categories')
  @ApiOperation({
    operationId: 'listCategories',
    summary: 'List categories',
    description: 'The categories an animal’s `categoryId` can name.',
  })
  @ApiResponse({ status: 200, type: [CategoryDto], headers: RATE_LIMIT_HEADERS })
  @ApiErrors(401)
  listCategories(): Promise<CategoryDto[]> {
    return this.pets.listCategories();
  }
}
