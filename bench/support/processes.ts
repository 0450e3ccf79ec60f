import { ChildProcess, spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { closeSync, openSync, readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { text } from 'node:stream/consumers';

/** The compiled tree this file runs from (`dist/` or a private `.dist-*` build). */
export const BUILD_ROOT = join(__dirname, '..', '..');

/** Settings every process the bench starts gets, whatever the shell that ran the bench exported. */
const BASE_ENV: Record<string, string> = {
  APP_ENV: 'production',
  NODE_ENV: 'production',
  // Production requires these (docs/operations.md's checklist); the bench's endpoints and clients are its own.
  WEBHOOK_SECRETS_KEY: Buffer.alloc(32, 'bench').toString('base64'),
  EMAIL_UNSUBSCRIBE_KEY: Buffer.alloc(32, 'bench-unsubscribe').toString('base64'),
  PUBLIC_BASE_URL_PRODUCTION: 'http://bench.localhost/v1',
  PUBLIC_MESSAGES_URL: 'http://bench.localhost:3001',
  PHOTO_PUBLIC_BASE_URL: 'http://bench.localhost/media',
  PHOTO_STORAGE_DIR: join(tmpdir(), 'pet-adoption-bench-photos'),
  NODE_OPTIONS: '',
  // Processes write into files, so pino-pretty must not be picked.
  FORCE_COLOR: '0',
};

const hasTaskset = spawnSync('taskset', ['-c', '0', 'true']).status === 0;

export function cpuCount(): number {
  return Number(spawnSync('nproc').stdout?.toString().trim()) || 1;
}

/**
 * BENCH_PORT_BASE confines the ports the bench listens on to BENCH_PORT_BASE .. +99, so runs of several
 * people on one machine stay in ranges of their own; without it the system picks any free port.
 */
const PORT_BASE = process.env.BENCH_PORT_BASE === undefined ? undefined : Number(process.env.BENCH_PORT_BASE);
if (PORT_BASE !== undefined && !(Number.isInteger(PORT_BASE) && PORT_BASE >= 1024 && PORT_BASE <= 65436))
  throw new Error(`BENCH_PORT_BASE must be a port from 1024 to 65436, not ${process.env.BENCH_PORT_BASE}`);
const PORT_RANGE = 100;
/** Where the next search of the range starts: ports handed out lately are likely still about to be bound. */
let nextInRange = 0;

async function isFree(port: number): Promise<boolean> {
  const server = createServer();
  const listening = await new Promise<boolean>((resolve) => {
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => resolve(true));
  });
  if (listening) {
    server.close();
    await once(server, 'close');
  }
  return listening;
}

/** A port free at this moment; a process that then fails to bind it is retried by `onFreePorts`. */
export async function freePort(): Promise<number> {
  if (PORT_BASE !== undefined) {
    for (let tried = 0; tried < PORT_RANGE; tried++) {
      const port = PORT_BASE + ((nextInRange + tried) % PORT_RANGE);
      if (await isFree(port)) {
        nextInRange = (port - PORT_BASE + 1) % PORT_RANGE;
        return port;
      }
    }
    throw new Error(`no free port in BENCH_PORT_BASE's range ${PORT_BASE}..${PORT_BASE + PORT_RANGE - 1}`);
  }
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  server.close();
  await once(server, 'close');
  return port;
}

/** The port a server of the bench's own should bind: any (0) unless BENCH_PORT_BASE confines them. */
export async function portToListenOn(): Promise<number> {
  return PORT_BASE === undefined ? 0 : freePort();
}

/**
 * Starts something that listens on ports picked by `freePort`, picking others and starting again
 * when one was taken between the pick and the bind (the error then mentions EADDRINUSE).
 */
export async function onFreePorts<T>(
  count: number,
  start: (...ports: number[]) => Promise<T>,
  attempts = 5,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    const ports: number[] = [];
    while (ports.length < count) {
      const port = await freePort();
      if (!ports.includes(port)) ports.push(port);
    }
    try {
      return await start(...ports);
    } catch (error) {
      if (attempt >= attempts || !String((error as Error).message).includes('EADDRINUSE')) throw error;
    }
  }
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Polls `check` until it answers true; throws after `timeoutMs`, naming what never happened and the
 * last error `check` threw, if any.
 */
export async function waitFor(check: () => Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  while (Date.now() < deadline) {
    try {
      if (await check()) return;
      lastError = undefined;
    } catch (error) {
      lastError = error;
    }
    await sleep(100);
  }
  const cause = lastError === undefined ? '' : `; last error: ${(lastError as Error).message ?? String(lastError)}`;
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${cause}`, { cause: lastError });
}

/**
 * Waits until `isReady` answers true while `child` runs; if it exits or never gets ready, kills it and
 * throws with what it wrote (`output`), so that the caller sees why.
 */
export async function untilReady(
  child: ChildProcess,
  name: string,
  isReady: () => Promise<boolean>,
  output: () => string,
  timeoutMs: number,
): Promise<void> {
  const exited = () => child.exitCode !== null || child.signalCode !== null;
  try {
    // An exit ends the wait at once, rather than at the timeout.
    await waitFor(async () => exited() || isReady(), timeoutMs, `${name} to be ready`);
    if (exited()) throw new Error(`${name} exited early (${child.signalCode ?? child.exitCode})`);
  } catch (error) {
    if (!exited()) {
      const exit = once(child, 'exit');
      child.kill('SIGKILL');
      await exit;
    }
    throw new Error(`${(error as Error).message}; last output of ${name}:\n${output().slice(-4000)}`, { cause: error });
  }
}

export interface Pinned {
  /** CPU core to run on (`taskset -c`), when taskset exists. */
  core?: number;
}

/** Spawns `node <script> ...args` pinned to a core, with the given extra node flags. */
function spawnNode(
  script: string,
  args: string[],
  options: Pinned & { env?: Record<string, string>; nodeFlags?: string[]; stdio: 'pipe' | number },
): ChildProcess {
  const command = [process.execPath, ...(options.nodeFlags ?? []), script, ...args];
  const [file, ...rest] =
    hasTaskset && options.core !== undefined ? ['taskset', '-c', String(options.core), ...command] : command;
  return spawn(file!, rest, {
    env: { ...process.env, ...BASE_ENV, ...options.env },
    stdio: options.stdio === 'pipe' ? ['pipe', 'pipe', 'pipe'] : ['ignore', options.stdio, options.stdio],
  });
}

/**
 * Runs `node <script> ...args` to its end with `input` on its stdin, and parses the JSON it prints; throws
 * with its stderr when it exits non-zero.
 */
export async function runNodeForJson<T>(
  what: string,
  script: string,
  args: string[],
  options: Pinned & { env?: Record<string, string>; input?: string },
): Promise<T> {
  const child = spawnNode(join(BUILD_ROOT, script), args, { ...options, stdio: 'pipe' });
  child.stdin!.end(options.input);
  const [output, errors, code] = await Promise.all([
    text(child.stdout!),
    text(child.stderr!),
    new Promise<number | null>((resolve) => child.on('exit', resolve)),
  ]);
  if (code !== 0) throw new Error(`${what} failed (${code}): ${errors}`);
  return JSON.parse(output) as T;
}

export interface ServerProcess {
  name: string;
  child: ChildProcess;
  logFile: string;
  /** Resident set size now, in MiB (0 once the process is gone). */
  rssMiB: () => number;
  /** Peak resident set size over the process's life, in MiB. */
  peakRssMiB: () => number;
  stop: () => Promise<void>;
}

function statusFieldMiB(pid: number | undefined, field: 'VmRSS' | 'VmHWM'): number {
  try {
    const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) / 1024 : 0;
  } catch {
    return 0;
  }
}

/**
 * Starts a compiled entry point (`apps/api/src/main.js`, `bench/reference-app.js`, ...) with its output
 * in `logFile`, and waits until `ready` (a URL answering 200, or a line in the log) says it serves.
 * `taskset` execs node, so the pid is node's.
 */
export async function startServer(
  name: string,
  entry: string,
  options: Pinned & {
    env: Record<string, string>;
    ready: { url: string } | { logLine: string };
    logFile: string;
    nodeFlags?: string[];
  },
): Promise<ServerProcess> {
  const fd = openSync(options.logFile, 'a');
  const child = spawnNode(join(BUILD_ROOT, entry), [], { ...options, stdio: fd });
  closeSync(fd);
  const readLog = () => readFileSync(options.logFile, 'utf8');
  const exited = once(child, 'exit');
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await Promise.race([exited, sleep(15_000).then(() => child.kill('SIGKILL'))]);
  };
  const { ready } = options;
  await untilReady(
    child,
    name,
    async () => ('url' in ready ? (await fetch(ready.url)).ok : readLog().includes(ready.logLine)),
    readLog,
    60_000,
  );
  return {
    name,
    child,
    logFile: options.logFile,
    rssMiB: () => statusFieldMiB(child.pid, 'VmRSS'),
    peakRssMiB: () => statusFieldMiB(child.pid, 'VmHWM'),
    stop,
  };
}

/** The variable each of the service's apps takes its port from. */
const PORT_VARIABLES = { api: 'PORT', messages: 'MESSAGES_PORT', worker: 'WORKER_METRICS_PORT' } as const;

/**
 * One of the service's apps (named `app` unless `name` says otherwise) on a free port, picked again when
 * it was taken meanwhile; started once its health check answers (`/health/ready`, or `health`).
 */
export function startServiceApp(
  app: keyof typeof PORT_VARIABLES,
  {
    name = app,
    env,
    health = 'ready',
    ...options
  }: Pinned & {
    name?: string;
    env: Record<string, string>;
    logFile: string;
    nodeFlags?: string[];
    health?: 'ready' | 'live';
  },
): Promise<ServerProcess & { url: string }> {
  return onFreePorts(1, (port) =>
    startServer(name, join('apps', app, 'src', 'main.js'), {
      ...options,
      env: { ...env, [PORT_VARIABLES[app]]: String(port) },
      ready: { url: `http://127.0.0.1:${port}/health/${health}` },
    }).then((server) => ({ ...server, url: `http://127.0.0.1:${port}` })),
  );
}

