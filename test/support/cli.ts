import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { DIST } from './processes';

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** The compiled operator CLI, as `npm run cli -- …` runs it, with the test environment plus `env`. */
export async function runCli(env: Record<string, string>, ...args: string[]): Promise<CliResult> {
  try {
    const { stdout, stderr } = await promisify(execFile)(
      process.execPath,
      [join(DIST, 'apps', 'cli', 'src', 'main.js'), ...args],
      { env: { ...process.env, NODE_OPTIONS: '', ...env } },
    );
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

/** Runs a CLI command that must succeed, and returns its JSON result. */
export async function cli(...args: string[]): Promise<unknown> {
  const result = await runCli({}, ...args);
  if (result.code !== 0) throw new Error(`cli ${args.join(' ')} exited with ${result.code}: ${result.stderr}`);
  return JSON.parse(result.stdout);
}
