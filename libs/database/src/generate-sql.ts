/** One call of a repository method that `npm run sql` makes to record the statements it runs. */
export interface SqlExample {
  /** Tells the shapes of one method apart in the committed file: `with a status filter`. */
  name?: string;
  /** The arguments the method is called with; their values never reach the file, only the statements' texts. */
  params: unknown[];
}

const GENERATE_SQL = Symbol('generate-sql');

/**
 * Registers a repository method with `npm run sql`, which calls it once per example against a `Sql` that
 * records instead of running, and commits every statement text it recorded to the library's
 * `queries/<file>.sql`. A method whose statement changes shape with its arguments (an optional filter, a
 * sort) gives one example per shape. Model: immich's `@GenerateSql`.
 */
export function GenerateSql(...examples: SqlExample[]): MethodDecorator {
  return (target, method) => {
    Reflect.defineMetadata(GENERATE_SQL, examples.length > 0 ? examples : [{ params: [] }], target, method);
  };
}

/** The examples `@GenerateSql` gave the method of this prototype, or undefined when it gave none. */
export function sqlExamples(prototype: object, method: string): SqlExample[] | undefined {
  return Reflect.getMetadata(GENERATE_SQL, prototype, method) as SqlExample[] | undefined;
}
