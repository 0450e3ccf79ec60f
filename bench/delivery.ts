import { MESSAGES_QUEUE, MessagingSettings } from '@app/messaging';
import { Stores, withClient } from './support/database';
import { bareWorker, DeliveryVariant, emptyQueues, measureDrains, startWorkers } from './support/drains';
import { sendEach } from './support/load';
import { sendMessage } from './support/requests';
import { waitFor } from './support/processes';

/** The ceiling for BullMQ with one UPDATE per job was measured at this concurrency. */
const BARE_CONCURRENCY = 50;

interface DeliveryOptions {
  stores: Stores;
  messagesUrl: string;
  key: string;
  accountId: number;
  messages: number;
  runs: number;
  logDir: string;
  appEnv: Record<string, string>;
}

/**
 * Empties the messages table and both queues, so every run starts from nothing. The events go too: a
 * worker's dispatcher would otherwise spend the run on the backlog the HTTP scenarios recorded.
 */
async function clear(options: DeliveryOptions): Promise<void> {
  await withClient(options.stores, (client) => client.query('TRUNCATE messages, events CASCADE'));
  await emptyQueues(options.stores, MESSAGES_QUEUE);
}

/** Stores the rows and adds the jobs directly for the bare worker. */
async function loadForBareWorker(options: DeliveryOptions, bare: ReturnType<typeof bareWorker>): Promise<void> {
  const { rows } = await withClient(options.stores, (client) =>
    client.query<{ id: string }>(
      `INSERT INTO messages (id, account_id, message, enqueued_at)
       SELECT 'msg_bench_' || i, $1, 'Rex found a home', now() FROM generate_series(1, $2::int) AS i
       RETURNING id`,
      [options.accountId, options.messages],
    ),
  );
  await bare.add(rows.map(({ id }) => ({ id, data: { messageId: id } })));
}

/** Waits for every message to be `sent` (bounded), then measures from the first `sent_at` to the last. */
async function drainRate(options: DeliveryOptions): Promise<number> {
  return withClient(options.stores, async (client) => {
    await waitFor(
      async () => {
        const { rows } = await client.query<{ sent: string }>(
          `SELECT count(*) AS sent FROM messages WHERE status = 'sent'`,
        );
        return Number(rows[0]!.sent) === options.messages;
      },
      30_000 + options.messages * 2,
      `${options.messages} messages sent`,
    );
    const { rows } = await client.query<{ seconds: number }>(
      `SELECT extract(epoch FROM max(sent_at) - min(sent_at))::float8 AS seconds FROM messages`,
    );
    return (options.messages - 1) / Math.max(rows[0]!.seconds, 0.001);
  });
}

/**
 * Delivery throughput, accept → `sent`: the messages are accepted first (no worker running), then
 * the workers start and drain them. Compared with the bare worker in the same run.
 */
export function measureDelivery(options: DeliveryOptions): Promise<DeliveryVariant[]> {
  const defaults = new MessagingSettings();
  const bare = bareWorker(options.stores, options.logDir, {
    job: 'update',
    concurrency: BARE_CONCURRENCY,
    attempts: defaults.MESSAGES_MAX_ATTEMPTS,
    backoffMs: defaults.MESSAGES_BACKOFF_MS,
  });
  const workers = (count: number) => ({
    name: `worker-${count}`,
    title: `${count} worker process${count > 1 ? 'es' : ''}, log transport, default concurrency`,
    // Accepted through the real POST /messages, while no worker runs.
    load: () => sendEach(options.messagesUrl, sendMessage(options.key), options.messages, 202),
    start: () => startWorkers(count, options.appEnv, options.logDir),
    rate: () => drainRate(options),
  });
  return measureDrains(
    [
      {
        name: 'bare-worker',
        title: `bare BullMQ worker, one guarded UPDATE per job (concurrency ${BARE_CONCURRENCY})`,
        load: () => loadForBareWorker(options, bare),
        start: bare.start,
        rate: () => drainRate(options),
      },
      workers(1),
      workers(2),
    ],
    options.runs,
    options.messages,
    () => clear(options),
  );
}
