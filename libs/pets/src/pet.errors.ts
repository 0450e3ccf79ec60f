import { GoneError, NotFoundError, ValidationFailedError } from '@app/core';

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
