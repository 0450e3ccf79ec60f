import { ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { join } from 'node:path';

/** Compiled apps that process tests start; `TEST_DIST_DIR` points elsewhere when several builds coexist. */
const DIST = process.env.TEST_DIST_DIR ?? join(__dirname, '..', '..', 'dist');

export async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  server.close();
  await once(server, 'close');
  return port;
}

export interface AppProcess {
  child: ChildProcess;
  /** Everything the process wrote to stdout and stderr so far. */
  output: () => string;
  /** The JSON log lines among that output, parsed. */
  logLines: () => Array<Record<string, unknown>>;
  /** Sends a signal and waits for the process to exit. */
  stop: (signal?: NodeJS.Signals) => Promise<void>;
}

export async function waitFor(check: () => Promise<boolean>, timeoutMs = 20000, what = 'condition'): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check().catch(() => false)) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/**
 * Starts a compiled app (`api`, `messages`, `worker`) as a real process with the test environment
 * plus `env`, and waits until `readyUrl` (when given) answers 200.
 */
export async function startApp(app: string, env: Record<string, string>, readyUrl?: string): Promise<AppProcess> {
  let output = '';
  const child = spawn(process.execPath, [join(DIST, 'apps', app, 'src', 'main.js')], {
    // NODE_PATH lets a build outside the repository (TEST_DIST_DIR) find the project's packages.
    env: { ...process.env, NODE_OPTIONS: '', NODE_PATH: join(__dirname, '..', '..', 'node_modules'), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = once(child, 'exit');
  const stop = async (signal: NodeJS.Signals = 'SIGTERM') => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    await exited;
  };
  if (readyUrl) {
    try {
      await waitFor(
        async () => {
          if (child.exitCode !== null) throw new Error(`${app} exited early:\n${output}`);
          return (await fetch(readyUrl)).ok;
        },
        30000,
        `${app} at ${readyUrl}`,
      );
    } catch (error) {
      await stop('SIGKILL');
      throw new Error(`${(error as Error).message}\n${output}`, { cause: error });
    }
  }
  const logLines = () =>
    output
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as Record<string, unknown>);
  return { child, output: () => output, logLines, stop };
}