/**
 * CPU time (user + system) a process has used so far, in seconds, or undefined once it has exited;
 * `/proc` counts in 1/100 s ticks.
 */
function cpuSeconds(pid: number | undefined): number | undefined {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    // Fields 14 and 15 of the file (utime, stime), counted after the parenthesised command name.
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return undefined;
  }
}

/** The machine's CPU time so far, in 1/100 s ticks over all cores: busy (any work) and in all (idle too). */
export function machineCpuTicks(): { busy: number; all: number } {
  // The first line of /proc/stat: user nice system idle iowait irq softirq steal, summed over the cores.
  const ticks = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.split(/\s+/).slice(1, 9).map(Number);
  const all = ticks.reduce((sum, value) => sum + value, 0);
  return { busy: all - ticks[3]! - ticks[4]!, all };
}

/**
 * The processes of the stores the apps talk to, which share the machine's cores with them. Every
 * PostgreSQL and Redis process on the machine counts, the bench's own and any other's.
 */
const STORE_COMMANDS = new Set(['postgres', 'redis-server']);

/** CPU seconds so far of each running PostgreSQL and Redis process, by pid. */
function storesCpuByPid(): Map<number, number> {
  const byPid = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let command: string;
    try {
      command = readFileSync(`/proc/${entry}/comm`, 'utf8').trim();
    } catch {
      continue; // It exited meanwhile.
    }
    const seconds = STORE_COMMANDS.has(command) ? cpuSeconds(Number(entry)) : undefined;
    if (seconds !== undefined) byPid.set(Number(entry), seconds);
  }
  return byPid;
}

