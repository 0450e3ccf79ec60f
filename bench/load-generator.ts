// The load generator, run as its own process (pinned to another core than the server): reads a
// LoadSpec as JSON on stdin, runs the load (autocannon's as fast as answers come, or paced at an offered
// rate), prints one LoadResult as JSON on stdout.
import autocannon from 'autocannon';
import { Agent, request as httpRequest } from 'node:http';
import { text } from 'node:stream/consumers';
import { setTimeout as sleep } from 'node:timers/promises';
import type { LoadRequest, LoadResult, LoadSpec, OperationResult } from './support/load';

const PREVIOUS_ID = '{previousId}';
type AutocannonRequest = NonNullable<Parameters<typeof autocannon>[0]['requests']>[number];

/** The `{previousId}` after an answer: pages are arrays, a 304 has no body; only an object's id counts. */
const nextPreviousId = (body: string, previous: unknown): unknown =>
  body.startsWith('{') ? (JSON.parse(body) as { id?: unknown }).id : previous;

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
      context.previousId = nextPreviousId(body, context.previousId);
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

/** Seconds a request may take before it counts as timed out, as autocannon's `timeout`. */
const TIMEOUT_SEC = 10;

/** What one answer was: the request, its status, and its latency in ms. */
type Answer = (request: LoadRequest, status: number, ms: number) => void;

/** Each connection's own requests: dealt out among the connections, or all of them each. */
const requestsOf = (spec: LoadSpec, connection: number) =>
  spec.dealt ? spec.requests.filter((_, i) => i % spec.connections === connection) : spec.requests;

/** As fast as answers come, on `connections` at once (autocannon). */
async function runUnpaced(spec: LoadSpec, answer: Answer): Promise<{ errors: number; timeouts: number }> {
  const chained = spec.requests.some((request) => request.path.includes(PREVIOUS_ID));
  let nextClient = 0;
  const instance = autocannon({
    url: spec.url,
    connections: spec.connections,
    ...(spec.amount ? { amount: spec.amount } : { duration: spec.durationSec }),
    timeout: TIMEOUT_SEC,
    // autocannon copies and encodes the request list once per connection: a long list is dealt out instead.
    requests: spec.dealt
      ? [toAutocannon(spec.requests[0]!, chained)]
      : spec.requests.map((r) => toAutocannon(r, chained)),
    setupClient: spec.dealt
      ? (client) => client.setRequests(requestsOf(spec, nextClient++).map((r) => toAutocannon(r, chained)))
      : undefined,
  });
  instance.on('response', (client: unknown, status: number, _bytes: number, ms: number) =>
    answer(answered(client), status, ms),
  );
  const { errors, timeouts } = await instance;
  return { errors, timeouts };
}

/**
 * At an offered rate, spaced evenly: the whole load's request j is due j / rate seconds after the start,
 * on connection j % connections, which sends it when it is due or, while its previous answer is still
 * coming, as soon as that arrives. Each latency counts from when the request was due, so a server that
 * falls behind shows it. (autocannon's own rate lets each connection send its second's share back to
 * back when each second begins: a burst at full speed, then idle.)
 */
async function runPaced(spec: LoadSpec & { overallRate: number }, answer: Answer) {
  const url = new URL(spec.url);
  const started = performance.now();
  const until = started + (spec.durationSec ?? Infinity) * 1000;
  let sent = 0;
  let errors = 0;
  let timeouts = 0;
  const connection = async (index: number) => {
    // One socket per connection: its requests follow each other, as a client's do.
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const requests = requestsOf(spec, index);
    if (requests.length === 0) return;
    let previousId: unknown;
    for (let k = 0; ; k++) {
      const due = started + ((k * spec.connections + index) * 1000) / spec.overallRate;
      if (due >= until || (spec.amount !== undefined && sent >= spec.amount)) break;
      sent++;
      if (due > performance.now()) await sleep(due - performance.now());
      const request = requests[k % requests.length]!;
      const deadline = AbortSignal.timeout(TIMEOUT_SEC * 1000);
      try {
        const { status, body } = await send(url, agent, request, String(previousId), deadline);
        previousId = nextPreviousId(body, previousId);
        answer(request, status, performance.now() - due);
      } catch {
        if (deadline.aborted) timeouts++;
        else errors++;
      }
    }
    agent.destroy();
  };
  await Promise.all(Array.from({ length: spec.connections }, (_, index) => connection(index)));
  return { errors, timeouts };
}

/** One request on the connection's socket: its status and body. */
function send(url: URL, agent: Agent, request: LoadRequest, previousId: string, signal: AbortSignal) {
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const sent = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        agent,
        method: request.method,
        path: request.path.replace(PREVIOUS_ID, previousId),
        headers: request.headers,
        signal,
      },
      (response) => {
        text(response).then((body) => resolve({ status: response.statusCode!, body }), reject);
      },
    );
    sent.on('error', reject);
    sent.end(request.body);
  });
}

async function main(): Promise<void> {
  const spec = JSON.parse(await text(process.stdin)) as LoadSpec;
  const latencies = new Latencies();
  const byOperation = new Map<string, { latencies: Latencies; statuses: Record<string, number> }>();
  const statuses: Record<string, number> = {};
  const named = spec.requests.some((request) => request.operation);
  const answer: Answer = (request, status, ms) => {
    statuses[status] = (statuses[status] ?? 0) + 1;
    latencies.add(ms);
    if (!named) return;
    const operation = request.operation ?? 'unnamed';
    if (!byOperation.has(operation)) byOperation.set(operation, { latencies: new Latencies(), statuses: {} });
    const one = byOperation.get(operation)!;
    one.statuses[status] = (one.statuses[status] ?? 0) + 1;
    one.latencies.add(ms);
  };
  const started = process.hrtime.bigint();
  const { overallRate } = spec;
  const { errors, timeouts } =
    overallRate === undefined ? await runUnpaced(spec, answer) : await runPaced({ ...spec, overallRate }, answer);
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const total = Object.values(statuses).reduce((sum, count) => sum + count, 0);
  const output: LoadResult = {
    requests: total,
    seconds,
    perSecond: total / seconds,
    statuses,
    errors,
    timeouts,
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
