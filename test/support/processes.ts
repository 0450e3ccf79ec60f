import { ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { freePort, onFreePorts, sleep, untilReady, waitFor } from '../../bench/support/processes';
import { replicaSettings } from './test-env';

export { freePort, onFreePorts, sleep, waitFor };

/** Compiled apps that process tests start; `TEST_DIST_DIR` points elsewhere when several builds coexist. */
export const DIST = process.env.TEST_DIST_DIR ?? join(__dirname, '..', '..', 'dist');

export interface AppProcess {
  child: ChildProcess;
  /** Everything the process wrote to stdout and stderr so far. */
  output: () => string;
  /** The JSON log lines among that output, parsed. */
  logLines: () => Array<Record<string, unknown>>;
  /** Sends a signal and waits for the process to exit. */
  stop: (signal?: NodeJS.Signals) => Promise<void>;
}

/**
 * Starts a compiled entry point (`apps/api/src/main.js`, `scripts/start-all.js`) under `DIST` as a
 * real process with the test environment plus `env`, and waits until `readyUrl` (when given) answers 200.
 */
export async function startCompiled(
  entry: string,
  /** Settings on top of the test environment; `undefined` removes one. */
  env: Record<string, string | undefined>,
  readyUrl?: string,
  args: string[] = [],
): Promise<AppProcess> {
  let output = '';
  const child = spawn(process.execPath, [join(DIST, entry), ...args], {
    // NODE_PATH lets a build outside the repository (TEST_DIST_DIR) find the project's packages.
    env: {
      ...process.env,
      ...(env.DATABASE_URL && replicaSettings(env.DATABASE_URL)),
      NODE_OPTIONS: '',
      NODE_PATH: join(__dirname, '..', '..', 'node_modules'),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = once(child, 'exit');
  const stop = async (signal: NodeJS.Signals = 'SIGTERM') => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    await exited;
  };
  if (readyUrl)
    await untilReady(
      child,
      entry,
      async () => (await fetch(readyUrl)).ok,
      () => output,
      30000,
    );
  const logLines = () =>
    output
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as Record<string, unknown>);
  return { child, output: () => output, logLines, stop };
}

/** Starts a compiled app (`api`, `messages`, `worker`), as `startCompiled` does. */
export function startApp(app: string, env: Record<string, string | undefined>, readyUrl?: string): Promise<AppProcess> {
  return startCompiled(join('apps', app, 'src', 'main.js'), env, readyUrl);
}

/** The setting that names the port each app listens on. */
const PORT_SETTING: Record<string, string> = { api: 'PORT', messages: 'MESSAGES_PORT', worker: 'WORKER_METRICS_PORT' };

/**
 * Starts a compiled app on a free port, ready once `readyPath` answers 200; picks another port when
 * the first was taken before the app could bind it.
 */
export function startServing(
  app: 'api' | 'messages' | 'worker',
  env: Record<string, string | undefined> = {},
  readyPath = '/health/ready',
): Promise<AppProcess & { baseUrl: string }> {
  return onFreePorts(1, async (port) => {
    const baseUrl = `http://127.0.0.1:${port}`;
    const started = await startApp(app, { ...env, [PORT_SETTING[app]!]: String(port) }, `${baseUrl}${readyPath}`);
    return { ...started, baseUrl };
  });
}
