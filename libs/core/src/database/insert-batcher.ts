import { isDependencyUnavailable } from '../errors/dependency-errors';
import { WriteBatcher } from './write-batcher';

type Inserted<R> = { row: R } | { error: unknown };

/**
 * Inserts the rows that requests add close together with one statement, one commit for them all,
 * and gives each request its own row back. Should a batch fail for another reason than an outage,
 * each row is inserted alone, so that a row the database refuses fails its own request and no other.
 */
export class InsertBatcher<T, R> {
  private readonly batches = new WriteBatcher<T, Inserted<R>>((items) => this.insertBatch(items), 0);

  /** @param insert inserts the items with one statement and resolves with their rows, in the items' order. */
  constructor(private readonly insert: (items: T[]) => Promise<R[]>) {}

  async add(item: T): Promise<R> {
    const inserted = await this.batches.add(item);
    if ('error' in inserted) throw inserted.error;
    return inserted.row;
  }

  private async insertBatch(items: T[]): Promise<Inserted<R>[]> {
    try {
      return (await this.insert(items)).map((row) => ({ row }));
    } catch (error) {
      if (items.length === 1 || isDependencyUnavailable(error)) throw error;
      return Promise.all(
        items.map((item) =>
          this.insert([item]).then(
            ([row]) => ({ row: row! }),
            (alone: unknown) => ({ error: alone }),
          ),
        ),
      );
    }
  }
}
