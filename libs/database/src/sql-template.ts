import { escapeIdentifier } from 'pg';

/**
 * A piece of SQL with the values it carries, written with the `sql` tag. Values never become text: each
 * one is a parameter, numbered only when the statement is compiled, so a fragment can be composed into
 * any statement without its author counting parameters. A statement's text depends only on the shape of
 * its composition, never on its values, so each shape is one named prepared statement.
 */
export class SqlFragment {
  /** `texts.length === values.length + 1`: text, value, text, …, text. */
  private constructor(
    readonly texts: readonly string[],
    readonly values: readonly unknown[],
  ) {}

  /** Splices nested fragments in, so that a fragment is always flat: only plain values remain between texts. */
  static of(strings: readonly string[], values: readonly unknown[]): SqlFragment {
    const texts = [strings[0]!];
    const flat: unknown[] = [];
    values.forEach((value, index) => {
      const next = strings[index + 1]!;
      if (value instanceof SqlFragment) {
        texts[texts.length - 1] += value.texts[0]!;
        for (let i = 0; i < value.values.length; i++) {
          flat.push(value.values[i]);
          texts.push(value.texts[i + 1]!);
        }
        texts[texts.length - 1] += next;
      } else {
        flat.push(value);
        texts.push(next);
      }
    });
    return new SqlFragment(texts, flat);
  }

  /** The statement as `pg` takes it: the values in order, referred to as `$1`, `$2`, … */
  get text(): string {
    return this.texts.reduce((text, part, index) => `${text}$${index}${part}`);
  }
}

/** The template tag: `` sql`SELECT … FROM pets WHERE id = ${id}` ``; a `${fragment}` is spliced in as SQL. */
export function sql(strings: TemplateStringsArray, ...values: unknown[]): SqlFragment {
  return SqlFragment.of(strings, values);
}

/** Fragments one after the other, `separator` between them: column lists, `AND`ed conditions, rows of values. */
sql.join = (fragments: readonly SqlFragment[], separator: SqlFragment = sql`, `): SqlFragment =>
  fragments.reduce(
    (joined, fragment, index) => (index === 0 ? fragment : sql`${joined}${separator}${fragment}`),
    sql``,
  );

/** A table or column name chosen by the code (never by a client), quoted as PostgreSQL wants it. */
sql.identifier = (name: string): SqlFragment => SqlFragment.of([escapeIdentifier(name)], []);

/** Nothing: the fragment an absent optional part of a statement contributes. */
sql.empty = SqlFragment.of([''], []);
