import { CurrentPrincipal, Principal } from '@app/core';
import { ApiErrors, decodeCursor, linkNextPage, locationHeader, NOT_FOUND, PAGE_HEADERS } from '@app/http';
import { Idempotent } from '@app/idempotency';
import { Body, Controller, Get, HttpCode, Param, Post, Query, Req, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiParam, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { ListMessagesQueryDto, MessageDto, SendMessageDto } from './dto/message.dto';
import { MessagesService } from './messages.service';
import { MESSAGES_API_TAG } from './messages-openapi';
import { RequiredScope } from '@app/accounts';

@ApiTags(MESSAGES_API_TAG.name)
@ApiBearerAuth()
@Controller('messages')
export class MessagesController {
  constructor(private readonly messages: MessagesService) {}

  @Post()
  @HttpCode(202)
  @Idempotent()
  @RequiredScope('messages:write')
  @ApiOperation({
    operationId: 'sendMessage',
    summary: 'Send a message',
    description:
      'Stores the message and queues it for delivery; the answer does not wait for delivery. A 202 is a ' +
      'promise: the message is delivered even if the queue or every worker is down at that moment. Follow ' +
      '`Location` (GET /messages/{id}) to see it become `sent` (or `failed`).',
  })
  @ApiResponse({
    status: 202,
    description: 'Accepted and queued.',
    type: MessageDto,
    headers: locationHeader('/messages/msg_4ZfQ0hB2kT9xLmN7pR1sV3wY'),
  })
  @ApiErrors(400, 401)
  async sendMessage(
    @Body() body: SendMessageDto,
    @CurrentPrincipal() principal: Principal,
    @Res({ passthrough: true }) response: Response,
  ): Promise<MessageDto> {
    const message = await this.messages.accept(principal.accountId, body.message);
    response.setHeader('Location', `/messages/${message.id}`);
    return message;
  }

  @Get()
  @RequiredScope('messages:read')
  @ApiOperation({
    operationId: 'listMessages',
    summary: 'List the caller’s messages',
    description: 'Newest first. When older messages follow, the response carries `Link: <…&cursor=…>; rel="next"`.',
  })
  @ApiResponse({
    status: 200,
    description: 'A page of messages.',
    type: [MessageDto],
    headers: PAGE_HEADERS,
  })
  @ApiErrors(400, 401)
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

  @Get(':id')
  @RequiredScope('messages:read')
  @ApiOperation({
    operationId: 'getMessage',
    summary: 'Get a message',
    description: 'One of the caller’s messages, with its current status; another account’s answers 404.',
  })
  @ApiParam({
    name: 'id',
    description: 'Identifier of the message.',
    schema: { type: 'string', example: 'msg_4ZfQ0hB2kT9xLmN7pR1sV3wY' },
  })
  @ApiResponse({ status: 200, description: 'The message, with its current status.', type: MessageDto })
  @ApiErrors(401, { ...NOT_FOUND, example: 'No message msg_4ZfQ0hB2kT9xLmN7pR1sV3wY.' })
  getMessage(@Param('id') id: string, @CurrentPrincipal() principal: Principal): Promise<MessageDto> {
    return this.messages.get(principal.accountId, id);
  }
}
