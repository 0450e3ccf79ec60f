import { parse } from 'node:querystring';
import { ValidationFailedError } from '@app/core';
import { AppValidationPipe } from '@app/http';
import { ListPetsQueryDto } from '@app/pets';
import { filtersOf, REFUSED_PARAMETERS, SavedSearchFilters } from './saved-search-filters';

const pipe = new AppValidationPipe();

/**
 * The filters of a saved search's `query`, validated by the very pipe and class that validate `listPets`'
 * query (so the two never disagree on what a filter means or refuses), after refusing the parameters a
 * saved search does not take. The query string is read as Express reads `listPets`' (`node:querystring`:
 * a repeated parameter is an array, which the validation refuses).
 */
export async function parseSavedSearchQuery(query: string): Promise<SavedSearchFilters> {
  const parameters = parse(query);
  const refused = REFUSED_PARAMETERS.find((name) => Object.hasOwn(parameters, name));
  if (refused) {
    const message = `query parameter ${refused} is not taken by a saved search`;
    throw new ValidationFailedError(message, [{ field: `query.${refused}`, message }]);
  }
  try {
    const validated = (await pipe.transform(
      { ...parameters },
      { type: 'query', metatype: ListPetsQueryDto },
    )) as ListPetsQueryDto;
    return filtersOf(validated);
  } catch (error) {
    if (!(error instanceof ValidationFailedError)) throw error;
    // The same failure as listPets', named as a parameter of `query`.
    const details = error.details?.map((detail) => ({ field: `query.${detail.field}`, message: detail.message }));
    throw new ValidationFailedError(`query: ${error.message}`, details);
  }
}
