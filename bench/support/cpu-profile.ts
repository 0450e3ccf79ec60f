import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}

interface CpuProfile {
  startTime: number;
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

export interface ProfileSummary {
  /** Self time by function, in percent of the samples that were not idle. */
  functions: Array<{ name: string; percent: number }>;
  /** Self time by where the code lives: a package, Node's internals, the project, or V8 (GC, program). */
  places: Array<{ name: string; percent: number }>;
}

/** `node_modules/<pkg>` (scoped packages included), `node:<module>`, the project's own files, or V8's pseudo-frames. */
function placeOf(url: string, functionName: string): string {
  if (!url) return `(${functionName.replace(/[()]/g, '') || 'native'})`;
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1]!;
  // `node:internal/streams/writable` → `node:internal/streams`: by subsystem, not by file.
  if (url.startsWith('node:')) return url.split('/').slice(0, 2).join('/');
  return 'project';
}

function shortUrl(url: string): string {
  return url
    .replace(/^file:\/\//, '')
    .replace(/^.*node_modules\//, '')
    .replace(/^.*\/(apps|libs|bench)\//, '$1/');
}

/** Microseconds on the monotonic clock, which `process.hrtime` and V8's profiler share on Linux. */
export const monotonicMicros = () => Number(process.hrtime.bigint() / 1000n);

/**
 * Self time per function and per place from a `--cpu-prof` file, counting only the samples taken
 * within `window` (monotonic µs; start-up left out) and leaving idle time out.
 */
export function summariseProfile(file: string, window: { from: number; to: number }, top = 15): ProfileSummary {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const functions = new Map<string, number>();
  const places = new Map<string, number>();
  let total = 0;
  let at = profile.startTime;
  profile.samples.forEach((id, i) => {
    const micros = profile.timeDeltas[i] ?? 0;
    at += micros;
    const { functionName, url, lineNumber } = byId.get(id)!.callFrame;
    if (functionName === '(idle)' || at < window.from || at > window.to) return;
    total += micros;
    const name = url
      ? `${functionName || '(anonymous)'} ${shortUrl(url)}:${lineNumber + 1}`
      : functionName || '(native)';
    functions.set(name, (functions.get(name) ?? 0) + micros);
    const place = placeOf(url, functionName);
    places.set(place, (places.get(place) ?? 0) + micros);
  });
  const ranked = (map: Map<string, number>) =>
    [...map]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([name, micros]) => ({ name, percent: Math.round((1000 * micros) / total) / 10 }));
  return { functions: ranked(functions), places: ranked(places) };
}
