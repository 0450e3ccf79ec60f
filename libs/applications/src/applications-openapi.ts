import { FORBIDDEN, NOT_FOUND, type ApiTag, type ErrorCode } from '@app/http';
import type { ApiParamOptions } from '@nestjs/swagger';

export const APPLICATIONS_API_TAG: ApiTag = {
  name: 'applications',
  description:
    'Adoption applications: a lister’s form, the applications adopters submit for its animals, their states and ' +
    'the conversation of each.',
};

export const APPLICATION_ID_PARAM: ApiParamOptions = {
  name: 'applicationId',
  description: 'Identifier of the application.',
  schema: { type: 'string', example: 'app_3kTzq0m1Yd9c2XwB7nQe5RfA' },
};

export const APPLICATION_NOT_FOUND: ErrorCode = {
  ...NOT_FOUND,
  description: 'No such application, or one the caller is no party of.',
  example: 'No application app_3kTzq0m1Yd9c2XwB7nQe5RfA.',
};

export const INVALID_APPLICATION_STATE: ErrorCode = {
  status: 409,
  code: 'invalid_application_state',
  description: 'The application’s state does not allow it.',
  example: 'An application that is declined cannot be asked to approve.',
};

export const OTHER_PARTY: ErrorCode = {
  ...FORBIDDEN,
  description: 'The other party of the application asked.',
  example: 'Only the lister may approve this application.',
};

export const PET_NOT_AVAILABLE: ErrorCode = {
  status: 409,
  code: 'pet_not_available',
  description: 'The pet is not `available`.',
  example: 'Pet 42 is not available.',
};

/** submitApplication's own error codes. */
export const SUBMIT_APPLICATION_ERRORS: readonly ErrorCode[] = [
  {
    ...FORBIDDEN,
    description: 'The pet is listed by the caller’s own account.',
    example: 'Pet 42 is listed by your account.',
  },
  { ...NOT_FOUND, description: 'No animal with this id.', example: 'No pet 42.' },
  PET_NOT_AVAILABLE,
  {
    status: 409,
    code: 'application_exists',
    description: 'The contact email already has an open application for this pet.',
    example: 'This contact email already has an open application for pet 42.',
  },
  {
    status: 409,
    code: 'too_many_open_applications',
    description: 'The contact email already has `APPLICATIONS_MAX_OPEN_PER_APPLICANT` open applications.',
    example: 'A contact email may have at most 5 open applications.',
  },
];

export const MEETING_ID_PARAM: ApiParamOptions = {
  name: 'meetingId',
  description: 'Identifier of the meeting.',
  schema: { type: 'string', example: 'mtg_3kTzq0m1Yd9c2XwB7nQe5RfA' },
};

export const MEETING_NOT_FOUND: ErrorCode = {
  ...NOT_FOUND,
  description: 'No such meeting of this application, or an application the caller is no party of.',
  example: 'No meeting mtg_3kTzq0m1Yd9c2XwB7nQe5RfA.',
};

export const TOO_MANY_MEETINGS: ErrorCode = {
  status: 409,
  code: 'too_many_meetings',
  description: 'The application already has 3 proposed or accepted meetings.',
  example: 'An application may have at most 3 proposed or accepted meetings.',
};
