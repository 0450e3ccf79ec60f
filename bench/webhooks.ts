import { once } from 'node:events';
import { createServer } from 'node:http';
import { performance } from 'node:perf_hooks';
import { deliveryJobId, EventsSettings, WEBHOOKS_QUEUE } from '@app/events';
import { createPet, json } from './support/requests';
import { Stores, withClient } from './support/database';
import { bareWorker, DeliveryVariant, emptyQueues, measureDrains, startWorkers } from './support/drains';
import { sendEach } from './support/load';
import { portToListenOn, waitFor } from './support/processes';

/**
 * Lets endpoints and deliveries use the loopback receiver (outside development both refuse it), at
 * production's log level: development's default would be `debug`.
 */
export const LOOPBACK_ALLOWED = { APP_ENV: 'development', LOG_LEVEL: 'info' };

interface WebhooksOptions {
  stores: Stores;
  /** An api started with LOOPBACK_ALLOWED: the endpoint is created, and the events recorded, through it. */
  apiUrl: string;
  /** A key of an account of its own, whose limits never throttle the bench. */
  key: string;
  events: number;
  runs: number;
  logDir: string;
  appEnv: Record<string, string>;
}

/** The endpoint: answers each POST `204` once its body is in, and notes when each came. */
export async function startReceiver() {
  const arrivals: number[] = [];
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      arrivals.push(performance.now());
      response.writeHead(204).end();
    });
  });
  server.listen(await portToListenOn(), '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    arrivals,
    close: () => {
      server.closeAllConnections();
      server.close();
    },
  };
}

type Receiver = Awaited<ReturnType<typeof startReceiver>>;

/** Waits until `events` have arrived (and `done` says so, when given); per second from the first to the last. */
async function arrivalRate(receiver: Receiver, events: number, done?: () => Promise<boolean>): Promise<number> {
  const { arrivals } = receiver;
  await waitFor(
    async () => arrivals.length >= events && (!done || (await done())),
    30_000 + events * 2,
    `${events} events delivered`,
  );
  return (events - 1) / (Math.max(arrivals[events - 1]! - arrivals[0]!, 1) / 1000);
}

async function api<T>(options: WebhooksOptions, method: 'GET' | 'POST', path: string, body?: string): Promise<T> {
  const response = await fetch(`${options.apiUrl}${path}`, {
    method,
    headers: json(options.key),
    body,
  });
  if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as T;
}

/**
 * Webhook throughput, event → delivered: `pet.created` events are recorded first (no worker running),
 * then the worker dispatches them to the account's one endpoint, a local receiver answering `204`, and
 * delivers them. Compared in the same run with a bare BullMQ worker POSTing a body of the same size per job.
 */
export async function measureWebhooks(options: WebhooksOptions): Promise<DeliveryVariant[]> {
  const receiver = await startReceiver();
  try {
    const endpoint = await api<{ id: number }>(
      options,
      'POST',
      '/v1/webhook-endpoints',
      JSON.stringify({ url: receiver.url, events: ['pet.created'] }),
    );
    // A real event, whose body the bare worker's jobs carry.
    await api(options, 'POST', '/v1/pets', createPet(options.key).body);
    const [sample] = await api<object[]>(options, 'GET', '/v1/events?limit=1');
    const defaults = new EventsSettings();
    const concurrency = defaults.WEBHOOK_WORKER_CONCURRENCY;
    const bare = bareWorker(options.stores, options.logDir, {
      job: 'post',
      env: { BENCH_TARGET_URL: receiver.url },
      concurrency,
      attempts: defaults.WEBHOOK_MAX_ATTEMPTS,
      backoffMs: defaults.WEBHOOK_BACKOFF_MS,
    });
    const succeeded = () =>
      withClient(options.stores, async (client) => {
        const { rows } = await client.query<{ count: string }>(
          `SELECT count(*) FROM webhook_attempts WHERE status = 'succeeded'`,
        );
        return Number(rows[0]!.count) === options.events;
      });
    return await measureDrains(
      [
        {
          name: 'bare-worker',
          title: `bare BullMQ worker, one POST of an event's body per job (concurrency ${concurrency})`,
          load: () =>
            bare.add(
              Array.from({ length: options.events }, (_, i) => {
                const eventId = `evt_bench_${i}`;
                const body = JSON.stringify({ ...sample, id: eventId });
                return { id: deliveryJobId({ eventId, endpointId: endpoint.id }), data: { body } };
              }),
            ),
          start: bare.start,
          rate: () => arrivalRate(receiver, options.events),
        },
        {
          name: 'worker-1',
          title: '1 worker process: dispatch, signed POST, delivery log, default concurrency',
          // The events recorded through the real POST /v1/pets (the outbox as it is), while no worker runs.
          load: () => sendEach(options.apiUrl, createPet(options.key), options.events, 201),
          start: () => startWorkers(1, { ...options.appEnv, ...LOOPBACK_ALLOWED }, options.logDir),
          // Delivered is answered and recorded: every delivery's attempt `succeeded`.
          rate: () => arrivalRate(receiver, options.events, succeeded),
        },
      ],
      options.runs,
      options.events,
      async () => {
        await withClient(options.stores, (client) => client.query('TRUNCATE events CASCADE'));
        await emptyQueues(options.stores, WEBHOOKS_QUEUE);
        receiver.arrivals.length = 0;
      },
    );
  } finally {
    receiver.close();
  }
}
