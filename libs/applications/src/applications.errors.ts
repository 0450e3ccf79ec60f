import { AppError, NotFoundError } from '@app/core';

export class ApplicationNotFoundError extends NotFoundError {
  constructor(id: string) {
    super(`No application ${id}.`);
  }
}

export class ApplicationExistsError extends AppError {
  constructor(petId: number) {
    super(409, 'application_exists', `This contact email already has an open application for pet ${petId}.`);
  }
}

export class TooManyOpenApplicationsError extends AppError {
  constructor(max: number) {
    super(409, 'too_many_open_applications', `A contact email may have at most ${max} open applications.`);
  }
}

export class InvalidApplicationStateError extends AppError {
  constructor(message: string) {
    super(409, 'invalid_application_state', message);
  }
}

export class MeetingNotFoundError extends NotFoundError {
  constructor(id: string) {
    super(`No meeting ${id}.`);
  }
}

export class TooManyMeetingsError extends AppError {
  constructor(max: number) {
    super(409, 'too_many_meetings', `An application may have at most ${max} proposed or accepted meetings.`);
  }
}
