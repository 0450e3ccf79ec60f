import { Endpoint } from '@app/accounts';
import { CurrentPrincipal, Principal } from '@app/core';
import { IdParamPipe } from '@app/http';
import { PET_ID_PARAM, PET_NOT_FOUND } from '@app/pets';
import { Body, Controller, Param } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { ApplicationFormsService } from './application-forms.service';
import { APPLICATIONS_API_TAG } from './applications-openapi';
import { ApplicationFormDto, PetApplicationFormDto, PutApplicationFormDto } from './dto/application-form.dto';

/** `/v1/application-form` and the form of a pet's lister. */
@ApiTags(APPLICATIONS_API_TAG.name)
@ApiBearerAuth()
@Controller()
export class ApplicationFormsController {
  constructor(private readonly forms: ApplicationFormsService) {}

  @Endpoint({
    method: 'PUT',
    path: 'application-form',
    id: 'putApplicationForm',
    scope: 'applications:write',
    summary: 'Set the application form',
    description:
      'Replaces the caller’s form: the questions applicants answer for its animals, 0 to 30, names unique. ' +
      '`version` grows by one when `fields` change; submitted applications keep the questions they answered.',
    success: { status: 200, description: 'The form as put.', type: ApplicationFormDto },
    errors: [400, 401],
  })
  putApplicationForm(@Body() body: PutApplicationFormDto, @CurrentPrincipal() principal: Principal) {
    return this.forms.put(principal.accountId, body);
  }

  @Endpoint({
    method: 'GET',
    path: 'application-form',
    id: 'getApplicationForm',
    scope: 'applications:read',
    summary: 'Get the application form',
    description: 'The caller’s form; `{ "version": 0, "fields": [] }` for a lister that never set one.',
    success: { status: 200, description: 'The form.', type: ApplicationFormDto },
    errors: [401],
  })
  getApplicationForm(@CurrentPrincipal() principal: Principal) {
    return this.forms.get(principal.accountId);
  }

  @Endpoint({
    method: 'GET',
    path: 'pets/:petId/application-form',
    id: 'getPetApplicationForm',
    scope: 'pets:read',
    publishable: true,
    summary: 'Get the form to apply for a pet',
    description: 'The questions of the pet’s lister, as they are now: what `submitApplication` checks answers against.',
    params: [PET_ID_PARAM],
    success: { status: 200, description: 'The form’s version and questions.', type: PetApplicationFormDto },
    errors: [400, 401, PET_NOT_FOUND],
  })
  getPetApplicationForm(@Param('petId', IdParamPipe) petId: number): Promise<PetApplicationFormDto> {
    return this.forms.petQuestions(petId);
  }
}
