import { once } from 'node:events';
import { createServer, IncomingHttpHeaders, ServerResponse } from 'node:http';
import { AccountsService } from '@app/accounts';
import { MESSAGES_QUEUE } from '@app/messaging';
import { MESSAGES_APP_OPTIONS } from '../../apps/messages/src/messages-app';
import { MessagesModule } from '../../apps/messages/src/messages.module';
import { withDatabase } from './database';
import { TestAccount, uniqueEmail } from './factories';
import { createTestHttpApp, TestAppOverrides, TestHttpApp } from './http-app';
import { AppProcess, startServing, waitFor } from './processes';
import { testQueue } from './redis';

/** The real messages app module, served in-process on an ephemeral port. */
export function createMessagesApp(overrides: TestAppOverrides = {}): Promise<TestHttpApp> {
  return createTestHttpApp(MessagesModule, MESSAGES_APP_OPTIONS, overrides);
}

export const MESSAGE_ID = /^msg_[0-9A-Za-z]{24}$/;
export const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/**
 * The messages app and an account of its own for a suite, started before its tests and closed after
 * them; `overrides` runs in the suite's `beforeAll`.
 */
export function useMessagesApp(overrides: () => Promise<TestAppOverrides> | TestAppOverrides = () => ({})): {
  app: TestHttpApp;
  account: TestAccount;
} {
  const suite = {} as { app: TestHttpApp; account: TestAccount };
  beforeAll(async () => {
    suite.app = await createMessagesApp(await overrides());
    suite.account = await createAccount(suite.app);
  });
  afterAll(() => suite.app?.close());
  return suite;
}

/** An account and its key, made through the app's own AccountsService (sign-up lives in the api app). */
export async function createAccount(app: TestHttpApp): Promise<TestAccount> {
  const email = uniqueEmail('messages');
  const { account, apiKey } = await app.app.get(AccountsService).signUp(email);
  return {
    accountId: account.id,
    keyId: apiKey.key.id,
    key: apiKey.secret,
    email,
    auth: { Authorization: `Bearer ${apiKey.secret}` },
  };
}

export interface StoredMessage {
  id: string;
  account_id: string;
  message: string;
  status: string;
  attempts: number;
  last_error: string | null;
  created_at: Date;
  enqueued_at: Date | null;
  sending_at: Date | null;
  sent_at: Date | null;
  failed_at: Date | null;
}

export function storedMessage(id: string): Promise<StoredMessage | undefined> {
  return withDatabase(async (client) => (await client.query('SELECT * FROM messages WHERE id = $1', [id])).rows[0]);
}

/**
 * Empties the shared test queue for a suite that starts workers. Earlier suites leave jobs and, worse,
 * BullMQ's `stalled-check` key, which holds off every worker's stalled-job check for the stalled
 * interval of the worker that set it, whatever the new worker's own interval.
 */
export async function emptyMessagesQueue(): Promise<void> {
  const queue = testQueue(MESSAGES_QUEUE);
  try {
    await queue.obliterate({ force: true });
  } finally {
    await queue.close();
  }
}

/** Waits until the app has recorded that Redis took the message's job (written in batches, just after the 202). */
export async function waitForEnqueued(id: string): Promise<StoredMessage> {
  await waitFor(async () => (await storedMessage(id))?.enqueued_at instanceof Date, 5000, `${id} to be enqueued`);
  return (await storedMessage(id))!;
}

/** Waits until the worker has taken the message to `status`, and returns what is stored. */
export async function waitForStatus(id: string, status: string, timeoutMs = 20000): Promise<StoredMessage> {
  await waitFor(async () => (await storedMessage(id))?.status === status, timeoutMs, `${id} to be ${status}`);
  return (await storedMessage(id))!;
}

/** A real worker process (the compiled app), ready once it takes jobs. */
export function startWorker(env: Record<string, string> = {}): Promise<AppProcess & { baseUrl: string }> {
  return startServing('worker', env);
}

export interface Delivery {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** An HTTP receiver on 127.0.0.1 for the webhook transport: records every delivery, answers as told. */
export class WebhookReceiver {
  readonly deliveries: Delivery[] = [];
  /** How to answer a delivery; by default 204. Leaving `response` unanswered keeps the sender waiting. */
  answer: (delivery: Delivery, response: ServerResponse) => void = (_delivery, response) =>
    response.writeHead(204).end();
  private readonly server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const delivery = { path: request.url!, headers: request.headers, body: Buffer.concat(chunks).toString('utf8') };
      this.deliveries.push(delivery);
      this.answer(delivery, response);
    });
  });

  async start(): Promise<string> {
    this.server.listen(0, '127.0.0.1');
    await once(this.server, 'listening');
    return `http://127.0.0.1:${(this.server.address() as { port: number }).port}/hooks/messages`;
  }

  of(messageId: string): Delivery[] {
    return this.deliveries.filter((delivery) => delivery.headers['x-message-id'] === messageId);
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    this.server.close();
    await once(this.server, 'close');
  }
}
