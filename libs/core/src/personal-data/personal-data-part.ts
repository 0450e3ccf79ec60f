/**
 * One section of an account's export: a member of the JSON document, an array of records (or one record,
 * or null, when `single`).
 * @public
 */
export interface PersonalDataSection {
  /** Its member's name in the document, in camelCase: unique across the parts. */
  readonly name: string;
  /** One record or null instead of an array: the account itself, its organisation. */
  readonly single?: boolean;
  /**
   * The account's records, as the API shows them (never a secret). They are read within the export's one
   * REPEATABLE READ transaction (`Sql.snapshot`), so every section sees the same moment: read them through
   * `Sql` a page at a time (`Sql.pages`), never all at once, so that memory stays flat however many there are.
   */
  records(accountId: number): AsyncIterable<object>;
}

/**
 * What one bounded context holds about an account, and how it gives it out (`GET /v1/account/export`) and
 * erases it (after `DELETE /v1/account`). Each context provides one subclass in a module that both the api
 * and the worker import; the accounts context finds every one of them (as `PeriodicJobsModule` finds its
 * jobs), so a context cannot be left out of either. It is here, below every context, so that any context
 * can provide one (libs/idempotency, below libs/accounts, too). A part reads and writes only its own context's tables,
 * through its repositories. The api and the worker refuse to start when a table with a column that
 * references an account (a foreign key to `accounts`, or a column named `account_id` or `…_account_id`)
 * is named in no part's `tables`.
 * @public
 */
export abstract class PersonalDataPart {
  /** Names the part in logs and in other parts' `erasedAfter`: unique across the contexts. */
  abstract readonly name: string;
  /** Every table of the context that holds an account's data, whether `erase` deletes its rows or keeps them. */
  abstract readonly tables: readonly string[];
  /** The parts whose erasure finishes before this one's begins: an order is cancelled before its pet is removed. */
  readonly erasedAfter: readonly string[] = [];
  /** Its sections of the export, in the order they appear in the document. */
  abstract readonly sections: readonly PersonalDataSection[];

  /**
   * Erases at most about `batchLimit` of the account's things (rows, files), each batch committed on its
   * own, and says whether anything of the account is left for it to erase: the worker calls it again until
   * it answers `false`. Erasure is never undone, so it must be idempotent and resumable: a worker killed
   * at any point calls it again from the start of the part, and it carries on from what is left. The
   * account is already refused to every key and has no email by then, and the account row itself stays
   * (what other parties hold still names its id).
   */
  abstract erase(accountId: number, batchLimit: number): Promise<boolean>;
}

/**
 * `rows` as the export shows them, one at a time: a section's records from a repository's `Sql.pages`.
 * @public
 */
export async function* exportedAs<Row, Exported extends object>(
  rows: AsyncIterable<Row>,
  show: (row: Row) => Exported,
): AsyncGenerator<Exported, void, undefined> {
  for await (const row of rows) yield show(row);
}

/** Rows per page of an export's reads: a few hundred kilobytes of JSON at most, whatever the account holds. */
export const EXPORT_PAGE_ROWS = 500;
