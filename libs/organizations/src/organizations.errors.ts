import { AppError, NotFoundError, ValidationFailedError } from '@app/core';

export class NoOrganizationError extends NotFoundError {
  constructor() {
    super('Your account has published no organization: PUT /v1/organization publishes one.');
  }
}

export class OrganizationNotFoundError extends NotFoundError {
  constructor(organizationId: string) {
    super(`No organization ${organizationId}.`);
  }
}

export class OrganizationPreconditionFailedError extends AppError {
  constructor() {
    super(412, 'precondition_failed', 'If-Match matches no current ETag of your organization; fetch it again.');
  }
}

export class EmptyOrganizationChangeError extends ValidationFailedError {
  constructor() {
    super('The change must set at least one field.');
  }
}
