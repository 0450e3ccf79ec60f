import { CurrentPrincipal, Principal } from '@app/core';
import { decodeCursor, linkNextPage, locationHeader, NOT_FOUND, PAGE_HEADERS } from '@app/http';
import { Idempotent } from '@app/idempotency';
import { Body, Controller, Param, Query, Req, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { ListMessagesQueryDto, MessageDto, SendMessageDto } from './dto/message.dto';
import { MessagesService } from './messages.service';
import { MESSAGES_API_TAG } from './messages-openapi';
import { Endpoint } from '@app/accounts';

@ApiTags(MESSAGES_API_TAG.name)
@ApiBearerAuth()
@Controller('messages')
export class MessagesController {
  constructor(private readonly messages: MessagesService) {}

  @Idempotent()
  @Endpoint({
    method: 'POST',
    id: 'sendMessage',
    scope: 'messages:write',
    summary: 'Send a message',
    description:
      'Stores the message and queues it for delivery; the answer does not wait for delivery. A 202 is a ' +
      'promise: the message is delivered even if the queue or every worker is down at that moment. Follow ' +
      '`Location` (GET /messages/{id}) to see it become `sent` (or `failed`).',
    success: {
      status: 202,
      description: 'Accepted and queued.',
      type: MessageDto,
      headers: locationHeader('/messages/msg_4ZfQ0hB2kT9xLmN7pR1sV3wY'),
    },
    errors: [400, 401],
  })
  async sendMessage(
    @Body() body: SendMessageDto,
    @CurrentPrincipal() principal: Principal,
    @Res({ passthrough: true }) response: Response,
  ): Promise<MessageDto> {
    const message = await this.messages.accept(principal.accountId, body.message);
    response.setHeader('Location', `/messages/${message.id}`);
    return message;
  }

  @Endpoint({
    method: 'GET',
    id: 'listMessages',
    scope: 'messages:read',
    summary: 'List the caller’s messages',
    description: 'Newest first. When older messages follow, the response carries `Link: <…&cursor=…>; rel="next"`.',
    success: {
      status: 200,
      description: 'A page of messages.',
      type: [MessageDto],
      headers: PAGE_HEADERS,
    },
    errors: [400, 401],
  })
  async listMessages(
    @Query() query: ListMessagesQueryDto,
    @CurrentPrincipal() principal: Principal,
    @Req() request: Request,
    @Res({ passthrough: true }) response: Response,
  ): Promise<MessageDto[]> {
    const page = await this.messages.list(principal.accountId, {
      limit: query.limit,
      status: query.status,
      beforeSeq: decodeCursor(query.cursor),
    });
    linkNextPage(request, response, { limit: query.limit, status: query.status }, page.lastSeq);
    return page.messages;
  }

  @Endpoint({
    method: 'GET',
    path: ':id',
    id: 'getMessage',
    scope: 'messages:read',
    summary: 'Get a message',
    description: 'One of the caller’s messages, with its current status; another account’s answers 404.',
    params: [
      {
        name: 'id',
        description: 'Identifier of the message.',
        schema: { type: 'string', example: 'msg_4ZfQ0hB2kT9xLmN7pR1sV3wY' },
      },
    ],
    success: { status: 200, description: 'The message, with its current status.', type: MessageDto },
    errors: [401, { ...NOT_FOUND, example: 'No message msg_4ZfQ0hB2kT9xLmN7pR1sV3wY.' }],
  })
  getMessage(@Param('id') id: string, @CurrentPrincipal() principal: Principal): Promise<MessageDto> {
    return this.messages.get(principal.accountId, id);
  }
}
