import { Endpoint, RequiredScope } from '@app/accounts';
import { CurrentPrincipal, Principal } from '@app/core';
import { decodeCursor, linkNextPage, Operation, PAGE_HEADERS, PageQueryDto } from '@app/http';
import { Idempotent } from '@app/idempotency';
import { applyDecorators, Body, Controller, Param, Query, Req, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import {
  APPLICATION_ID_PARAM,
  APPLICATION_NOT_FOUND,
  APPLICATIONS_API_TAG,
  INVALID_APPLICATION_STATE,
  MEETING_ID_PARAM,
  MEETING_NOT_FOUND,
  OTHER_PARTY,
  TOO_MANY_MEETINGS,
} from '../applications-openapi';
import { MeetingDto, ProposeMeetingDto } from './meeting.dto';
import { MEETING_TRANSITIONS, MeetingOperation, meetingTransitionDescription } from './meeting-transitions';
import { MeetingsService } from './meetings.service';

/** A meeting step's route and its document, from the table of steps. */
function MeetingStepRoute(operation: MeetingOperation, summary: string): MethodDecorator {
  const transition = MEETING_TRANSITIONS[operation];
  return applyDecorators(
    RequiredScope('applications:write'),
    Idempotent(),
    Operation({
      method: 'POST',
      path: `applications/:applicationId/meetings/:meetingId/${operation}`,
      id: transition.operationId,
      summary,
      description: meetingTransitionDescription(operation),
      params: [APPLICATION_ID_PARAM, MEETING_ID_PARAM],
      success: { status: 200, description: 'The meeting after the step, or as it was.', type: MeetingDto },
      errors: [401, MEETING_NOT_FOUND, ...(transition.who ? [OTHER_PARTY] : []), INVALID_APPLICATION_STATE],
    }),
  );
}

/** The meetings of an application, under `/v1/applications/{applicationId}/meetings`. */
@ApiTags(APPLICATIONS_API_TAG.name)
@ApiBearerAuth()
@Controller()
export class MeetingsController {
  constructor(private readonly meetings: MeetingsService) {}

  @Idempotent()
  @Endpoint({
    method: 'POST',
    path: 'applications/:applicationId/meetings',
    id: 'proposeMeeting',
    scope: 'applications:write',
    summary: 'Propose a meeting with the animal',
    description:
      'The lister, while the application is `under_review` or `approved`: `startsAt` in the future and at most 90 ' +
      'days ahead, 15 minutes to 4 hours long (bounds included). At most 3 proposed or accepted meetings per ' +
      'application. Both parties receive `meeting.updated`; an accepted meeting’s `meeting.reminder` comes 24 ' +
      'hours before it starts. A meeting of an application that becomes final is cancelled with it.',
    params: [APPLICATION_ID_PARAM],
    success: { status: 201, description: 'The meeting, `proposed`.', type: MeetingDto },
    errors: [400, 401, APPLICATION_NOT_FOUND, OTHER_PARTY, INVALID_APPLICATION_STATE, TOO_MANY_MEETINGS],
  })
  proposeMeeting(
    @Param('applicationId') id: string,
    @Body() body: ProposeMeetingDto,
    @CurrentPrincipal() principal: Principal,
  ): Promise<MeetingDto> {
    return this.meetings.propose(principal.accountId, id, body);
  }

  @Endpoint({
    method: 'GET',
    path: 'applications/:applicationId/meetings',
    id: 'listMeetings',
    scope: 'applications:read',
    summary: 'List an application’s meetings',
    description: 'Every meeting of the application, soonest first, whatever its state.',
    params: [APPLICATION_ID_PARAM],
    success: { status: 200, description: 'A page of meetings.', type: [MeetingDto], headers: PAGE_HEADERS },
    errors: [400, 401, APPLICATION_NOT_FOUND],
  })
  async listMeetings(
    @Param('applicationId') id: string,
    @Query() query: PageQueryDto,
    @CurrentPrincipal() principal: Principal,
    @Req() request: Request,
    @Res({ passthrough: true }) response: Response,
  ): Promise<MeetingDto[]> {
    const page = await this.meetings.list(principal.accountId, id, {
      limit: query.limit,
      offset: decodeCursor(query.cursor) ?? 0,
    });
    linkNextPage(request, response, { limit: query.limit }, page.nextOffset);
    return page.meetings;
  }

  @MeetingStepRoute('accept', 'Accept a meeting')
  acceptMeeting(
    @Param('applicationId') id: string,
    @Param('meetingId') meetingId: string,
    @CurrentPrincipal() principal: Principal,
  ) {
    return this.meetings.transition('accept', principal.accountId, id, meetingId);
  }

  @MeetingStepRoute('decline', 'Decline a meeting')
  declineMeeting(
    @Param('applicationId') id: string,
    @Param('meetingId') meetingId: string,
    @CurrentPrincipal() principal: Principal,
  ) {
    return this.meetings.transition('decline', principal.accountId, id, meetingId);
  }

  @MeetingStepRoute('cancel', 'Cancel a meeting')
  cancelMeeting(
    @Param('applicationId') id: string,
    @Param('meetingId') meetingId: string,
    @CurrentPrincipal() principal: Principal,
  ) {
    return this.meetings.transition('cancel', principal.accountId, id, meetingId);
  }
}
