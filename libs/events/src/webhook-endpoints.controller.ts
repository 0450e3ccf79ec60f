import { CurrentPrincipal, Principal } from '@app/core';
import { ApiErrors, decodeCursor, IdParamPipe, linkNextPage, locationHeader, PAGE_HEADERS } from '@app/http';
import { Idempotent } from '@app/idempotency';
import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query, Req, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiParam, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { ListWebhookDeliveriesQueryDto, WebhookDeliveryDto } from './dto/webhook-delivery.dto';
import {
  CreateWebhookEndpointDto,
  UpdateWebhookEndpointDto,
  WebhookEndpointDto,
  WebhookEndpointWithSecretDto,
} from './dto/webhook-endpoint.dto';
import { WebhookEndpointAlreadyCreatedError } from './events.errors';
import {
  CREATE_WEBHOOK_ENDPOINT_ERRORS,
  WEBHOOK_ENDPOINT_ID_PARAM,
  WEBHOOK_ENDPOINT_NOT_FOUND,
  WEBHOOKS_API_TAG,
} from './events-openapi';
import { WebhookEndpointsService } from './webhooks/webhook-endpoints.service';
import { RequiredScope } from '@app/accounts';

@ApiTags(WEBHOOKS_API_TAG.name)
@ApiBearerAuth()
@Controller('webhook-endpoints')
export class WebhookEndpointsController {
  constructor(private readonly endpoints: WebhookEndpointsService) {}

  @Post()
  @HttpCode(201)
  @Idempotent<WebhookEndpointWithSecretDto, 'secret'>({
    secret: { fields: ['secret'], replay: (created) => new WebhookEndpointAlreadyCreatedError(created.id) },
  })
  @RequiredScope('webhooks:write')
  @ApiOperation({
    operationId: 'createWebhookEndpoint',
    summary: 'Add a webhook endpoint',
    description:
      'Events of the listed types are POSTed to `url`, signed the Standard Webhooks way with the `secret` ' +
      'returned here and never shown again. Outside development the URL must be `https` and its host public.',
  })
  @ApiResponse({
    status: 201,
    description: 'The new endpoint, with its signing secret.',
    type: WebhookEndpointWithSecretDto,
    headers: locationHeader('/v1/webhook-endpoints/1'),
    links: {
      getWebhookEndpoint: {
        operationId: 'getWebhookEndpoint',
        parameters: { endpointId: '$response.body#/id' },
        description: 'The endpoint just created.',
      },
    },
  })
  @ApiErrors(400, 401, CREATE_WEBHOOK_ENDPOINT_ERRORS)
  async createWebhookEndpoint(
    @Body() body: CreateWebhookEndpointDto,
    @CurrentPrincipal() principal: Principal,
    @Res({ passthrough: true }) response: Response,
  ): Promise<WebhookEndpointWithSecretDto> {
    const { endpoint, secret } = await this.endpoints.create(principal.accountId, body);
    response.setHeader('Location', `/v1/webhook-endpoints/${endpoint.id}`);
    return { ...WebhookEndpointDto.from(endpoint), secret };
  }

  @Get()
  @RequiredScope('webhooks:read')
  @ApiOperation({
    operationId: 'listWebhookEndpoints',
    summary: 'List webhook endpoints',
    description: 'The caller’s endpoints (at most 10), oldest first.',
  })
  @ApiResponse({
    status: 200,
    description: 'The account’s endpoints, without their secrets.',
    type: [WebhookEndpointDto],
  })
  @ApiErrors(401)
  async listWebhookEndpoints(@CurrentPrincipal() principal: Principal): Promise<WebhookEndpointDto[]> {
    return (await this.endpoints.list(principal.accountId)).map((endpoint) => WebhookEndpointDto.from(endpoint));
  }

  @Get(':endpointId')
  @RequiredScope('webhooks:read')
  @ApiOperation({
    operationId: 'getWebhookEndpoint',
    summary: 'Get a webhook endpoint',
    description: 'One of the caller’s endpoints, without its secret.',
  })
  @ApiParam(WEBHOOK_ENDPOINT_ID_PARAM)
  @ApiResponse({ status: 200, description: 'The endpoint.', type: WebhookEndpointDto })
  @ApiErrors(400, 401, WEBHOOK_ENDPOINT_NOT_FOUND)
  async getWebhookEndpoint(
    @Param('endpointId', IdParamPipe) id: number,
    @CurrentPrincipal() principal: Principal,
  ): Promise<WebhookEndpointDto> {
    return WebhookEndpointDto.from(await this.endpoints.get(principal.accountId, id));
  }

  @Patch(':endpointId')
  @RequiredScope('webhooks:write')
  @ApiOperation({
    operationId: 'updateWebhookEndpoint',
    summary: 'Change a webhook endpoint',
    description: 'Changes `url`, `events`, `description` (`null` removes it) or `enabled`; at least one.',
  })
  @ApiParam(WEBHOOK_ENDPOINT_ID_PARAM)
  @ApiResponse({ status: 200, description: 'The endpoint after the change.', type: WebhookEndpointDto })
  @ApiErrors(400, 401, WEBHOOK_ENDPOINT_NOT_FOUND)
  async updateWebhookEndpoint(
    @Param('endpointId', IdParamPipe) id: number,
    @Body() body: UpdateWebhookEndpointDto,
    @CurrentPrincipal() principal: Principal,
  ): Promise<WebhookEndpointDto> {
    return WebhookEndpointDto.from(await this.endpoints.update(principal.accountId, id, body));
  }

  @Delete(':endpointId')
  @HttpCode(204)
  @RequiredScope('webhooks:write')
  @ApiOperation({
    operationId: 'deleteWebhookEndpoint',
    summary: 'Remove a webhook endpoint',
    description: 'No more events are sent to it, pending retries included.',
  })
  @ApiParam(WEBHOOK_ENDPOINT_ID_PARAM)
  @ApiResponse({ status: 204, description: 'The endpoint was removed.' })
  @ApiErrors(400, 401, WEBHOOK_ENDPOINT_NOT_FOUND)
  async deleteWebhookEndpoint(
    @Param('endpointId', IdParamPipe) id: number,
    @CurrentPrincipal() principal: Principal,
  ): Promise<void> {
    await this.endpoints.delete(principal.accountId, id);
  }

  @Get(':endpointId/deliveries')
  @RequiredScope('webhooks:read')
  @ApiOperation({
    operationId: 'listWebhookDeliveries',
    summary: 'List an endpoint’s delivery attempts',
    description:
      'Newest first; kept 30 days. When older attempts follow, the response carries `Link: <…>; rel="next"`.',
  })
  @ApiParam(WEBHOOK_ENDPOINT_ID_PARAM)
  @ApiResponse({
    status: 200,
    description: 'A page of delivery attempts.',
    type: [WebhookDeliveryDto],
    headers: PAGE_HEADERS,
  })
  @ApiErrors(400, 401, WEBHOOK_ENDPOINT_NOT_FOUND)
  async listWebhookDeliveries(
    @Param('endpointId', IdParamPipe) id: number,
    @Query() query: ListWebhookDeliveriesQueryDto,
    @CurrentPrincipal() principal: Principal,
    @Req() request: Request,
    @Res({ passthrough: true }) response: Response,
  ): Promise<WebhookDeliveryDto[]> {
    const page = await this.endpoints.listDeliveries(principal.accountId, id, {
      limit: query.limit,
      beforeId: decodeCursor(query.cursor),
    });
    linkNextPage(request, response, { limit: query.limit }, page.lastId);
    return page.attempts.map((attempt) => WebhookDeliveryDto.from(attempt));
  }
}
