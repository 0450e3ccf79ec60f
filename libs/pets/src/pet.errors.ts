import { AppError, ForbiddenError, GoneError, NotFoundError, ValidationFailedError } from '@app/core';

export class PetNotFoundError extends NotFoundError {
  constructor(petId: number) {
    super(`No pet ${petId}.`);
  }
}

export class UnknownCategoryError extends ValidationFailedError {
  constructor(categoryId: number) {
    super(`categoryId ${categoryId} does not name a category`, [
      { field: 'categoryId', message: `categoryId ${categoryId} does not name a category` },
    ]);
  }
}

export class GetPetSunsetError extends GoneError {
  constructor() {
    super('GET /pets/{petId} was removed on 5 December 2030; use GET /pets with the status filter.');
  }
}

export class NotListerError extends ForbiddenError {
  constructor(petId: number) {
    super(`Only the account that listed pet ${petId} may change or remove it.`);
  }
}

export class PetHasOpenOrderError extends AppError {
  constructor(petId: number) {
    super(
      409,
      'pet_has_open_order',
      `Pet ${petId} has a placed or approved order: its status changes only through that order, and it cannot be removed.`,
    );
  }
}

export class PreconditionFailedError extends AppError {
  /** @param petId the pet's id, or the external id that names it */
  constructor(petId: number | string) {
    super(412, 'precondition_failed', `If-Match matches no current ETag of pet ${petId}; fetch it again.`);
  }
}

export class EmptyPetChangeError extends ValidationFailedError {
  constructor() {
    super('The change must set at least one field.');
  }
}

export class ExternalIdTakenError extends AppError {
  constructor(externalId: string) {
    super(409, 'external_id_taken', `Another of your pets has the externalId ${externalId}.`);
  }
}

export class UnknownOrganizationError extends ValidationFailedError {
  constructor(organizationId: string) {
    super(`organizationId ${organizationId} does not name an organization`, [
      { field: 'organizationId', message: `organizationId ${organizationId} does not name an organization` },
    ]);
  }
}