/**
 * The CPU the stores use from now on. Sampled, because backends come and go (a pool closes idle
 * connections): each process counts what it used between its first and last sample, so one that
 * exits loses at most its last interval instead of taking its whole history with it.
 */
function watchStoresCpu(): { sample: () => void; usedSec: () => number } {
  const first = storesCpuByPid();
  const last = new Map(first);
  return {
    sample: () => {
      for (const [pid, seconds] of storesCpuByPid()) {
        if (!first.has(pid)) first.set(pid, 0);
        last.set(pid, seconds);
      }
    },
    usedSec: () => [...last].reduce((sum, [pid, seconds]) => sum + seconds - first.get(pid)!, 0),
  };
}

export interface ProcessUsage {
  peakRssMiB: Record<string, number>;
  cpuSec: Record<string, number>;
  /** CPU time PostgreSQL and Redis used meanwhile. */
  storesCpuSec: number;
}

/**
 * Samples the RSS of processes every `intervalMs` and their CPU time and the stores'; `stop()` returns the
 * peaks and the CPU used.
 */
export function watchProcesses(processes: ServerProcess[], intervalMs = 250): { stop: () => ProcessUsage } {
  const peakRssMiB: Record<string, number> = {};
  const startCpu = Object.fromEntries(processes.map(({ name, child }) => [name, cpuSeconds(child.pid) ?? 0]));
  const storesCpu = watchStoresCpu();
  const sample = () => {
    storesCpu.sample();
    for (const process of processes) {
      peakRssMiB[process.name] = Math.max(peakRssMiB[process.name] ?? 0, process.rssMiB());
    }
  };
  sample();
  const timer = setInterval(sample, intervalMs);
  return {
    stop: () => {
      clearInterval(timer);
      sample();
      const cpuSec = Object.fromEntries(
        processes.map(({ name, child }) => [name, (cpuSeconds(child.pid) ?? 0) - startCpu[name]!]),
      );
      return { peakRssMiB, cpuSec, storesCpuSec: storesCpu.usedSec() };
    },
  };
}
