import { CurrentPrincipal, Principal } from '@app/core';
import { decodeCursor, Operation, IdParamPipe, linkNextPage, locationHeader, PAGE_HEADERS } from '@app/http';
import { Idempotent } from '@app/idempotency';
import { applyDecorators, Body, Controller, Param, Query, Req, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { InventoryDto, ListOrdersQueryDto, NewOrderDto, OrderDto, OrderReasonDto } from './dto/order.dto';
import { ORDER_TRANSITIONS, OrderOperation, transitionDescription } from './order-transitions';
import { OrdersService } from './orders.service';
import { ORDER_NOT_FOUND, PLACE_ORDER_ERRORS, STORE_API_TAG, transitionErrors } from './orders-openapi';
import { Endpoint, RequiredScope } from '@app/accounts';

const ORDER_ID = {
  name: 'orderId',
  description: 'Identifier of the order.',
  schema: { type: 'integer' as const, format: 'int64', minimum: 1 },
};
const ORDER_RESPONSE = { status: 200, description: 'The order.', type: OrderDto };

/** A transition's route and its document, from the state machine's table; cancel and return take a reason. */
function TransitionRoute(operation: Exclude<OrderOperation, 'expire'>, summary: string): MethodDecorator {
  const transition = ORDER_TRANSITIONS[operation];
  const takesReason = operation === 'cancel' || operation === 'return';
  // The scope and idempotency first: the document lists their codes and header ahead of the operation's.
  return applyDecorators(
    RequiredScope('orders:write'),
    Idempotent(),
    Operation({
      method: 'POST',
      path: `orders/:orderId/${operation}`,
      id: transition.operationId ?? `${operation}Order`,
      summary,
      description: transitionDescription(operation),
      params: [ORDER_ID],
      body: takesReason ? { type: OrderReasonDto, required: false } : undefined,
      success: { ...ORDER_RESPONSE, description: 'The order after the transition, or as it was if already there.' },
      errors: [400, 401, transitionErrors(transition)],
    }),
  );
}

/** The store: adoption orders under `/v1/store`. */
@ApiTags(STORE_API_TAG.name)
@ApiBearerAuth()
@Controller('store')
export class OrdersController {
  constructor(private readonly orders: OrdersService) {}

  @Idempotent()
  @Endpoint({
    method: 'POST',
    path: 'orders',
    id: 'placeOrder',
    scope: 'orders:write',
    summary: 'Place an adoption order',
    description:
      'Orders an `available` pet listed by another account. In the same transaction the pet becomes `pending`, ' +
      'held by the order until `expiresAt`; a hold nobody decides by then is cancelled (`expired`) and the ' +
      'pet is `available` again. Of many orders for one pet placed at once, exactly one is placed.',
    success: {
      status: 201,
      description: 'The order, `placed`.',
      type: OrderDto,
      headers: locationHeader('/v1/store/orders/1'),
      links: {
        getOrderById: {
          operationId: 'getOrderById',
          parameters: { orderId: '$response.body#/id' },
          description: 'The order just placed.',
        },
      },
    },
    errors: [400, 401, PLACE_ORDER_ERRORS],
  })
  async placeOrder(
    @Body() body: NewOrderDto,
    @CurrentPrincipal() principal: Principal,
    @Res({ passthrough: true }) response: Response,
  ): Promise<OrderDto> {
    const order = await this.orders.place(principal.accountId, body);
    response.setHeader('Location', `/v1/store/orders/${order.id}`);
    return order;
  }

  @Endpoint({
    method: 'GET',
    path: 'orders',
    id: 'listOrders',
    scope: 'orders:read',
    summary: 'List the caller’s orders',
    description:
      'The orders the caller placed and those it received for its pets, newest first. When older orders ' +
      'follow, the response carries `Link: <…&cursor=…>; rel="next"`.',
    success: { status: 200, description: 'A page of orders.', type: [OrderDto], headers: PAGE_HEADERS },
    errors: [400, 401],
  })
  async listOrders(
    @Query() query: ListOrdersQueryDto,
    @CurrentPrincipal() principal: Principal,
    @Req() request: Request,
    @Res({ passthrough: true }) response: Response,
  ): Promise<OrderDto[]> {
    const filters = { limit: query.limit, status: query.status, role: query.role, petId: query.petId };
    const page = await this.orders.list(principal.accountId, { ...filters, beforeId: decodeCursor(query.cursor) });
    linkNextPage(request, response, filters, page.lastId);
    return page.orders;
  }

  @Endpoint({
    method: 'GET',
    path: 'orders/:orderId',
    id: 'getOrderById',
    scope: 'orders:read',
    summary: 'Get an order',
    description: 'An order the caller placed or received for its pet; anyone else’s answers 404.',
    params: [ORDER_ID],
    success: ORDER_RESPONSE,
    errors: [400, 401, ORDER_NOT_FOUND],
  })
  getOrderById(@Param('orderId', IdParamPipe) orderId: number, @CurrentPrincipal() principal: Principal) {
    return this.orders.get(principal.accountId, orderId);
  }

  @TransitionRoute('approve', 'Approve an order')
  approveOrder(@Param('orderId', IdParamPipe) orderId: number, @CurrentPrincipal() principal: Principal) {
    return this.orders.transition('approve', principal.accountId, orderId);
  }

  @TransitionRoute('deliver', 'Record a delivery')
  deliverOrder(@Param('orderId', IdParamPipe) orderId: number, @CurrentPrincipal() principal: Principal) {
    return this.orders.transition('deliver', principal.accountId, orderId);
  }

  @TransitionRoute('cancel', 'Cancel an order')
  cancelOrder(
    @Param('orderId', IdParamPipe) orderId: number,
    @Body() body: OrderReasonDto,
    @CurrentPrincipal() principal: Principal,
  ) {
    return this.orders.transition('cancel', principal.accountId, orderId, body.reason);
  }

  @TransitionRoute('return', 'Take a pet back')
  returnOrder(
    @Param('orderId', IdParamPipe) orderId: number,
    @Body() body: OrderReasonDto,
    @CurrentPrincipal() principal: Principal,
  ) {
    return this.orders.transition('return', principal.accountId, orderId, body.reason);
  }

  @Endpoint({
    method: 'GET',
    path: 'inventory',
    id: 'getInventory',
    scope: 'pets:read',
    summary: 'Count the catalogue’s pets by status',
    description:
      'How many pets of the whole catalogue have each status: exact once writes have settled, and as cheap ' +
      'with a million pets as with ten.',
    success: { status: 200, description: 'The counts.', type: InventoryDto },
    errors: [401],
  })
  getInventory(): Promise<InventoryDto> {
    return this.orders.readInventory();
  }
}
