import { NOT_FOUND, type ApiTag, type ErrorCode } from '@app/http';
import type { ApiParamOptions } from '@nestjs/swagger';

export const SAVED_SEARCHES_API_TAG: ApiTag = {
  name: 'saved-searches',
  description: 'Searches of the catalogue kept by the caller, and the `saved_search.matched` alerts they send.',
};

export const SAVED_SEARCH_NOT_FOUND: ErrorCode = {
  ...NOT_FOUND,
  description: 'No saved search with this id on the caller’s account.',
  example: 'No saved search srch_3kTzq0m1Yd9c2XwB7nQe5RfA on this account.',
};

export const SAVED_SEARCH_ID_PARAM: ApiParamOptions = {
  name: 'savedSearchId',
  description: 'Identifier of the saved search.',
  schema: { type: 'string', example: 'srch_3kTzq0m1Yd9c2XwB7nQe5RfA' },
};

export const TOO_MANY_SAVED_SEARCHES: ErrorCode = {
  status: 409,
  code: 'too_many_saved_searches',
  description: 'The account already has 20 saved searches.',
  example: 'An account has at most 20 saved searches: delete one first.',
};
