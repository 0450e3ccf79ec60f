import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { withDatabase } from '../support/database';

/**
 * The maps a newcomer reads (the README's Layout, the architecture page, the database page, the index of
 * decision records) list exactly what the repository holds: a library, table, repository or record added
 * or removed without its line fails here.
 */
const ROOT = join(__dirname, '..', '..');
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');

/** The code names in backticks (`libs/pets`, `pets`, `PetsRepository`) of a page's table rows' first cells. */
function firstCells(markdown: string): string[] {
  return markdown
    .split('\n')
    .filter((line) => line.startsWith('|') && !/^\|\s*-/.test(line))
    .map((line) => line.split('|')[1]!.trim())
    .flatMap((cell) => [...cell.matchAll(/`([^`]+)`/g)].map((match) => match[1]!));
}

/** The section of `markdown` under the heading `title`, up to the next heading of the same level or higher. */
function section(markdown: string, title: string): string {
  const start = markdown.indexOf(`\n${title}\n`);
  if (start < 0) throw new Error(`no section "${title}"`);
  const level = title.split(' ')[0]!;
  const rest = markdown.slice(start + title.length + 2);
  const end = rest.search(new RegExp(`\n#{1,${level.length}} `));
  return end < 0 ? rest : rest.slice(0, end);
}

function filesUnder(dir: string, matches: (name: string) => boolean): string[] {
  return readdirSync(join(ROOT, dir), { recursive: true, encoding: 'utf8' })
    .filter((path) => matches(path))
    .map((path) => join(dir, path));
}

const sorted = (values: Iterable<string>) => [...new Set(values)].sort();

describe('the maps of the repository', () => {
  const libraries = sorted(readdirSync(join(ROOT, 'libs')).map((name) => `libs/${name}`));

  it("lists every library in the README's Layout, and nothing else under libs/", () => {
    const layout = section(read('README.md'), '## Layout');
    const listed = [...layout.matchAll(/^(libs\/[a-z-]+)\s/gm)].map((match) => match[1]!);
    expect(sorted(listed)).toEqual(libraries);
  });

  it('lists every library in the architecture page, and nothing else under libs/', () => {
    const page = section(read('docs/architecture.md'), '## Libraries');
    expect(sorted(firstCells(page).filter((name) => name.startsWith('libs/')))).toEqual(libraries);
  });

  it('lists every table of the migrated schema in the database page, and no table that is gone', async () => {
    const tables = await withDatabase(async (client) => {
      const { rows } = await client.query<{ name: string }>(
        `SELECT table_name AS name FROM information_schema.tables
          WHERE table_schema = 'public' AND table_type = 'BASE TABLE'`,
      );
      return rows.map((row) => row.name);
    });
    const page = section(read('docs/database.md'), '## Schema');
    expect(sorted(firstCells(page))).toEqual(sorted(tables));
  });

  it('lists every repository in the database page, where it is, and no repository that is gone', () => {
    const repositories = filesUnder('libs', (path) => path.endsWith('.repository.ts')).map((path) => {
      const name = /export class (\w+Repository)\b/.exec(read(path))?.[1];
      if (!name) throw new Error(`${path} exports no repository class`);
      return `${name} ${path}`;
    });
    const page = section(read('docs/database.md'), '## Repositories and transactions');
    const rows = page
      .split('\n')
      .filter((line) => line.startsWith('| `'))
      .map((line) => {
        const [name, where] = line
          .split('|')
          .slice(1, 3)
          .map((cell) => cell.trim().replace(/`/g, ''));
        return `${name} ${where}`;
      });
    expect(sorted(rows)).toEqual(sorted(repositories));
  });

  it('indexes every decision record in docs/adr/README.md, and links no record that is missing', () => {
    const records = readdirSync(join(ROOT, 'docs/adr')).filter((name) => /^\d{4}-.*\.md$/.test(name));
    const index = section(read('docs/adr/README.md'), '## Records');
    const linked = [...index.matchAll(/\]\((\d{4}-[^)]+\.md)\)/g)].map((match) => match[1]!);
    expect(sorted(linked)).toEqual(sorted(records));
  });

  it('links only files that exist, from the README and every page of docs/', () => {
    const pages = ['README.md', ...filesUnder('docs', (path) => path.endsWith('.md'))];
    const broken = pages.flatMap((page) =>
      [...read(page).matchAll(/\]\(((?!https?:|#|mailto:)[^)#\s]+)(?:#[^)]*)?\)/g)]
        .map((match) => join(dirname(page), match[1]!))
        .filter((target) => !existsSync(join(ROOT, target)))
        .map((target) => `${page} → ${target}`),
    );
    expect(broken).toEqual([]);
  });

  it('cites no document the repository does not carry: its own docs are the reference', () => {
    const tracked = execFileSync('git', ['ls-files'], { cwd: ROOT, encoding: 'utf8' }).split('\n');
    const citing = tracked
      .filter((path) => /\.(ts|js|mjs|md|sql|json|ya?ml|html)$|^\.ci\//.test(path) && existsSync(join(ROOT, path)))
      .filter((path) => /\bCONTRACT \d|\b[Ii]ssue \d|\b[Ss]pec(?:ification)? \d/.test(read(path)));
    expect(citing).toEqual([]);
  });
});
