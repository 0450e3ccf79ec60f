import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { DIST } from './processes';

const ROOT = join(__dirname, '..', '..');
/** What `npm run build` compiles (tsconfig.build.json), spec files aside. */
const SOURCE_DIRS = ['apps', 'libs', 'scripts', 'bench'];

function* sourcesUnder(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* sourcesUnder(path);
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts') && !entry.name.endsWith('.d.ts')) {
      yield path;
    }
  }
}

/** The source files whose compiled file under `DIST` is missing or older than the source. */
function staleSources(): string[] {
  const stale: string[] = [];
  for (const dir of SOURCE_DIRS) {
    for (const source of sourcesUnder(join(ROOT, dir))) {
      const compiled = join(DIST, relative(ROOT, source).replace(/\.ts$/, '.js'));
      let compiledAt: number;
      try {
        compiledAt = statSync(compiled).mtimeMs;
      } catch {
        compiledAt = -1;
      }
      if (compiledAt < statSync(source).mtimeMs) stale.push(relative(ROOT, source));
    }
  }
  return stale;
}

/**
 * Process tests run the compiled apps while in-process tests run the sources: with a build older than
 * the sources the two would test different code. Refuses to run then.
 */
export function assertFreshBuild(): void {
  const stale = staleSources();
  if (stale.length === 0) return;
  const shown = stale.slice(0, 5).join(', ') + (stale.length > 5 ? `, and ${stale.length - 5} more` : '');
  throw new Error(
    `${DIST} is older than the sources (${shown}): run \`npm run build\` first (\`npm test\` builds before it runs)`,
  );
}
