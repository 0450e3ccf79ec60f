import { Endpoint, RequiredScope } from '@app/accounts';
import { CurrentPrincipal, Principal } from '@app/core';
import {
  decodeCursor,
  IdParamPipe,
  linkNextPage,
  locationHeader,
  Operation,
  PAGE_HEADERS,
  PageQueryDto,
} from '@app/http';
import { Idempotent } from '@app/idempotency';
import { PET_ID_PARAM } from '@app/pets';
import { applyDecorators, Body, Controller, Param, Query, Req, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { APPLICATION_TRANSITIONS, ApplicationOperation, transitionDescription } from './application-transitions';
import {
  APPLICATION_ID_PARAM,
  APPLICATION_NOT_FOUND,
  APPLICATIONS_API_TAG,
  INVALID_APPLICATION_STATE,
  OTHER_PARTY,
  PET_NOT_AVAILABLE,
  SUBMIT_APPLICATION_ERRORS,
} from './applications-openapi';
import { ApplicationsService } from './applications.service';
import { ApplicationMessageDto, NewApplicationMessageDto } from './dto/application-message.dto';
import {
  ApplicationDto,
  ApplicationReasonDto,
  ListApplicationsQueryDto,
  SubmitApplicationDto,
} from './dto/application.dto';

const APPLICATION_RESPONSE = { status: 200, description: 'The application.', type: ApplicationDto };

/** A transition's route and its document, from the table of transitions. */
function TransitionRoute(operation: ApplicationOperation, summary: string): MethodDecorator {
  const transition = APPLICATION_TRANSITIONS[operation];
  return applyDecorators(
    RequiredScope('applications:write'),
    Idempotent(),
    Operation({
      method: 'POST',
      path: `applications/:applicationId/${operation}`,
      id: transition.operationId,
      summary,
      description: transitionDescription(operation),
      params: [APPLICATION_ID_PARAM],
      body: transition.takesReason ? { type: ApplicationReasonDto, required: false } : undefined,
      success: { ...APPLICATION_RESPONSE, description: 'The application after the transition, or as it was.' },
      errors: [
        400,
        401,
        APPLICATION_NOT_FOUND,
        OTHER_PARTY,
        INVALID_APPLICATION_STATE,
        ...(operation === 'approve' ? [PET_NOT_AVAILABLE] : []),
      ],
    }),
  );
}

/** Adoption applications under `/v1/applications`, and their submission under the pet. */
@ApiTags(APPLICATIONS_API_TAG.name)
@ApiBearerAuth()
@Controller()
export class ApplicationsController {
  constructor(private readonly applications: ApplicationsService) {}

  @Idempotent()
  @Endpoint({
    method: 'POST',
    path: 'pets/:petId/applications',
    id: 'submitApplication',
    scope: 'applications:write',
    summary: 'Apply to adopt a pet',
    description:
      'Submits the answers to the pet’s lister’s form, as it is now, with whom to contact. An unknown field, a ' +
      'required one unanswered or an answer of the wrong type answers 400 naming the field. One contact email ' +
      'has at most one open application per pet, and `APPLICATIONS_MAX_OPEN_PER_APPLICANT` in all: the caps ' +
      'count people, not accounts. The pet stays `available`. `message` is the conversation’s first message.',
    params: [PET_ID_PARAM],
    success: {
      status: 201,
      description: 'The application, `submitted`.',
      type: ApplicationDto,
      headers: locationHeader('/v1/applications/app_3kTzq0m1Yd9c2XwB7nQe5RfA'),
      links: {
        getApplication: {
          operationId: 'getApplication',
          parameters: { applicationId: '$response.body#/id' },
          description: 'The application just submitted.',
        },
      },
    },
    errors: [400, 401, SUBMIT_APPLICATION_ERRORS],
  })
  async submitApplication(
    @Param('petId', IdParamPipe) petId: number,
    @Body() body: SubmitApplicationDto,
    @CurrentPrincipal() principal: Principal,
    @Res({ passthrough: true }) response: Response,
  ): Promise<ApplicationDto> {
    const application = await this.applications.submit(principal.accountId, petId, body);
    response.setHeader('Location', `/v1/applications/${application.id}`);
    return application;
  }

  @Endpoint({
    method: 'GET',
    path: 'applications',
    id: 'listApplications',
    scope: 'applications:read',
    summary: 'List the caller’s applications',
    description:
      'The applications the caller made and those it received for its pets, newest first. When older ones ' +
      'follow, the response carries `Link: <…&cursor=…>; rel="next"`.',
    success: { status: 200, description: 'A page of applications.', type: [ApplicationDto], headers: PAGE_HEADERS },
    errors: [400, 401],
  })
  async listApplications(
    @Query() query: ListApplicationsQueryDto,
    @CurrentPrincipal() principal: Principal,
    @Req() request: Request,
    @Res({ passthrough: true }) response: Response,
  ): Promise<ApplicationDto[]> {
    const filters = { limit: query.limit, role: query.role, status: query.status, petId: query.petId };
    const page = await this.applications.list(principal.accountId, {
      ...filters,
      beforeSeq: decodeCursor(query.cursor),
    });
    linkNextPage(request, response, filters, page.lastSeq);
    return page.applications;
  }

  @Endpoint({
    method: 'GET',
    path: 'applications/:applicationId',
    id: 'getApplication',
    scope: 'applications:read',
    summary: 'Get an application',
    description: 'An application the caller made or received; the lister sees `contact` from `under_review` on.',
    params: [APPLICATION_ID_PARAM],
    success: APPLICATION_RESPONSE,
    errors: [401, APPLICATION_NOT_FOUND],
  })
  getApplication(@Param('applicationId') id: string, @CurrentPrincipal() principal: Principal) {
    return this.applications.get(principal.accountId, id);
  }

  @TransitionRoute('review', 'Start reviewing an application')
  reviewApplication(@Param('applicationId') id: string, @CurrentPrincipal() principal: Principal) {
    return this.applications.transition('review', principal.accountId, id);
  }

  @TransitionRoute('approve', 'Approve an application')
  approveApplication(@Param('applicationId') id: string, @CurrentPrincipal() principal: Principal) {
    return this.applications.transition('approve', principal.accountId, id);
  }

  @TransitionRoute('decline', 'Decline an application')
  declineApplication(
    @Param('applicationId') id: string,
    @Body() body: ApplicationReasonDto,
    @CurrentPrincipal() principal: Principal,
  ) {
    return this.applications.transition('decline', principal.accountId, id, body.reason);
  }

  @TransitionRoute('withdraw', 'Withdraw an application')
  withdrawApplication(
    @Param('applicationId') id: string,
    @Body() body: ApplicationReasonDto,
    @CurrentPrincipal() principal: Principal,
  ) {
    return this.applications.transition('withdraw', principal.accountId, id, body.reason);
  }

  @Idempotent()
  @Endpoint({
    method: 'POST',
    path: 'applications/:applicationId/messages',
    id: 'sendApplicationMessage',
    scope: 'applications:write',
    summary: 'Write in an application’s conversation',
    description: 'Either party, while the application is open; the other party receives `application.message`.',
    params: [APPLICATION_ID_PARAM],
    success: { status: 201, description: 'The message.', type: ApplicationMessageDto },
    errors: [400, 401, APPLICATION_NOT_FOUND, INVALID_APPLICATION_STATE],
  })
  sendApplicationMessage(
    @Param('applicationId') id: string,
    @Body() body: NewApplicationMessageDto,
    @CurrentPrincipal() principal: Principal,
  ): Promise<ApplicationMessageDto> {
    return this.applications.sendMessage(principal.accountId, id, body.body);
  }

  @Endpoint({
    method: 'GET',
    path: 'applications/:applicationId/messages',
    id: 'listApplicationMessages',
    scope: 'applications:read',
    summary: 'Read an application’s conversation',
    description: 'Its messages, oldest first, the submission’s `message` first if it had one.',
    params: [APPLICATION_ID_PARAM],
    success: { status: 200, description: 'A page of messages.', type: [ApplicationMessageDto], headers: PAGE_HEADERS },
    errors: [400, 401, APPLICATION_NOT_FOUND],
  })
  async listApplicationMessages(
    @Param('applicationId') id: string,
    @Query() query: PageQueryDto,
    @CurrentPrincipal() principal: Principal,
    @Req() request: Request,
    @Res({ passthrough: true }) response: Response,
  ): Promise<ApplicationMessageDto[]> {
    const page = await this.applications.listMessages(principal.accountId, id, {
      limit: query.limit,
      afterSeq: decodeCursor(query.cursor),
    });
    linkNextPage(request, response, { limit: query.limit }, page.lastSeq);
    return page.messages;
  }
}
