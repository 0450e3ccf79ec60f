import type { HttpScenario, ScenarioContext } from './scenario';
import type { LoadRequest } from './load';

/** How many distinct requests a `-spread` scenario deals out among its connections. */
export const SPREAD_REQUESTS = 1000;

/**
 * Where the i-th request of a spread scenario starts, as a fraction of the catalogue: within its first
 * tenth (a shallow page), or with `deep` within its last (past 90 % of any filter's matches).
 */
export const spreadFraction = (i: number, deep: boolean) => (deep ? 0.9 : 0) + (0.1 * i) / SPREAD_REQUESTS;

/** A point near the i-th of `cities`, moved by up to about 5 km, so that no two requests ask the same. */
export function spreadPoint(cities: ReadonlyArray<readonly [number, number]>, i: number): string {
  const [latitude, longitude] = cities[i % cities.length]!;
  const step = Math.floor(i / cities.length);
  return `${(latitude + ((step * 37) % 91) / 2000 - 0.0225).toFixed(4)},${(longitude + ((step * 53) % 89) / 1500 - 0.03).toFixed(4)}`;
}

/**
 * The twin of a scenario whose clients all send one request: SPREAD_REQUESTS requests that differ in their
 * values (words, points, categories, cursors), dealt out among the connections, so that no two read
 * together and the batcher and shared reads (ADR 0031) save nothing. The twin is the headline figure.
 */
export function spreadTwin(
  shared: Pick<HttpScenario, 'name' | 'title' | 'server'>,
  what: string,
  request: (i: number, context: ScenarioContext) => LoadRequest | Promise<LoadRequest>,
): HttpScenario {
  return {
    name: `${shared.name}-spread`,
    title: `${shared.title.replace(/ \(.*\)$/, '')}, ${SPREAD_REQUESTS.toLocaleString('en-US')} requests: ${what}`,
    server: shared.server,
    spreadOf: shared.name,
    dealt: true,
    requests: (context) => Promise.all(Array.from({ length: SPREAD_REQUESTS }, (_, i) => request(i, context))),
  };
}
