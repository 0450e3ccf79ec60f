import { sqlState } from './sql';
import { Batcher } from './batcher';

type Inserted<R> = { row: R } | { error: unknown };

/**
 * SQLSTATE classes 22 (data exception) and 23 (integrity constraint violation): a row's own fault.
 * Any other failure (an outage, a timeout that leaves the commit uncertain, a full disk) is the
 * batch's, and inserting its rows again could store them twice.
 */
const ROW_AT_FAULT = /^2[23]/;

/**
 * Inserts the rows that requests add close together with one statement, one commit for them all,
 * and gives each request its own row back. Should the database refuse a row of the batch, each row
 * is then inserted alone, one after another, so that the row at fault fails its own request and no other.
 * It serves any batched write whose failed batch leaves nothing behind (an UPDATE of rows, too).
 */
export class InsertBatcher<T, R> {
  private readonly batches = new Batcher<T, Inserted<R>>((items) => this.insertBatch(items), 0);

  /** @param insert inserts the items with one statement and resolves with their rows, in the items' order. */
  constructor(private readonly insert: (items: T[]) => Promise<R[]>) {}

  async add(item: T): Promise<R> {
    const inserted = await this.batches.add(item);
    if ('error' in inserted) throw inserted.error;
    return inserted.row;
  }

  /** Inserts the item with a statement of its own, at once; it fails with the database's own error. */
  async runAlone(item: T): Promise<R> {
    return (await this.insert([item]))[0]!;
  }

  private async insertBatch(items: T[]): Promise<Inserted<R>[]> {
    try {
      return (await this.insert(items)).map((row) => ({ row }));
    } catch (error) {
      if (items.length === 1 || !ROW_AT_FAULT.test(sqlState(error) ?? '')) throw error;
      const inserted: Inserted<R>[] = [];
      for (const item of items) {
        try {
          inserted.push({ row: (await this.insert([item]))[0]! });
        } catch (alone) {
          inserted.push({ error: alone });
        }
      }
      return inserted;
    }
  }
}
