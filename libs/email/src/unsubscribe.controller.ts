import { Endpoint } from '@app/accounts';
import { AcceptsFormBody } from '@app/http';
import { Controller, Param, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { UNSUBSCRIBE_ROUTE } from './email-addresses';
import { EMAIL_API_TAG, HTML_PAGE, UNSUBSCRIBE_LINK_NOT_FOUND, UNSUBSCRIBE_TOKEN_PARAM } from './email-openapi';
import { confirmationPage, unsubscribedPage } from './unsubscribe-pages';
import { UnsubscribeService } from './unsubscribe.service';

/** Typed once the page is made: an error keeps its JSON type. */
const HTML = 'text/html; charset=utf-8';

/** `/v1/unsubscribe/{token}`: the link of every email, one click (RFC 8058) and its page. */
@ApiTags(EMAIL_API_TAG.name)
@Controller(UNSUBSCRIBE_ROUTE)
export class UnsubscribeController {
  constructor(private readonly unsubscribes: UnsubscribeService) {}

  @AcceptsFormBody()
  @Endpoint({
    method: 'POST',
    path: ':token',
    id: 'unsubscribe',
    scope: 'public',
    summary: 'Unsubscribe from a list of emails',
    description:
      'The one-click unsubscribe (RFC 8058) of the link in an email’s `List-Unsubscribe` header and body, with no ' +
      'key: the address leaves the list the link names (one application, one saved search, or a shelter’s ' +
      'notifications), and is sent nothing more of it. Takes the body mailbox providers send ' +
      '(`List-Unsubscribe=One-Click` as a form) or none. Repeating it is harmless.',
    params: [UNSUBSCRIBE_TOKEN_PARAM],
    requestBody: {
      required: false,
      content: {
        'application/x-www-form-urlencoded': {
          schema: { type: 'object', properties: { 'List-Unsubscribe': { type: 'string', enum: ['One-Click'] } } },
        },
      },
    },
    success: { status: 200, description: 'Unsubscribed: a page that says so.', content: HTML_PAGE },
    errors: [UNSUBSCRIBE_LINK_NOT_FOUND],
  })
  async unsubscribe(@Param('token') token: string, @Res({ passthrough: true }) response: Response): Promise<string> {
    const target = await this.unsubscribes.unsubscribe(token);
    response.type(HTML);
    return unsubscribedPage(target.addressKey, target.list);
  }

  @Endpoint({
    method: 'GET',
    path: ':token',
    id: 'getUnsubscribePage',
    scope: 'public',
    summary: 'The page of an unsubscribe link',
    description:
      'What a person who follows the link sees: the list it names and a button that sends `unsubscribe`. It changes ' +
      'nothing by itself, since mail scanners fetch links.',
    params: [UNSUBSCRIBE_TOKEN_PARAM],
    success: { status: 200, description: 'The confirmation page.', content: HTML_PAGE },
    errors: [UNSUBSCRIBE_LINK_NOT_FOUND],
  })
  getUnsubscribePage(@Param('token') token: string, @Res({ passthrough: true }) response: Response): string {
    const target = this.unsubscribes.target(token);
    response.type(HTML);
    return confirmationPage(target.addressKey, target.list);
  }
}
