// The load generator, run as its own process (pinned to another core than the server): reads a
// LoadSpec as JSON on stdin, runs autocannon, prints one LoadResult as JSON on stdout.
import autocannon from 'autocannon';
import { text } from 'node:stream/consumers';
import type { LoadRequest, LoadResult, LoadSpec, OperationResult } from './support/load';

const PREVIOUS_ID = '{previousId}';
type AutocannonRequest = NonNullable<Parameters<typeof autocannon>[0]['requests']>[number];

/**
 * The request as autocannon takes it: a path naming the previous answer's id is filled in per
 * connection, from the id each answer carries (only read when some request needs it).
 */
function toAutocannon(request: LoadRequest, chained: boolean): AutocannonRequest {
  if (!chained) return request;
  return {
    ...request,
    setupRequest: (sent, context) =>
      request.path.includes(PREVIOUS_ID)
        ? { ...sent, path: request.path.replace(PREVIOUS_ID, String(context.previousId)) }
        : sent,
    onResponse: (_status, body, context) => {
      // Pages are arrays, a 304 has no body: only an object's id is a previous answer's.
      if (body.startsWith('{')) context.previousId = (JSON.parse(body) as { id?: unknown }).id;
    },
  };
}

/** Every response time, in ms: autocannon's own histogram rounds to whole milliseconds and skips non-2xx. */
class Latencies {
  private values = new Float64Array(1 << 16);
  private count = 0;

  add(ms: number): void {
    if (this.count === this.values.length) {
      const grown = new Float64Array(this.values.length * 2);
      grown.set(this.values);
      this.values = grown;
    }
    this.values[this.count++] = ms;
  }

  percentiles(): LoadResult['latencyMs'] {
    const sorted = this.values.slice(0, this.count).sort();
    const at = (fraction: number) => sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))] ?? 0;
    return { p50: at(0.5), p99: at(0.99), p999: at(0.999), max: sorted[sorted.length - 1] ?? 0 };
  }
}

/**
 * The request a connection's answer belongs to. autocannon answers in order on a connection without
 * pipelining and picks the connection's next request only after emitting `response`, so its request
 * iterator still holds the one answered.
 */
const answered = (client: unknown) =>
  (client as { requestIterator: { currentRequest: LoadRequest } }).requestIterator.currentRequest;

async function main(): Promise<void> {
  const spec = JSON.parse(await text(process.stdin)) as LoadSpec;
  const latencies = new Latencies();
  const byOperation = new Map<string, { latencies: Latencies; statuses: Record<string, number> }>();
  const statuses: Record<string, number> = {};
  const chained = spec.requests.some((request) => request.path.includes(PREVIOUS_ID));
  const requests = spec.requests.map((request) => toAutocannon(request, chained));
  const started = process.hrtime.bigint();
  let nextClient = 0;
  const instance = autocannon({
    url: spec.url,
    connections: spec.connections,
    ...(spec.amount ? { amount: spec.amount } : { duration: spec.durationSec }),
    overallRate: spec.overallRate,
    timeout: 10,
    // autocannon copies and encodes the request list once per connection: a long list is dealt out instead.
    requests: spec.dealt ? requests.slice(0, 1) : requests,
    setupClient: spec.dealt
      ? (client) => {
          const index = nextClient++;
          client.setRequests(requests.filter((_, i) => i % spec.connections === index));
        }
      : undefined,
  });
  const named = spec.requests.some((request) => request.operation);
  instance.on('response', (client: unknown, status: number, _bytes: number, ms: number) => {
    statuses[status] = (statuses[status] ?? 0) + 1;
    latencies.add(ms);
    if (!named) return;
    const operation = answered(client).operation ?? 'unnamed';
    if (!byOperation.has(operation)) byOperation.set(operation, { latencies: new Latencies(), statuses: {} });
    const one = byOperation.get(operation)!;
    one.statuses[status] = (one.statuses[status] ?? 0) + 1;
    one.latencies.add(ms);
  });
  const result = await instance;
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const total = Object.values(statuses).reduce((sum, count) => sum + count, 0);
  const output: LoadResult = {
    requests: total,
    seconds,
    perSecond: total / seconds,
    statuses,
    errors: result.errors,
    timeouts: result.timeouts,
    latencyMs: latencies.percentiles(),
    operations: named
      ? Object.fromEntries(
          [...byOperation].map(([name, one]): [string, OperationResult] => {
            const { p50, p99 } = one.latencies.percentiles();
            const requests = Object.values(one.statuses).reduce((sum, count) => sum + count, 0);
            return [name, { requests, statuses: one.statuses, latencyMs: { p50, p99 } }];
          }),
        )
      : undefined,
  };
  process.stdout.write(`${JSON.stringify(output)}\n`);
}

main().catch((error: Error) => {
  console.error(error.stack);
  process.exit(1);
});
