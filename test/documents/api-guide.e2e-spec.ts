import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');
const GUIDE = readFileSync(join(ROOT, 'docs', 'api-guide.md'), 'utf8');

/** The text of the guide's section under `heading`, up to the next one. */
function section(heading: string): string {
  const start = GUIDE.indexOf(`\n## ${heading}\n`);
  return GUIDE.slice(start, GUIDE.indexOf('\n## ', start + 1));
}

interface Document {
  paths: Record<string, Record<string, { operationId?: string }>>;
  components: { schemas: Record<string, { properties?: Record<string, unknown> }> };
}

const readDocument = (file: string) => JSON.parse(readFileSync(join(ROOT, file), 'utf8')) as Document;

/** The operation ids of both committed documents. */
function documentedOperationIds(): string[] {
  return ['openapi.json', 'openapi.messages.json'].flatMap((file) => {
    const document = readDocument(file);
    return Object.values(document.paths).flatMap((operations) =>
      Object.values(operations).flatMap((operation) => operation.operationId ?? []),
    );
  });
}

/**
 * The operation ids that the API guide's operations table names: each row says its operation's id first in
 * parentheses in its second column, as in `add an animal (createPet)` or `find animals (listPets; …)`. An id of
 * one word (`unsubscribe`) counts where the documents have it, so that a plain word in parentheses does not.
 */
function tabledOperationIds(): string[] {
  const oneWord = documentedOperationIds().filter((id) => /^[a-z]+$/.test(id));
  return section('Operations')
    .split('\n')
    .filter((line) => line.startsWith('| `'))
    .flatMap((row) =>
      [...row.split('|')[2]!.matchAll(/\(([a-z][A-Za-z]*)[;,)]/g)]
        .map((m) => m[1]!)
        .filter((id) => /[A-Z]/.test(id) || oneWord.includes(id)),
    );
}

describe('docs/api-guide.md', () => {
  it('names every operation of the committed documents in its operations table, once, and no other', () => {
    const tabled = tabledOperationIds();
    expect(new Set(tabled).size).toBe(tabled.length);
    expect([...tabled].sort()).toEqual(documentedOperationIds().sort());
  });

  it('shows messages with every field the service answers', () => {
    // An answer shown in a block is a `# {…}` comment, continued on `#  …` lines.
    const shown = [...section('Messages').matchAll(/^# (\{.*(?:\n# {2}.*)*)/gm)].map(
      (match) => JSON.parse(match[1]!.replace(/\n# {2}/g, '')) as Record<string, unknown>,
    );
    const fields = Object.keys(readDocument('openapi.messages.json').components.schemas.Message!.properties!);
    expect(shown).toHaveLength(2);
    for (const message of shown) expect(Object.keys(message)).toEqual(fields);
  });
});
