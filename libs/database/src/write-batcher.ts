import { sqlState } from './sql';
import { Batcher } from '@app/core';

type Written<R> = { row: R } | { error: unknown };

/**
 * SQLSTATE classes 22 (data exception) and 23 (integrity constraint violation): a row's own fault.
 * Any other failure (an outage, a timeout that leaves the commit uncertain, a full disk) is the
 * batch's, and writing its rows again could store them twice.
 */
const ROW_AT_FAULT = /^2[23]/;

/**
 * Writes the rows that requests add or change close together with one statement, one commit for them all,
 * and gives each request its own row back. Should the database refuse a row of the batch, each row
 * is then written alone, one after another, so that the row at fault fails its own request and no other.
 * It serves any batched write whose failed batch leaves nothing behind (INSERTs and UPDATEs of rows).
 */
export class WriteBatcher<T, R> {
  private readonly batches = new Batcher<T, Written<R>>((items) => this.writeBatch(items), 0);

  /** @param write writes the items with one statement and resolves with their rows, in the items' order. */
  constructor(private readonly write: (items: T[]) => Promise<R[]>) {}

  async add(item: T): Promise<R> {
    const written = await this.batches.add(item);
    if ('error' in written) throw written.error;
    return written.row;
  }

  /** Writes the item with a statement of its own, at once; it fails with the database's own error. */
  async runAlone(item: T): Promise<R> {
    return (await this.write([item]))[0]!;
  }

  private async writeBatch(items: T[]): Promise<Written<R>[]> {
    try {
      return (await this.write(items)).map((row) => ({ row }));
    } catch (error) {
      if (items.length === 1 || !ROW_AT_FAULT.test(sqlState(error) ?? '')) throw error;
      const written: Written<R>[] = [];
      for (const item of items) {
        try {
          written.push({ row: (await this.write([item]))[0]! });
        } catch (alone) {
          written.push({ error: alone });
        }
      }
      return written;
    }
  }
}
