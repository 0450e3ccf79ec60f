import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { canonicalEmail } from '@app/core';
import { DIGEST_MAX_PETS } from '@app/email';
import { SMTPServer } from 'smtp-server';
import { countOf, Stores, withClient } from './support/database';
import { DeliveryVariant, measureDrains, startWorkers } from './support/drains';
import { portToListenOn, sleep, waitFor } from './support/processes';
import type { DigestEmailsResult } from './support/report';

/**
 * The SMTP server every worker of the bench sends to (production refuses a worker without one): a real
 * server on the loopback (the smtp-server package, without STARTTLS or login) that accepts every email
 * once its data is in, and notes when each came.
 */
export async function startSmtpSink() {
  const arrivals: number[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData: (stream, _session, callback) => {
      stream.resume();
      stream.on('end', () => {
        arrivals.push(performance.now());
        callback();
      });
    },
  });
  const port = await portToListenOn();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const { port: listening } = server.server.address() as { port: number };
  return {
    env: { EMAIL_TRANSPORT: 'smtp', SMTP_URL: `smtp://127.0.0.1:${listening}` },
    arrivals,
    close: () => new Promise<void>((resolve) => server.close(resolve)),
  };
}

export type SmtpSink = Awaited<ReturnType<typeof startSmtpSink>>;

/**
 * The digest period the saved-search bench's worker runs with: the service's default. No seeded search was
 * emailed before, so the digest job's first run after the worker starts writes a digest for every search with
 * email alerts that matched: the burst the outbox has to clear before those searches' next digests, an hour on.
 */
export const DIGEST_PERIOD = { SAVED_SEARCH_EMAIL_MINUTES: '60' };

/** How soon a digest is sent after it is written, at the 99th percentile, for the outbox to keep up. */
export const DIGEST_SENT_WITHIN_MS = 5 * 60_000;

/** The digests go to this many addresses in turn, as searches of many adopters would. */
const ADDRESSES = 1_000;

/**
 * `count` saved-search digests written to the outbox as `EmailOutbox.enqueue` writes them (the same id,
 * address key, list, template and data), each listing the most pets a digest names, and more besides.
 */
async function seedDigests(stores: Stores, accountId: number, count: number): Promise<void> {
  const rows = Array.from({ length: count }, (_, i) => {
    const address = `Alerts-${i % ADDRESSES}@bench.example`;
    const savedSearchId = `srch_bench_${i}`;
    return {
      id: `eml_${randomBytes(18).toString('base64url')}`,
      address,
      addressKey: canonicalEmail(address),
      list: `saved_search:${savedSearchId}`,
      data: JSON.stringify({
        savedSearchId,
        searchName: 'Young dogs near Berlin',
        query: 'categoryId=1&ageGroup=young&near=52.52,13.405&radiusKm=30',
        pets: Array.from({ length: DIGEST_MAX_PETS }, (_, pet) => ({ id: 1000 + pet, name: `Bench ${pet}` })),
        more: 12,
      }),
    };
  });
  await withClient(stores, (client) =>
    client.query(
      `INSERT INTO email_notifications (id, address, address_key, list, template, data, account_id)
       SELECT id, address, address_key, list, 'saved_search_digest', data, $6
         FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::jsonb[]) AS n (id, address, address_key, list, data)`,
      [
        rows.map((row) => row.id),
        rows.map((row) => row.address),
        rows.map((row) => row.addressKey),
        rows.map((row) => row.list),
        rows.map((row) => row.data),
        accountId,
      ],
    ),
  );
}

interface EmailOptions {
  stores: Stores;
  sink: SmtpSink;
  /** The account the digests are the personal data of. */
  accountId: number;
  emails: number;
  runs: number;
  logDir: string;
  /** The apps' settings, which send to the sink. */
  appEnv: Record<string, string>;
}

/**
 * Email throughput, outbox → accepted: digests written to the outbox while no worker runs, then one worker's
 * poller claims, renders and sends them through nodemailer to the sink on the loopback, and records each sent.
 */
export async function measureEmail(options: EmailOptions): Promise<DeliveryVariant[]> {
  const { stores, sink } = options;
  const sent = async () =>
    (await countOf(stores, `SELECT FROM email_notifications WHERE status = 'sent'`)) === options.emails;
  return measureDrains(
    [
      {
        name: 'worker-1',
        title: '1 worker process: claim, render, SMTP send (nodemailer, pooled), outcome recorded',
        load: () => seedDigests(stores, options.accountId, options.emails),
        start: () => startWorkers(1, options.appEnv, options.logDir),
        // Sent is accepted and recorded: every email `sent`.
        rate: async () => {
          const { arrivals } = sink;
          await waitFor(
            async () => arrivals.length >= options.emails && (await sent()),
            // Enough at 50 emails a second: a loaded machine sends far fewer than a quiet one.
            60_000 + options.emails * 20,
            `${options.emails} emails sent`,
          );
          return (options.emails - 1) / (Math.max(arrivals[options.emails - 1]! - arrivals[0]!, 1) / 1000);
        },
      },
    ],
    options.runs,
    options.emails,
    async () => {
      await withClient(stores, (client) => client.query('TRUNCATE email_notifications'));
      sink.arrivals.length = 0;
    },
  );
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0;

/**
 * The digest emails written between `from` and `to` (every digest came due, and the last was written): how
 * many, how many were left unsent at `to`, and how long each took to be sent, once the outbox is given a
 * minute to send the last.
 */
export async function digestEmails(
  stores: Stores,
  searches: number,
  from: Date,
  to: Date,
): Promise<DigestEmailsResult> {
  const seconds = (to.getTime() - from.getTime()) / 1000;
  const written = `FROM email_notifications WHERE template = 'saved_search_digest' AND created_at BETWEEN $1 AND $2`;
  const count = (where: string) => countOf(stores, `SELECT ${written} ${where}`, [from, to]);
  const total = await count('');
  const pendingAtEnd = await count(`AND (finished_at IS NULL OR finished_at > $2)`);
  const sentMeanwhile = await countOf(
    stores,
    `SELECT FROM email_notifications
      WHERE template = 'saved_search_digest' AND status = 'sent' AND finished_at BETWEEN $1 AND $2`,
    [from, to],
  );
  const deadline = Date.now() + 60_000;
  while ((await count(`AND status = 'pending'`)) > 0 && Date.now() < deadline) await sleep(500);
  const lags = await withClient(stores, async (client) => {
    const { rows } = await client.query<{ ms: number }>(
      `SELECT extract(epoch FROM (finished_at - created_at)) * 1000 AS ms ${written} AND status = 'sent'`,
      [from, to],
    );
    return rows.map((row) => Number(row.ms)).sort((a, b) => a - b);
  });
  return {
    searches,
    minutes: Number(DIGEST_PERIOD.SAVED_SEARCH_EMAIL_MINUTES),
    written: total,
    writtenPerSecond: Math.round(total / seconds),
    sentPerSecond: Math.round(sentMeanwhile / seconds),
    pendingAtEnd,
    lagMedianMs: Math.round(percentile(lags, 0.5)),
    lagP99Ms: Math.round(percentile(lags, 0.99)),
    unsent: await count(`AND status <> 'sent'`),
  };
}
