import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createApiApp } from '../support/api-app';
import { suiteDatabase, type SuiteDatabase } from '../support/database';
import type { TestHttpApp } from '../support/http-app';
import { createMessagesApp } from '../support/messages';
import { onFreePorts } from '../support/processes';

const run = promisify(execFile);

/** The shell blocks of the README's tour, in order. */
function tourBlocks(): string[] {
  const readme = readFileSync(join(__dirname, '..', '..', 'README.md'), 'utf8');
  const tour = readme.slice(
    readme.indexOf('## A short tour'),
    readme.indexOf('\n## ', readme.indexOf('## A short tour')),
  );
  return [...tour.matchAll(/```bash\n([\s\S]*?)```/g)].map((match) => match[1]!);
}

/**
 * The response lines the tour shows (`# HTTP/1.1 201 Created`, `# Location: …`), as patterns: `…` stands for
 * anything, the rest is literal.
 */
function shownResponseLines(blocks: string[]): RegExp[] {
  return blocks
    .flatMap((block) => block.split('\n'))
    .filter((line) => /^# (HTTP\/1\.1 \d{3}|[A-Z][A-Za-z-]+: )/.test(line))
    .map((line) => {
      const literal = line
        .slice(2)
        .split('…')
        .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
      return new RegExp(`^${literal.join('.*?')}\\r?$`, 'im');
    });
}

describe('the README’s tour, run as written against a fresh database', () => {
  let database: SuiteDatabase;
  let api: TestHttpApp;
  let messages: TestHttpApp;
  let ports: { api: number; messages: number };

  beforeAll(async () => {
    database = await suiteDatabase('readme_tour');
    await onFreePorts(2, async (apiPort, messagesPort) => {
      const env = { DATABASE_URL: database.url, PORT: String(apiPort), MESSAGES_PORT: String(messagesPort) };
      [api, messages] = await Promise.all([createApiApp({ env }), createMessagesApp({ env })]);
      await api.app.listen(apiPort);
      await messages.app.listen(messagesPort);
      ports = { api: apiPort, messages: messagesPort };
    });
  });
  afterAll(async () => {
    await api?.close();
    await messages?.close();
    await database?.drop();
  });

  it('succeeds at every step, and answers what it shows', async () => {
    const blocks = tourBlocks();
    // Every curl ends its answer with a line break, as a terminal would show it, and reports its status to a file
    // of its own, so that each step's outcome is known: written to the output, the status could interleave with
    // a `tee /dev/stderr` copying the same curl's answer.
    const prelude = `set -euo pipefail\ncurl() { command curl --write-out '\\n%{stderr}@@status %{http_code}\\n' "$@" 2>>statuses; }\n`;
    const script = (prelude + blocks.join('\n'))
      .replaceAll('localhost:3000', `localhost:${ports.api}`)
      .replaceAll('localhost:3001', `localhost:${ports.messages}`);
    const directory = mkdtempSync(join(tmpdir(), 'readme-tour-'));
    try {
      writeFileSync(join(directory, 'tour.sh'), script);
      // Through a pipe, as in a terminal: the tour's `tee /dev/stderr` cannot open the socket Node would give it.
      const { stdout: output } = await run('bash', ['-c', 'set -o pipefail; bash tour.sh 2>&1 | cat'], {
        cwd: directory,
        timeout: 60_000,
      });
      const statuses = [...readFileSync(join(directory, 'statuses'), 'utf8').matchAll(/@@status (\d{3})/g)].map(
        (match) => Number(match[1]),
      );
      expect(statuses).toHaveLength(blocks.join('\n').match(/^\s*(\S+=\$\()?curl /gm)!.length);
      expect(statuses.filter((status) => status < 200 || status > 299)).toEqual([]);
      for (const line of shownResponseLines(blocks)) expect(output).toMatch(line);
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });
});
