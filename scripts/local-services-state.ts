// Where `npm start` says what it started for development (local-services.ts), so that the operator CLI, run
// from another terminal, reaches the same PostgreSQL and Redis: their ports change on every start.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Where the services started for development keep their data: `.local/` of the project, ignored by git. */
export const LOCAL_SERVICES_DIR = process.env.LOCAL_SERVICES_DIR || join(__dirname, '..', '..', '.local');

const stateFile = (dir: string) => join(dir, 'services.json');

interface StartedServices {
  /** The launcher's, so that a launcher killed before it could remove the file is told apart from one running. */
  pid: number;
  /** The settings that point at what it started (DATABASE_URL, REDIS_URL). */
  env: Record<string, string>;
}

export function recordStartedServices(dir: string, env: Record<string, string>): void {
  const state: StartedServices = { pid: process.pid, env };
  writeFileSync(stateFile(dir), `${JSON.stringify(state, null, 2)}\n`, { mode: 0o600 });
}

export function forgetStartedServices(dir: string): void {
  rmSync(stateFile(dir), { force: true });
}

function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, as another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * The settings a running `npm start` put in place for what it started, with where they were read; nothing
 * when no launcher of this project runs with services of its own.
 */
export function readStartedServices(dir: string): { file: string; env: Record<string, string> } | undefined {
  const file = stateFile(dir);
  let state: StartedServices;
  try {
    state = JSON.parse(readFileSync(file, 'utf8')) as StartedServices;
  } catch {
    return undefined;
  }
  return running(state.pid) ? { file, env: state.env } : undefined;
}
