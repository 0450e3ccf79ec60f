import { join } from 'node:path';
import { ProcessUsage, runNodeForJson, ServerProcess, watchProcesses } from './processes';

export interface LoadRequest {
  method: 'GET' | 'POST' | 'PATCH' | 'PUT';
  /** `{previousId}` stands for the `id` of the previous answer on the same connection (an order just placed). */
  path: string;
  headers?: Record<string, string>;
  body?: string;
  /** What the request is, for latencies and statuses per operation in the result (the mix's). */
  operation?: string;
}

/** The answers of one operation: how many, by status, and their latencies. */
export interface OperationResult {
  requests: number;
  statuses: Record<string, number>;
  latencyMs: { p50: number; p99: number };
}

/** What one autocannon run does: for `durationSec`, or until `amount` requests are answered. */
export interface LoadSpec {
  url: string;
  connections: number;
  durationSec?: number;
  amount?: number;
  /** Requests per second over all connections, spaced evenly; as fast as answers come when unset. */
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
  /** By `operation`, when the requests name theirs. */
  operations?: Record<string, OperationResult>;
}

/** The core the load generator runs on: the other one than the servers' core 0, when there is one. */
const LOAD_CORE = 1;

/** Runs the load generator as its own process on LOAD_CORE, so it never shares the server's core. */
export function runLoad(spec: LoadSpec): Promise<LoadResult> {
  const script = join('bench', 'load-generator.js');
  return runNodeForJson('load generator', script, [], { core: LOAD_CORE, input: JSON.stringify(spec) });
}

/** Sends `request` `amount` times over 50 connections; throws unless each was answered `status`. */
export async function sendEach(url: string, request: LoadRequest, amount: number, status: number): Promise<void> {
  const result = await runLoad({ url, connections: 50, amount, requests: [request] });
  if (result.statuses[status] !== amount)
    throw new Error(
      `expected ${amount} ${request.method} ${request.path} answered ${status}, got ${JSON.stringify(result.statuses)}`,
    );
}

export interface ScenarioRuns {
  runs: LoadResult[];
  /** The run with the median rate, whose latencies are reported with it. */
  median: LoadResult;
  /** Peak RSS and CPU time of the server process over the measured runs, and the stores' CPU meanwhile. */
  usage: ProcessUsage;
}

export function medianBy<T>(items: T[], value: (item: T) => number): T {
  const sorted = [...items].sort((a, b) => value(a) - value(b));
  return sorted[Math.floor((sorted.length - 1) / 2)]!;
}

/** One load and the server process that answers it. */
export interface Measured {
  spec: Omit<LoadSpec, 'durationSec'>;
  server: ServerProcess;
  /** Restores what a run used up (the pets its orders held), before each run and unmeasured. */
  prepare?: () => Promise<void>;
}

/** Two measurements' usage as one: peak RSS the larger, CPU times summed. */
export function addUsage(total: ProcessUsage, run: ProcessUsage): ProcessUsage {
  const sum: ProcessUsage = { peakRssMiB: { ...total.peakRssMiB }, cpuSec: { ...total.cpuSec }, storesCpuSec: 0 };
  for (const [name, peak] of Object.entries(run.peakRssMiB))
    sum.peakRssMiB[name] = Math.max(sum.peakRssMiB[name] ?? 0, peak);
  for (const [name, seconds] of Object.entries(run.cpuSec)) sum.cpuSec[name] = (sum.cpuSec[name] ?? 0) + seconds;
  sum.storesCpuSec = total.storesCpuSec + run.storesCpuSec;
  return sum;
}

/**
 * Measures loads in turns: a warm-up run of each (discarded), then `runs` turns, each running every
 * load once, one after another. Loads measured together thus see the same machine, however busy it
 * gets meanwhile, which is what makes their figures comparable on a machine others share.
 */
export async function measureInTurns(
  loads: Measured[],
  timing: { warmUpSec: number; runSec: number; runs: number },
  beforeTurn?: () => Promise<void>,
): Promise<ScenarioRuns[]> {
  for (const { spec, prepare } of loads) {
    await prepare?.();
    await runLoad({ ...spec, durationSec: timing.warmUpSec });
  }
  const measured = loads.map(() => ({
    runs: [] as LoadResult[],
    usage: { peakRssMiB: {}, cpuSec: {}, storesCpuSec: 0 } as ProcessUsage,
  }));
  for (let turn = 0; turn < timing.runs; turn++) {
    await beforeTurn?.();
    for (const [index, { spec, server, prepare }] of loads.entries()) {
      const loadMeasured = measured[index]!;
      await prepare?.();
      const watch = watchProcesses([server]);
      loadMeasured.runs.push(await runLoad({ ...spec, durationSec: timing.runSec }));
      loadMeasured.usage = addUsage(loadMeasured.usage, watch.stop());
    }
  }
  return measured.map(({ runs, usage }) => ({ runs, median: medianBy(runs, (run) => run.perSecond), usage }));
}
