import { randomBytes } from 'node:crypto';
import { PetsService } from '@app/pets';
import { Injectable } from '@nestjs/common';
import { searchClauses, searchTerms } from './saved-search-filters';
import { parseSavedSearchQuery } from './saved-search-query';
import { SavedSearchNotFoundError, TooManySavedSearchesError } from './saved-searches.errors';
import { SavedSearch, SavedSearchesRepository } from './saved-searches.repository';

/** At most this many saved searches per account. */
const MAX_SAVED_SEARCHES = 20;

/** `srch_` and 24 base64url characters (144 bits from the CSPRNG), as events' ids. */
function newSavedSearchId(): string {
  return `srch_${randomBytes(18).toString('base64url')}`;
}

/** An account's saved searches: the query `listPets` would take, the cap, the terms the matcher files them under. */
@Injectable()
export class SavedSearchesService {
  constructor(
    private readonly searches: SavedSearchesRepository,
    private readonly pets: PetsService,
  ) {}

  async create(accountId: number, request: { name?: string; query: string }): Promise<SavedSearch> {
    const filters = await parseSavedSearchQuery(request.query);
    if (filters.categoryId !== undefined) await this.pets.assertCategoryExists(filters.categoryId);
    if (filters.organizationId !== undefined) await this.pets.assertOrganizationExists(filters.organizationId);
    const search = await this.searches.create(
      accountId,
      {
        id: newSavedSearchId(),
        name: request.name,
        query: request.query,
        filters,
        terms: searchTerms(filters),
        clauses: searchClauses(filters),
      },
      MAX_SAVED_SEARCHES,
    );
    if (!search) throw new TooManySavedSearchesError(MAX_SAVED_SEARCHES);
    return search;
  }

  list(accountId: number): Promise<SavedSearch[]> {
    return this.searches.list(accountId);
  }

  async get(accountId: number, id: string): Promise<SavedSearch> {
    const search = await this.searches.findOne(accountId, id);
    if (!search) throw new SavedSearchNotFoundError(id);
    return search;
  }

  async delete(accountId: number, id: string): Promise<void> {
    if (!(await this.searches.delete(accountId, id))) throw new SavedSearchNotFoundError(id);
  }
}
