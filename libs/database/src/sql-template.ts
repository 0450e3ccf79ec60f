import { escapeIdentifier, escapeLiteral } from 'pg';

/**
 * A piece of SQL with the values it carries, written with the `sql` tag. Values never become text: each
 * one is a parameter, numbered only when the statement is compiled, so a fragment can be composed into
 * any statement without its author counting parameters. A statement's text depends only on the shape of
 * its composition, never on its values, so each shape is one named prepared statement.
 *
 * A fragment keeps what it was written with, nested fragments included, and splices them in once, when its
 * texts or values are first read: a search composes some forty fragments per request, and splicing each
 * into its parent as it was written would copy every text again at each level.
 */
export class SqlFragment {
  private flat?: { readonly texts: readonly string[]; readonly values: readonly unknown[] };
  private compiled?: string;

  /** `strings.length === parts.length + 1`: text, part, text, …, text; a part is a value or a fragment. */
  private constructor(
    private readonly strings: readonly string[],
    private readonly parts: readonly unknown[],
  ) {}

  static of(strings: readonly string[], parts: readonly unknown[]): SqlFragment {
    return new SqlFragment(strings, parts);
  }

  /** `texts.length === values.length + 1`: text, value, text, …, text, nested fragments spliced in. */
  get texts(): readonly string[] {
    return this.flattened().texts;
  }

  get values(): readonly unknown[] {
    return this.flattened().values;
  }

  /** The statement as `pg` takes it: the values in order, referred to as `$1`, `$2`, … */
  get text(): string {
    this.compiled ??= this.texts.reduce((text, part, index) => `${text}$${index}${part}`);
    return this.compiled;
  }

  private flattened(): { readonly texts: readonly string[]; readonly values: readonly unknown[] } {
    if (!this.flat) {
      const texts = [''];
      const values: unknown[] = [];
      this.appendTo(texts, values);
      this.flat = { texts, values };
    }
    return this.flat;
  }

  /** Appends this fragment's texts and values to those of the fragment it stands in. */
  private appendTo(texts: string[], values: unknown[]): void {
    texts[texts.length - 1] += this.strings[0]!;
    this.parts.forEach((part, index) => {
      if (part instanceof SqlFragment) {
        part.appendTo(texts, values);
      } else {
        values.push(part);
        texts.push('');
      }
      texts[texts.length - 1] += this.strings[index + 1]!;
    });
  }
}

/** The template tag: `` sql`SELECT … FROM pets WHERE id = ${id}` ``; a `${fragment}` is spliced in as SQL. */
export function sql(strings: TemplateStringsArray, ...values: unknown[]): SqlFragment {
  return SqlFragment.of(strings, values);
}

/**
 * Fragments one after the other, `separator` between them: column lists, `AND`ed conditions, rows of values.
 * One fragment of them all, however many: splicing stays one level deep.
 */
sql.join = (fragments: readonly SqlFragment[], separator: SqlFragment = sql`, `): SqlFragment => {
  const parts = fragments.flatMap((fragment, index) => (index === 0 ? [fragment] : [separator, fragment]));
  return SqlFragment.of(parts.map(() => '').concat(''), parts);
};

/** A table or column name chosen by the code (never by a client), quoted as PostgreSQL wants it. */
sql.identifier = (name: string): SqlFragment => SqlFragment.of([escapeIdentifier(name)], []);

/** A string chosen by the code (never by a client), as an SQL literal: a key of a `jsonb_build_object`. */
sql.literal = (text: string): SqlFragment => SqlFragment.of([escapeLiteral(text)], []);

/** Nothing: the fragment an absent optional part of a statement contributes. */
sql.empty = SqlFragment.of([''], []);
