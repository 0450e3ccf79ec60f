import { join } from 'node:path';
import { text } from 'node:stream/consumers';
import { BUILD_ROOT, ProcessUsage, ServerProcess, spawnNode, watchProcesses } from './processes';

export interface LoadRequest {
  method: 'GET' | 'POST';
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

/** What one autocannon run does: for `durationSec`, or until `amount` requests are answered. */
export interface LoadSpec {
  url: string;
  connections: number;
  durationSec?: number;
  amount?: number;
  /** Requests per second over all connections; as fast as answers come when unset. */
  overallRate?: number;
  /** Each connection cycles through these in order. */
  requests: LoadRequest[];
  /** Deals the requests out among the connections instead (for long lists, e.g. one per account). */
  dealt?: boolean;
}

export interface LoadResult {
  requests: number;
  seconds: number;
  perSecond: number;
  statuses: Record<string, number>;
  errors: number;
  timeouts: number;
  latencyMs: { p50: number; p99: number; p999: number; max: number };
}

/** The core the load generator runs on: the other one than the servers' core 0, when there is one. */
const LOAD_CORE = 1;

/** Runs the load generator as its own process on LOAD_CORE, so it never shares the server's core. */
export async function runLoad(spec: LoadSpec): Promise<LoadResult> {
  const child = spawnNode(join(BUILD_ROOT, 'bench', 'load-generator.js'), [], { core: LOAD_CORE, stdio: 'pipe' });
  child.stdin!.end(JSON.stringify(spec));
  const [output, errors, code] = await Promise.all([
    text(child.stdout!),
    text(child.stderr!),
    new Promise<number | null>((resolve) => child.on('exit', resolve)),
  ]);
  if (code !== 0) throw new Error(`load generator failed (${code}): ${errors}`);
  return JSON.parse(output) as LoadResult;
}

export interface ScenarioRuns {
  runs: LoadResult[];
  /** The run with the median rate, whose latencies are reported with it. */
  median: LoadResult;
  /** Peak RSS and CPU time of each server process over the measured runs. */
  usage: ProcessUsage;
}

export function medianBy<T>(items: T[], value: (item: T) => number): T {
  const sorted = [...items].sort((a, b) => value(a) - value(b));
  return sorted[Math.floor((sorted.length - 1) / 2)]!;
}

/** A warm-up run (discarded), then `runs` measured runs, sampling the servers' RSS meanwhile. */
export async function measure(
  spec: Omit<LoadSpec, 'durationSec'>,
  timing: { warmUpSec: number; runSec: number; runs: number },
  servers: ServerProcess[],
): Promise<ScenarioRuns> {
  await runLoad({ ...spec, durationSec: timing.warmUpSec });
  const watch = watchProcesses(servers);
  const runs: LoadResult[] = [];
  for (let i = 0; i < timing.runs; i++) runs.push(await runLoad({ ...spec, durationSec: timing.runSec }));
  return { runs, median: medianBy(runs, (run) => run.perSecond), usage: watch.stop() };
}
