import { Sql } from '@app/database';
import { Injectable } from '@nestjs/common';
import { PersonalDataParts } from './personal-data-parts';

/** Text gathered before it is handed on: a few writes per page of records rather than one per record. */
const CHUNK_CHARS = 64 * 1024;

/** Where the export goes, a chunk at a time: the promise settles once the chunk may be followed by another. */
export type ExportSink = (chunk: string) => Promise<void>;

/**
 * `GET /v1/account/export`: one JSON document of everything every context holds about the account, read in one
 * REPEATABLE READ transaction (so that every section shows the same moment) and written out a chunk at a time,
 * so that memory stays flat however much the account holds. The accounts' own sections come first, then each
 * part's in the order of the parts' names (docs/security.md#personal-data-export-and-erasure).
 */
@Injectable()
export class AccountExport {
  constructor(
    private readonly sql: Sql,
    private readonly parts: PersonalDataParts,
  ) {}

  write(accountId: number, sink: ExportSink): Promise<void> {
    const parts = [...this.parts.ordered].sort(
      (a, b) => Number(b.name === 'accounts') - Number(a.name === 'accounts') || a.name.localeCompare(b.name),
    );
    return this.sql.snapshot(async () => {
      let pending = `{"exportedAt":${JSON.stringify(new Date().toISOString())}`;
      const add = async (text: string) => {
        pending += text;
        if (pending.length >= CHUNK_CHARS) {
          const chunk = pending;
          pending = '';
          await sink(chunk);
        }
      };
      for (const section of parts.flatMap((part) => part.sections)) {
        await add(`,${JSON.stringify(section.name)}:`);
        let count = 0;
        for await (const record of section.records(accountId)) {
          await add((section.single ? '' : count === 0 ? '[' : ',') + JSON.stringify(record));
          count++;
          if (section.single) break;
        }
        if (section.single && count === 0) await add('null');
        if (!section.single) await add(count === 0 ? '[]' : ']');
      }
      await sink(`${pending}}`);
    });
  }
}
