import { CurrentPrincipal, Principal } from '@app/core';
import { decodeCursor, IdParamPipe, linkNextPage, locationHeader, PAGE_HEADERS } from '@app/http';
import { Idempotent } from '@app/idempotency';
import { Body, Controller, Param, Query, Req, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import {
  ListWebhookDeliveriesQueryDto,
  RedeliverWebhookEventDto,
  WebhookDeliveryDto,
} from './dto/webhook-delivery.dto';
import {
  CreateWebhookEndpointDto,
  RotateWebhookSecretDto,
  UpdateWebhookEndpointDto,
  WebhookEndpointDto,
  WebhookEndpointWithSecretDto,
  WebhookSecretRotationDto,
} from './dto/webhook-endpoint.dto';
import { WebhookEndpointAlreadyCreatedError, WebhookSecretAlreadyRotatedError } from './events.errors';
import {
  CREATE_WEBHOOK_ENDPOINT_ERRORS,
  WEBHOOK_DELIVERY_PENDING,
  WEBHOOK_ENDPOINT_DISABLED,
  WEBHOOK_ENDPOINT_ID_PARAM,
  WEBHOOK_ENDPOINT_NOT_FOUND,
  WEBHOOK_ENDPOINT_OR_EVENT_NOT_FOUND,
  WEBHOOK_SECRET_ALREADY_ROTATED,
  WEBHOOKS_API_TAG,
} from './events-openapi';
import { WebhookEndpointsService } from './webhooks/webhook-endpoints.service';
import { Endpoint } from '@app/accounts';

@ApiTags(WEBHOOKS_API_TAG.name)
@ApiBearerAuth()
@Controller('webhook-endpoints')
export class WebhookEndpointsController {
  constructor(private readonly endpoints: WebhookEndpointsService) {}

  @Idempotent<WebhookEndpointWithSecretDto, 'secret'>({
    secret: { fields: ['secret'], replay: (created) => new WebhookEndpointAlreadyCreatedError(created.id) },
  })
  @Endpoint({
    method: 'POST',
    path: '',
    id: 'createWebhookEndpoint',
    scope: 'webhooks:write',
    summary: 'Add a webhook endpoint',
    description:
      'Events of the listed types are POSTed to `url`, signed the Standard Webhooks way with the `secret` ' +
      'returned here and never shown again. Outside development the URL must be `https` and its host public.',
    success: {
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
    },
    errors: [400, 401, CREATE_WEBHOOK_ENDPOINT_ERRORS],
  })
  async createWebhookEndpoint(
    @Body() body: CreateWebhookEndpointDto,
    @CurrentPrincipal() principal: Principal,
    @Res({ passthrough: true }) response: Response,
  ): Promise<WebhookEndpointWithSecretDto> {
    const { endpoint, secret } = await this.endpoints.create(principal.accountId, body);
    response.setHeader('Location', `/v1/webhook-endpoints/${endpoint.id}`);
    return { ...WebhookEndpointDto.from(endpoint), secret };
  }

  @Endpoint({
    method: 'GET',
    id: 'listWebhookEndpoints',
    scope: 'webhooks:read',
    summary: 'List webhook endpoints',
    description: 'The caller’s endpoints (at most 10), oldest first.',
    success: {
      status: 200,
      description: 'The account’s endpoints, without their secrets.',
      type: [WebhookEndpointDto],
    },
    errors: [401],
  })
  async listWebhookEndpoints(@CurrentPrincipal() principal: Principal): Promise<WebhookEndpointDto[]> {
    return (await this.endpoints.list(principal.accountId)).map((endpoint) => WebhookEndpointDto.from(endpoint));
  }

  @Endpoint({
    method: 'GET',
    path: ':endpointId',
    id: 'getWebhookEndpoint',
    scope: 'webhooks:read',
    summary: 'Get a webhook endpoint',
    description: 'One of the caller’s endpoints, without its secret.',
    params: [WEBHOOK_ENDPOINT_ID_PARAM],
    success: { status: 200, description: 'The endpoint.', type: WebhookEndpointDto },
    errors: [400, 401, WEBHOOK_ENDPOINT_NOT_FOUND],
  })
  async getWebhookEndpoint(
    @Param('endpointId', IdParamPipe) id: number,
    @CurrentPrincipal() principal: Principal,
  ): Promise<WebhookEndpointDto> {
    return WebhookEndpointDto.from(await this.endpoints.get(principal.accountId, id));
  }

  @Endpoint({
    method: 'PATCH',
    path: ':endpointId',
    id: 'updateWebhookEndpoint',
    scope: 'webhooks:write',
    summary: 'Change a webhook endpoint',
    description: 'Changes `url`, `events`, `description` (`null` removes it) or `enabled`; at least one.',
    params: [WEBHOOK_ENDPOINT_ID_PARAM],
    success: { status: 200, description: 'The endpoint after the change.', type: WebhookEndpointDto },
    errors: [400, 401, WEBHOOK_ENDPOINT_NOT_FOUND],
  })
  async updateWebhookEndpoint(
    @Param('endpointId', IdParamPipe) id: number,
    @Body() body: UpdateWebhookEndpointDto,
    @CurrentPrincipal() principal: Principal,
  ): Promise<WebhookEndpointDto> {
    return WebhookEndpointDto.from(await this.endpoints.update(principal.accountId, id, body));
  }

  @Endpoint({
    method: 'DELETE',
    path: ':endpointId',
    id: 'deleteWebhookEndpoint',
    scope: 'webhooks:write',
    summary: 'Remove a webhook endpoint',
    description: 'No more events are sent to it, pending retries included.',
    params: [WEBHOOK_ENDPOINT_ID_PARAM],
    success: { status: 204, description: 'The endpoint was removed.' },
    errors: [400, 401, WEBHOOK_ENDPOINT_NOT_FOUND],
  })
  async deleteWebhookEndpoint(
    @Param('endpointId', IdParamPipe) id: number,
    @CurrentPrincipal() principal: Principal,
  ): Promise<void> {
    await this.endpoints.delete(principal.accountId, id);
  }

  @Endpoint({
    method: 'GET',
    path: ':endpointId/deliveries',
    id: 'listWebhookDeliveries',
    scope: 'webhooks:read',
    summary: 'List an endpoint’s delivery attempts',
    description:
      'Newest first; kept 30 days. When older attempts follow, the response carries `Link: <…>; rel="next"`.',
    params: [WEBHOOK_ENDPOINT_ID_PARAM],
    success: {
      status: 200,
      description: 'A page of delivery attempts.',
      type: [WebhookDeliveryDto],
      headers: PAGE_HEADERS,
    },
    errors: [400, 401, WEBHOOK_ENDPOINT_NOT_FOUND],
  })
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

  @Idempotent<WebhookSecretRotationDto, 'secret'>({
    secret: { fields: ['secret'], replay: (rotated) => new WebhookSecretAlreadyRotatedError(rotated.endpointId) },
  })
  @Endpoint({
    method: 'POST',
    path: ':endpointId/secret/rotate',
    id: 'rotateWebhookEndpointSecret',
    scope: 'webhooks:write',
    summary: 'Rotate a webhook endpoint’s signing secret',
    description:
      'Replaces the signing secret with a new one, shown only in this response. The secret replaced keeps ' +
      'signing for `previousSecretExpiresInHours` (24 by default, at most 168): until then every delivery ' +
      'carries one `v1,` signature per secret in `webhook-signature`, so a receiver holding either verifies it. ' +
      'Rotating again within that window ends the oldest secret at once: two secrets sign at most.',
    params: [WEBHOOK_ENDPOINT_ID_PARAM],
    success: {
      status: 200,
      description: 'The new secret, and when the replaced one stops signing.',
      type: WebhookSecretRotationDto,
    },
    errors: [400, 401, WEBHOOK_ENDPOINT_NOT_FOUND, WEBHOOK_SECRET_ALREADY_ROTATED],
  })
  async rotateWebhookEndpointSecret(
    @Param('endpointId', IdParamPipe) id: number,
    @Body() body: RotateWebhookSecretDto,
    @CurrentPrincipal() principal: Principal,
  ): Promise<WebhookSecretRotationDto> {
    const { secret, previousSecretExpiresAt } = await this.endpoints.rotateSecret(
      principal.accountId,
      id,
      body.previousSecretExpiresInHours,
    );
    return { endpointId: id, secret, previousSecretExpiresAt: previousSecretExpiresAt.toISOString() };
  }

  @Idempotent()
  @Endpoint({
    method: 'POST',
    path: ':endpointId/redeliveries',
    id: 'redeliverWebhookEvent',
    scope: 'webhooks:write',
    summary: 'Send an event to a webhook endpoint again',
    description:
      'Sends one of the caller’s events (kept 30 days) to the endpoint again, signed anew, whether or not the ' +
      'endpoint subscribes to its type. It is one attempt, never retried, numbered after the delivery’s last ' +
      'and listed among the endpoint’s deliveries with `manual: true`; its `webhook-id` is the event id, as on ' +
      'every attempt. Refused while the event’s delivery to this endpoint is still under way.',
    params: [WEBHOOK_ENDPOINT_ID_PARAM],
    success: {
      status: 202,
      description: 'The attempt, `pending`: follow it in the endpoint’s deliveries.',
      type: WebhookDeliveryDto,
    },
    errors: [400, 401, WEBHOOK_ENDPOINT_OR_EVENT_NOT_FOUND, WEBHOOK_ENDPOINT_DISABLED, WEBHOOK_DELIVERY_PENDING],
  })
  async redeliverWebhookEvent(
    @Param('endpointId', IdParamPipe) id: number,
    @Body() body: RedeliverWebhookEventDto,
    @CurrentPrincipal() principal: Principal,
  ): Promise<WebhookDeliveryDto> {
    return WebhookDeliveryDto.from(await this.endpoints.redeliver(principal.accountId, id, body.eventId));
  }

  @Idempotent()
  @Endpoint({
    method: 'POST',
    path: ':endpointId/test',
    id: 'testWebhookEndpoint',
    scope: 'webhooks:write',
    summary: 'Send a test event to a webhook endpoint',
    description:
      'Records a `webhook_endpoint.test` event whose `data.object` is the endpoint, and sends it to this ' +
      'endpoint only, whatever it subscribes to, signed as every delivery is: one attempt, never retried, ' +
      'listed among the endpoint’s deliveries with `manual: true`. The event is in the caller’s events too. ' +
      'Takes no body.',
    params: [WEBHOOK_ENDPOINT_ID_PARAM],
    success: {
      status: 202,
      description: 'The attempt, `pending`: follow it in the endpoint’s deliveries.',
      type: WebhookDeliveryDto,
    },
    errors: [400, 401, WEBHOOK_ENDPOINT_NOT_FOUND, WEBHOOK_ENDPOINT_DISABLED],
  })
  async testWebhookEndpoint(
    @Param('endpointId', IdParamPipe) id: number,
    @CurrentPrincipal() principal: Principal,
  ): Promise<WebhookDeliveryDto> {
    return WebhookDeliveryDto.from(await this.endpoints.sendTestEvent(principal.accountId, id));
  }
}
