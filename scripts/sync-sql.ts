// `npm run sql`: writes every statement the repositories can run into `libs/<lib>/src/queries/<file>.sql`,
// one file per `*.repository.ts`; with `--check`, fails when a committed file differs from what the code
// writes (CI runs that). Each method marked `@GenerateSql` is called with its examples against a `Sql`
// that records the statements instead of running them. Model: immich's `server/src/bin/sync-sql.ts`.
import 'reflect-metadata';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Sql, sqlExamples, SqlFragment, StatementBatcher } from '@app/database';
import type { QueryResult, QueryResultRow } from 'pg';
import { format } from 'sql-formatter';

const ROOT = join(__dirname, '..', '..');
const COMPILED_LIBS = join(__dirname, '..', 'libs');
/** More statements than any method runs once: past it, the method loops on the recorder's empty answers. */
const MAX_CALLS = 100;
type Class = new (...args: unknown[]) => object;

/**
 * Stands in for `Sql`: it keeps each statement's text and answers with no rows. A transaction runs its
 * work at once (and says it is in one, as the events recorder asks), a batched item runs alone.
 */
class RecordingSql {
  readonly texts: string[] = [];
  private depth = 0;
  /** Code that retries until a row comes back (a take-over after a race) would otherwise never stop. */
  private calls = 0;

  get inTransaction(): boolean {
    return this.depth > 0;
  }

  async transaction<T>(work: () => Promise<T>): Promise<T> {
    this.depth++;
    try {
      return await work();
    } finally {
      this.depth--;
    }
  }

  snapshot<T>(work: () => Promise<T>): Promise<T> {
    return this.transaction(work);
  }

  /** A read in pages is recorded by the statement of its first page, when it is asked for (not when iterated). */
  pages<Row extends QueryResultRow>(_size: number, page: (after: Row | undefined) => SqlFragment): AsyncIterable<Row> {
    void this.query(page(undefined));
    return (async function* () {})();
  }

  batched<T, R>(batcher: StatementBatcher<T, R>, item: T): Promise<R> {
    return batcher.runAlone(item);
  }

  async rows<Row extends QueryResultRow>(statement: SqlFragment | string): Promise<Row[]> {
    return (await this.query<Row>(statement)).rows;
  }

  /** A read that may go to a replica is the same statement: recorded as any other. */
  rowsMayLag<Row extends QueryResultRow>(statement: SqlFragment): Promise<Row[]> {
    return this.rows<Row>(statement);
  }

  get readsMayLag(): boolean {
    return false;
  }

  /** Every read runs, so that each of its statements is recorded. */
  readShared<R>(_reads: unknown, _key: string, _mayLag: boolean, read: () => Promise<R>): Promise<R> {
    return read();
  }

  async query<Row extends QueryResultRow>(statement: SqlFragment | string): Promise<QueryResult<Row>> {
    if (++this.calls > MAX_CALLS) throw new Error(`more than ${MAX_CALLS} statements in one call`);
    const text = statement instanceof SqlFragment ? statement.text : statement;
    if (!this.texts.includes(text)) this.texts.push(text);
    return { rows: [], rowCount: 0, command: '', oid: 0, fields: [] };
  }
}

/** Builds a repository from the classes its constructor names, the recorder standing in for `Sql`. */
function construct(type: Class, recorder: RecordingSql, built = new Map<unknown, unknown>()): object {
  if ((type as unknown) === Sql) return recorder;
  if (built.has(type)) return built.get(type) as object;
  const parameters = (Reflect.getMetadata('design:paramtypes', type) ?? []) as Class[];
  const instance = new type(
    ...parameters.map((parameter, index) => {
      if (typeof parameter !== 'function' || [Object, String, Number, Boolean].includes(parameter as never)) {
        throw new Error(`${type.name}: constructor parameter ${index} is no class that can be built without Nest`);
      }
      return construct(parameter, recorder, built);
    }),
  );
  built.set(type, instance);
  return instance;
}

