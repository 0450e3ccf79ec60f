import { EXPORT_PAGE_ROWS, exportedAs, PersonalDataPart, PersonalDataSection } from '@app/core';
import { Injectable } from '@nestjs/common';
import { SavedSearchDto } from './dto/saved-search.dto';
import { SavedSearchesRepository } from './saved-searches.repository';

/** An account's saved searches; their alerts are events, which the events' part erases. */
@Injectable()
export class SavedSearchesPersonalData extends PersonalDataPart {
  readonly name = 'saved-searches';
  readonly tables = ['saved_searches'];
  readonly sections: readonly PersonalDataSection[];

  constructor(private readonly searches: SavedSearchesRepository) {
    super();
    this.sections = [
      {
        name: 'savedSearches',
        records: (accountId) => exportedAs(searches.exported(accountId, EXPORT_PAGE_ROWS), SavedSearchDto.from),
      },
    ];
  }

  async erase(accountId: number, batchLimit: number): Promise<boolean> {
    return (await this.searches.deleteSome(accountId, batchLimit)) === batchLimit;
  }
}
