import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { ROOT_FALLBACK_DIR } from '../../scripts/embedded-postgres';
import { DIST } from './processes';

const run = promisify(execFile);
const NODE_MODULES = join(__dirname, '..', '..', 'node_modules');

/**
 * Runs in a network namespace of its own (only its loopback, so the machine's own PostgreSQL and Redis are
 * out of reach): `npm start`'s launcher, then, once the api and the messages app are ready, the caller's
 * commands ($CLI runs the project's operator CLI, $NODE is node), then SIGTERM to the launcher.
 */
const IN_EMPTY_NETWORK = (then: string) => String.raw`
ip link set lo up
cd "$PROJECT"
HOME="$SANDBOX/home" LOG_LEVEL=warn "$NODE" dist/scripts/start-all.js > "$SANDBOX/start.log" 2>&1 &
launcher=$!
ready=no
for _ in $(seq 1 600); do
  if curl -sf http://127.0.0.1:3000/health/ready > /dev/null && curl -sf http://127.0.0.1:3001/health/ready > /dev/null; then ready=yes; break; fi
  kill -0 $launcher 2> /dev/null || break
  sleep 0.5
done
echo "ready=$ready"
CLI="$NODE $PROJECT/dist/apps/cli/src/main.js"
${then}
kill -TERM $launcher
wait $launcher
echo "launcher-exit=$?"
`;

export interface FirstStart {
  /** The project's copy, in `sandbox`. */
  project: string;
  /** A folder only its owner may enter (mode 700, as `mktemp -d` makes them, and as root's home is). */
  sandbox: string;
  /** What the commands printed on stdout, with `ready=yes|no` and `launcher-exit=N`. */
  report: string;
  /** What the launcher printed. */
  log(): string;
  /** Where the embedded PostgreSQL kept its data, as the launcher said. */
  postgresDataDir(): string | undefined;
  /** Removes the sandbox and, when it was put outside the project, the embedded PostgreSQL's data. */
  remove(): void;
}

/**
 * `npm start` on a machine with nothing running but Node and a redis-server on PATH, with the project
 * where a clone in root's home or in a `mktemp -d` folder has it: a copy of the build and of the embedded
 * PostgreSQL's packages (its binaries included) in a folder no other user may enter, the other packages
 * found through NODE_PATH. No setting of the test environment reaches it.
 */
export async function firstStart(then = ''): Promise<FirstStart> {
  const sandbox = mkdtempSync(join(tmpdir(), 'first-start-'));
  const project = join(sandbox, 'project');
  const embedded = ['embedded-postgres', `@embedded-postgres/${process.platform}-${process.arch}`];
  cpSync(DIST, join(project, 'dist'), { recursive: true, verbatimSymlinks: true });
  for (const name of embedded) {
    mkdirSync(dirname(join(project, 'node_modules', name)), { recursive: true });
    cpSync(join(NODE_MODULES, name), join(project, 'node_modules', name), { recursive: true, verbatimSymlinks: true });
  }
  const log = () => readFileSync(join(sandbox, 'start.log'), 'utf8');
  const postgresDataDir = () => log().match(/started an embedded PostgreSQL 15 \(.*, data in (\S+)\)/)?.[1];
  const remove = () => {
    const dataDir = postgresDataDir();
    if (dataDir?.startsWith(`${ROOT_FALLBACK_DIR}/`)) rmSync(dirname(dataDir), { recursive: true, force: true });
    rmSync(sandbox, { recursive: true, force: true });
  };
  try {
    const { stdout } = await run('unshare', ['--net', '--', 'bash', '-c', IN_EMPTY_NETWORK(then)], {
      env: {
        PATH: process.env.PATH,
        SANDBOX: sandbox,
        PROJECT: project,
        NODE: process.execPath,
        NODE_PATH: NODE_MODULES,
      },
      timeout: 420_000,
    });
    return { project, sandbox, report: stdout, log, postgresDataDir, remove };
  } catch (error) {
    const said = existsSync(join(sandbox, 'start.log')) ? log() : '(nothing)';
    remove();
    throw new Error(`${(error as Error).message}\nThe launcher printed:\n${said}`, { cause: error });
  }
}
