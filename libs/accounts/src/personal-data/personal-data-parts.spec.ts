import { PersonalDataPart, PersonalDataSection } from '@app/core';
import { assertCovered, orderParts } from './personal-data-parts';

class Part extends PersonalDataPart {
  constructor(
    readonly name: string,
    readonly tables: readonly string[] = [],
    override readonly erasedAfter: readonly string[] = [],
    readonly sections: readonly PersonalDataSection[] = [],
  ) {
    super();
  }

  async erase(): Promise<boolean> {
    return false;
  }
}

const section = (name: string): PersonalDataSection => ({ name, records: async function* () {} });

describe('orderParts', () => {
  it('puts each part after those it is erased after, and keeps the order found otherwise', () => {
    const events = new Part('events', [], ['orders', 'pets']);
    const pets = new Part('pets', [], ['orders']);
    const orders = new Part('orders');
    const searches = new Part('saved-searches');
    expect(orderParts([events, pets, searches, orders]).map((part) => part.name)).toEqual([
      'orders',
      'pets',
      'events',
      'saved-searches',
    ]);
  });

  it('refuses a cycle, an unknown part, and names or sections given twice', () => {
    expect(() => orderParts([new Part('a', [], ['b']), new Part('b', [], ['a'])])).toThrow(
      'the personal-data part "a" is erased after itself',
    );
    expect(() => orderParts([new Part('a', [], ['missing'])])).toThrow('"missing", which no context provides');
    expect(() => orderParts([new Part('a'), new Part('a')])).toThrow('two personal-data parts are named "a"');
    expect(() =>
      orderParts([new Part('a', [], [], [section('pets')]), new Part('b', [], [], [section('pets')])]),
    ).toThrow('two personal-data parts give the export section "pets"');
  });
});

describe('assertCovered', () => {
  const parts = [new Part('orders', ['orders']), new Part('pets', ['pets'])];

  it('passes when every table with an account column is some part’s', () => {
    expect(() =>
      assertCovered(parts, [
        { table: 'orders', column: 'adopter_account_id' },
        { table: 'pets', column: 'lister_account_id' },
      ]),
    ).not.toThrow();
  });

  it('names each table no part names, with its columns', () => {
    expect(() =>
      assertCovered(parts, [
        { table: 'orders', column: 'adopter_account_id' },
        { table: 'applications', column: 'applicant_account_id' },
        { table: 'applications', column: 'lister_account_id' },
        { table: 'suppressions', column: 'account_id' },
      ]),
    ).toThrow(
      'no personal-data part names the table "applications" (applicant_account_id, lister_account_id), the table ' +
        '"suppressions" (account_id), which holds accounts\' data',
    );
  });
});
