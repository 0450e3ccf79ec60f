import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { medianBy, type ScenarioRuns } from './load';
import type { HttpScenario } from './scenario';
import { BUILD_ROOT } from './processes';
import { BenchResults, markdown, ScenarioResult } from './report';

/** What the report says of a scenario beside its figures. */
export type Reported = Pick<HttpScenario, 'name' | 'title' | 'counted' | 'spreadOf' | 'peerOf'>;

/** A scenario's figures, as a ratio to the reference's rate over the same turns (its own median when absent). */
export function toResult(
  scenario: Reported,
  measured: ScenarioRuns,
  server: string,
  reference?: ScenarioRuns,
): ScenarioResult {
  const rate = (run: ScenarioRuns['median']) =>
    scenario.counted ? (run.statuses[scenario.counted] ?? 0) / run.seconds : run.perSecond;
  const rates = measured.runs.map(rate);
  const median = medianBy(rates, (rate) => rate);
  const requests = measured.runs.reduce((sum, run) => sum + run.requests, 0);
  const statuses: Record<string, number> = {};
  for (const run of measured.runs) {
    for (const [status, count] of Object.entries(run.statuses)) statuses[status] = (statuses[status] ?? 0) + count;
  }
  return {
    name: scenario.name,
    title: scenario.title,
    spreadOf: scenario.spreadOf,
    peerOf: scenario.peerOf,
    perSecond: median,
    runsPerSecond: rates,
    referencePerSecond: reference?.median.perSecond ?? median,
    ratio: reference ? median / reference.median.perSecond : 1,
    counted: scenario.counted,
    latencyMs: measured.median.latencyMs,
    cpuMicrosPerRequest: (1e6 * (measured.usage.cpuSec[server] ?? 0)) / requests,
    storesCpuMicrosPerRequest: (1e6 * measured.usage.storesCpuSec) / requests,
    peakRssMiB: measured.usage.peakRssMiB[server] ?? 0,
    statuses,
    errors: measured.runs.reduce((sum, run) => sum + run.errors + run.timeouts, 0),
  };
}

/**
 * Writes bench/results/<date><suffix>.json and .md and returns the Markdown report. A quick or partial
 * run carries a suffix, so it never replaces the full run's files.
 */
export function writeResults(
  results: BenchResults,
  suffix: '' | '-quick' | '-partial',
): { name: string; report: string } {
  const resultsDir = join(BUILD_ROOT, '..', 'bench', 'results');
  mkdirSync(resultsDir, { recursive: true });
  const name = join(resultsDir, `${results.date}${suffix}`);
  writeFileSync(`${name}.json`, `${JSON.stringify(results, null, 2)}\n`);
  const report = markdown(results);
  writeFileSync(`${name}.md`, report);
  return { name, report };
}
