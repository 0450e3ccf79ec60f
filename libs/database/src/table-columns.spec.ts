import { columnList } from './table-columns';

describe('columnList', () => {
  it('lists the columns as they are named, with no values', () => {
    const columns = columnList('orders', ['id', 'pet_id', 'status']);

    expect(columns.text).toBe('id, pet_id, status');
    expect(columns.values).toEqual([]);
  });
});
