import { randomBytes } from 'node:crypto';
import { AccountsService } from '@app/accounts';
import { EmailOutbox } from '@app/email';
import { PetsService } from '@app/pets';
import { Injectable } from '@nestjs/common';
import { searchClauses, searchTerms } from './saved-search-filters';
import { parseSavedSearchQuery } from './saved-search-query';
import { SavedSearchNotFoundError, TooManySavedSearchesError } from './saved-searches.errors';
import { SavedSearch, SavedSearchChanges, SavedSearchesRepository } from './saved-searches.repository';

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
    private readonly accounts: AccountsService,
    private readonly emails: EmailOutbox,
  ) {}

  async create(
    accountId: number,
    request: { name?: string; query: string; emailAlerts?: boolean },
  ): Promise<SavedSearch> {
    const filters = await parseSavedSearchQuery(request.query);
    if (filters.categoryId !== undefined) await this.pets.assertCategoryExists(filters.categoryId);
    if (filters.organizationId !== undefined) await this.pets.assertOrganizationExists(filters.organizationId);
    const search = await this.searches.create(
      accountId,
      {
        id: newSavedSearchId(),
        name: request.name,
        query: request.query,
        emailAlerts: request.emailAlerts ?? false,
        filters,
        terms: searchTerms(filters),
        clauses: searchClauses(filters),
      },
      MAX_SAVED_SEARCHES,
    );
    if (!search) throw new TooManySavedSearchesError(MAX_SAVED_SEARCHES);
    if (search.emailAlerts) await this.askForEmail(search);
    return search;
  }

  /** Changes its name or its email alerts; turning them on asks again for the account's address. */
  async update(accountId: number, id: string, changes: SavedSearchChanges): Promise<SavedSearch> {
    const search = await this.searches.update(accountId, id, changes);
    if (!search) throw new SavedSearchNotFoundError(id);
    if (changes.emailAlerts === true) await this.askForEmail(search);
    return search;
  }

  /** The owner wants this search's emails: a refusal of its address, or its unsubscribe from them, is lifted. */
  private async askForEmail(search: SavedSearch): Promise<void> {
    const { email } = await this.accounts.get(search.accountId);
    await this.emails.askAgain([{ address: email, list: { kind: 'saved_search', id: search.id } }]);
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
