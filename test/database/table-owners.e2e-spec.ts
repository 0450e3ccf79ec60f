import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Every table is written by the library that owns it, as docs/database.md's Repositories table says: a
 * committed statement (libs/<lib>/src/queries/*.sql) of one library that writes another's table fails here.
 * A statement recorded in a library's file may be the owner's, run by the owner's service inside the
 * library's transaction: it is then in the owner's file too. The events library's fragments (EventsRecorder,
 * the outbox) write its tables from inside other libraries' statements, so that events commit with their change.
 */
const ROOT = join(__dirname, '..', '..');
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');

/** TypeORM's record of applied migrations: written by no repository. */
const UNOWNED = new Set(['migrations']);
const OUTBOX_LIBRARY = 'events';

/** The rows of the markdown table that follows `heading`, each as its cells. */
function tableAfter(markdown: string, heading: string): string[][] {
  const start = markdown.indexOf(`\n${heading}\n`);
  if (start < 0) throw new Error(`no section "${heading}"`);
  const lines = markdown.slice(start).split('\n');
  const first = lines.findIndex((line) => line.startsWith('|'));
  const rows: string[][] = [];
  for (const line of lines.slice(first)) {
    if (!line.startsWith('|')) break;
    if (/^\|\s*-/.test(line)) continue;
    rows.push(
      line
        .split('|')
        .slice(1, -1)
        .map((cell) => cell.trim()),
    );
  }
  return rows.slice(1);
}

const codeNames = (text: string) => [...text.matchAll(/`([^`]+)`/g)].map((match) => match[1]!);

/** Each table's owning library, from the Owns column (the names before its first colon). */
function owners(): Map<string, string[]> {
  const page = read('docs/database.md');
  const owned = new Map<string, string[]>();
  for (const [, where, owns] of tableAfter(page, '## Repositories and transactions')) {
    const library = /^`libs\/([^/]+)\//.exec(where!)![1]!;
    for (const table of codeNames(owns!.split(':')[0]!)) {
      const libraries = owned.get(table) ?? [];
      if (!libraries.includes(library)) libraries.push(library);
      owned.set(table, libraries);
    }
  }
  return owned;
}

const schemaTables = () => tableAfter(read('docs/database.md'), '## Schema').flatMap(([table]) => codeNames(table!));

interface Statement {
  library: string;
  file: string;
  text: string;
}

/** Every committed statement, laid out by `npm run sql`: blank lines between statements, `--` labels. */
function statements(): Statement[] {
  return readdirSync(join(ROOT, 'libs')).flatMap((library) => {
    const dir = join('libs', library, 'src', 'queries');
    let files: string[];
    try {
      files = readdirSync(join(ROOT, dir)).filter((name) => name.endsWith('.sql'));
    } catch {
      return [];
    }
    return files.flatMap((name) =>
      read(join(dir, name))
        .split(/\n\s*\n/)
        .map((text) => text.replace(/^--.*$/gm, '').trim())
        .filter((text) => text.length > 0)
        .map((text) => ({ library, file: join(dir, name), text })),
    );
  });
}

/**
 * The tables a statement writes, with whether the write is a data-modifying CTE (inside another statement):
 * INSERT INTO, UPDATE (not a row lock's `FOR UPDATE` nor an upsert's `DO UPDATE`), DELETE FROM, TRUNCATE,
 * MERGE INTO.
 */
function writtenTables(text: string): Array<{ table: string; inCte: boolean }> {
  const writes =
    /(?<![A-Za-z_])(INSERT\s+INTO|(?<!(?:FOR|KEY|DO)\s+)UPDATE|DELETE\s+FROM|TRUNCATE(?:\s+TABLE)?|MERGE\s+INTO)\s+(?:ONLY\s+)?([A-Za-z_][A-Za-z0-9_]*)/gi;
  return [...text.matchAll(writes)].map((match) => ({
    table: match[2]!.toLowerCase(),
    inCte: match.index > 0,
  }));
}

describe('table owners', () => {
  it('finds the writes of a statement, in its CTEs too', () => {
    expect(
      writtenTables(`WITH a AS (UPDATE pet_change_clock SET x = 1 RETURNING x), b AS (
        INSERT INTO events (id) SELECT 1 ON CONFLICT (id) DO UPDATE SET id = 2
      ) SELECT 1 FROM pets FOR NO KEY UPDATE OF pets`),
    ).toEqual([
      { table: 'pet_change_clock', inCte: true },
      { table: 'events', inCte: true },
    ]);
    expect(writtenTables('DELETE FROM photos WHERE id = $1 FOR UPDATE SKIP LOCKED')).toEqual([
      { table: 'photos', inCte: false },
    ]);
    expect(writtenTables('TRUNCATE TABLE a; MERGE INTO b USING c')).toEqual([
      { table: 'a', inCte: false },
      { table: 'b', inCte: true },
    ]);
  });

  it('gives every table of the schema exactly one owning library', () => {
    const owned = owners();
    const tables = schemaTables().filter((table) => !UNOWNED.has(table));
    expect(tables.filter((table) => owned.get(table)?.length !== 1)).toEqual([]);
    expect([...owned.keys()].filter((table) => !tables.includes(table))).toEqual([]);
  });

  it('finds no statement of a library writing a table another owns', () => {
    const owned = owners();
    const all = statements();
    expect(all.length).toBeGreaterThan(50);
    const textsOf = (library: string) => new Set(all.filter((s) => s.library === library).map((s) => s.text));
    const trespasses = all.flatMap((statement) =>
      writtenTables(statement.text)
        .filter(({ table, inCte }) => {
          const owner = owned.get(table)?.[0];
          if (owner === undefined) return true;
          if (owner === statement.library) return false;
          if (owner === OUTBOX_LIBRARY && inCte) return false;
          return !textsOf(owner).has(statement.text);
        })
        .map(({ table }) => `${statement.file} writes ${table} (${owned.get(table)?.[0] ?? 'no owner'}'s)`),
    );
    expect(trespasses).toEqual([]);
  });
});