/** The text as PostgreSQL gets it, laid out for a reader: the fragments it was composed of are indented each its own way. */
function formatted(text: string): string {
  return format(text, { language: 'postgresql', keywordCase: 'preserve', paramTypes: { numbered: ['$'] } });
}

/** The statements of every registered method of the classes a compiled repository file exports. */
async function statementsOf(file: string): Promise<string | undefined> {
  const sections: string[] = [];
  // The compiled libraries are CommonJS: their exports are the namespace's default.
  const module = (await import(pathToFileURL(file).href)) as { default: Record<string, unknown> };
  const exported = Object.values(module.default).filter(
    (value): value is Class => typeof value === 'function' && typeof value.prototype === 'object',
  );
  for (const type of exported) {
    for (const method of Object.getOwnPropertyNames(type.prototype).sort()) {
      const examples = sqlExamples(type.prototype, method);
      for (const example of examples ?? []) {
        const recorder = new RecordingSql();
        const repository = construct(type, recorder) as Record<string, (...args: unknown[]) => unknown>;
        const label = `${type.name}.${method}${example.name ? ` (${example.name})` : ''}`;
        try {
          await repository[method]!(...example.params);
        } catch (error) {
          // No rows come back, so code that reads a row after its statement may throw: what ran is recorded.
          if (recorder.texts.length === 0) throw new Error(`${label} threw before any statement`, { cause: error });
        }
        if (recorder.texts.length === 0) throw new Error(`${label} ran no statement: give it examples that do`);
        sections.push(`-- ${label}\n${recorder.texts.map(formatted).join('\n\n')}`);
      }
    }
  }
  if (sections.length === 0) return undefined;
  const source = relative(join(__dirname, '..'), file).split(sep).join('/').replace(/\.js$/, '.ts');
  return `-- Written by \`npm run sql\` from ${source}: do not edit.\n\n${sections.join('\n\n')}\n`;
}

function repositoryFiles(directory: string): string[] {
  return readdirSync(directory, { recursive: true, encoding: 'utf8' })
    .filter((path) => path.endsWith('.repository.js'))
    .map((path) => join(directory, path))
    .sort();
}

/** `libs/<lib>/src/queries/*.sql` as committed. */
function committedFiles(): string[] {
  return readdirSync(join(ROOT, 'libs')).flatMap((lib) => {
    const queries = join(ROOT, 'libs', lib, 'src', 'queries');
    return existsSync(queries)
      ? readdirSync(queries)
          .filter((name) => name.endsWith('.sql'))
          .map((name) => relative(ROOT, join(queries, name)))
      : [];
  });
}

async function main(): Promise<void> {
  const files = new Map<string, string>();
  for (const compiled of repositoryFiles(COMPILED_LIBS)) {
    const text = await statementsOf(compiled);
    if (text === undefined) continue;
    const lib = relative(COMPILED_LIBS, compiled).split(sep)[0]!;
    files.set(join('libs', lib, 'src', 'queries', basename(compiled).replace(/\.js$/, '.sql')), text);
  }

  const stale = [...files].filter(
    ([path, text]) => !existsSync(join(ROOT, path)) || readFileSync(join(ROOT, path), 'utf8') !== text,
  );
  const orphans = committedFiles().filter((path) => !files.has(path));
  if (process.argv.includes('--check')) {
    for (const [path] of stale) console.error(`${path} is stale: run \`npm run sql\` and commit the result.`);
    for (const path of orphans) console.error(`${path} belongs to no registered repository: run \`npm run sql\`.`);
    if (stale.length + orphans.length > 0) process.exit(1);
    console.log(`${files.size} queries files: up to date.`);
    return;
  }
  for (const [path, text] of stale) {
    mkdirSync(dirname(join(ROOT, path)), { recursive: true });
    writeFileSync(join(ROOT, path), text);
    console.log(`wrote ${path}`);
  }
  for (const path of orphans) {
    rmSync(join(ROOT, path));
    console.log(`removed ${path}`);
  }
}

main().then(
  // Repositories may hold timers (batchers): the script is done when its files are.
  () => process.exit(0),
  (error: Error) => {
    console.error(error);
    process.exit(1);
  },
);
