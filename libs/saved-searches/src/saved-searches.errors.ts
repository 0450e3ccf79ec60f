import { AppError, NotFoundError } from '@app/core';

export class SavedSearchNotFoundError extends NotFoundError {
  constructor(id: string) {
    super(`No saved search ${id} on this account.`);
  }
}

export class TooManySavedSearchesError extends AppError {
  constructor(max: number) {
    super(409, 'too_many_saved_searches', `An account has at most ${max} saved searches: delete one first.`);
  }
}
