import { loadSettings } from '@app/core';
import { DatabaseSettings, dataSourceOptions } from '@app/database';
import { Pool } from 'pg';
import { EventsRecorder } from '../../libs/events/src/events.recorder';
import { EventsRepository } from '../../libs/events/src/events.repository';
import { MessagesRepository } from '../../libs/messaging/src/messages.repository';
import { withDatabase } from '../support/database';
import { sqlOnPool } from '../support/doubles';
import { TEST_DATABASE_URL } from '../support/test-env';

/** What the repository stored, read beside it. */
interface StoredRow {
  id: string;
  seq: string;
  status: string;
  attempts: number;
  last_error: string | null;
  enqueued_at: Date | null;
}

/** A medium test: the repository's statements against the test database, nothing faked. */
describe('MessagesRepository on PostgreSQL', () => {
  const { extra } = dataSourceOptions(loadSettings(DatabaseSettings, { DATABASE_URL: TEST_DATABASE_URL }));
  const pool = new Pool({ ...extra, connectionString: TEST_DATABASE_URL, max: 4 });
  const sql = sqlOnPool(pool);
  const repository = new MessagesRepository(sql, new EventsRecorder(sql, new EventsRepository(sql)));
  let accountId: number;
  let next = 0;
  const newId = () => `msg_repository_${process.pid}_${++next}`;

  const stored = (ids: string[]) =>
    withDatabase(async (client) => {
      const { rows } = await client.query<StoredRow>(
        'SELECT id, seq, status, attempts, last_error, enqueued_at FROM messages WHERE id = ANY($1) ORDER BY seq',
        [ids],
      );
      return rows;
    });
  const eventsOf = (messageId: string) =>
    withDatabase(async (client) => {
      const { rows } = await client.query<{ type: string; account_id: string }>(
        "SELECT type, account_id FROM events WHERE object->>'id' = $1 ORDER BY seq",
        [messageId],
      );
      return rows.map((row) => [row.type, Number(row.account_id)]);
    });

  beforeAll(() =>
    withDatabase(async (client) => {
      const email = `messages-repository-${process.pid}@example.com`;
      const { rows } = await client.query<{ id: string }>(
        `INSERT INTO accounts (email, email_canonical, plan) VALUES ($1::text, $1::text, 'free') RETURNING id`,
        [email],
      );
      accountId = Number(rows[0]!.id);
    }),
  );
  afterAll(async () => {
    await repository.flushEnqueued();
    await withDatabase((client) => client.query('DELETE FROM accounts WHERE id = $1', [accountId]));
    await pool.end();
  });

  const insert = (text = 'Rex found a home') => repository.insert({ id: newId(), accountId, text });

  it('stores messages inserted together, each request getting its own row, seqs in the order given', async () => {
    const messages = await Promise.all(['one', 'two', 'three'].map((text) => insert(text)));

    expect(messages.map((message) => [message.message, message.status])).toEqual([
      ['one', 'queued'],
      ['two', 'queued'],
      ['three', 'queued'],
    ]);
    expect((await stored(messages.map((message) => message.id))).map((row) => row.id)).toEqual(
      messages.map((message) => message.id),
    );
  });

  it('inserts alone inside a transaction, rolled back with it', async () => {
    const id = newId();
    const failure = new Error('the rule refused it');

    await expect(
      sql.transaction(async () => {
        await repository.insert({ id, accountId, text: 'never stored' });
        throw failure;
      }),
    ).rejects.toBe(failure);
    expect(await stored([id])).toEqual([]);
  });

  it('claims a queued message for sending once: a second claim, or a claim of a sent one, gets none', async () => {
    const message = await insert();

    const claimed = await repository.startSending(message.id);
    expect(claimed).toMatchObject({ id: message.id, status: 'sending' });
    await repository.markSent(message.id);

    expect(await repository.startSending(message.id)).toBeUndefined();
    expect(await stored([message.id])).toMatchObject([{ status: 'sent', attempts: 1 }]);
  });

  it('marks a message sent with its message.sent event to the sender, in one transaction', async () => {
    const message = await insert();
    await repository.startSending(message.id);

    await repository.markSent(message.id);

    expect(await stored([message.id])).toMatchObject([{ status: 'sent' }]);
    expect(await eventsOf(message.id)).toEqual([['message.sent', accountId]]);
  });

  it('gives the message.sent event the message as it is once sent: its attempts, sentAt and lastError', async () => {
    const message = await insert();
    await repository.startSending(message.id);
    await repository.recordError(message.id, 'webhook answered 503');

    await repository.markSent(message.id);

    const [object] = await withDatabase(async (client) => {
      const { rows } = await client.query<{ object: Record<string, unknown> }>(
        "SELECT object FROM events WHERE object->>'id' = $1 AND type = 'message.sent'",
        [message.id],
      );
      return rows.map((row) => row.object);
    });
    expect(object).toEqual({
      id: message.id,
      message: message.message,
      status: 'sent',
      createdAt: message.createdAt,
      attempts: 1,
      sentAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      lastError: 'webhook answered 503',
    });
  });

  it('fails only a message its transitions allow to fail, recording the error and the event', async () => {
    const sending = await insert();
    const sent = await insert();
    await Promise.all([repository.startSending(sending.id), repository.startSending(sent.id)]);
    await repository.markSent(sent.id);

    await repository.markFailed(sending.id, 'refused by the transport');
    await repository.markFailed(sent.id, 'too late');

    expect(await stored([sending.id, sent.id])).toMatchObject([
      { id: sending.id, status: 'failed', last_error: 'refused by the transport' },
      { id: sent.id, status: 'sent', last_error: null },
    ]);
    expect(await eventsOf(sending.id)).toEqual([['message.failed', accountId]]);
  });

  it('records the messages enqueued close together, written by the time a flush resolves', async () => {
    const messages = await Promise.all([insert(), insert()]);

    for (const message of messages) repository.recordEnqueued(message.id);
    await repository.flushEnqueued();

    const rows = await stored(messages.map((message) => message.id));
    expect(rows.every((row) => row.enqueued_at instanceof Date)).toBe(true);
  });

  it('lists the account’s messages newest first, by status and before a seq', async () => {
    const [older, newer] = [await insert('older'), await insert('newer')];
    await repository.startSending(newer.id);

    const page = await repository.list(accountId, { limit: 1 });
    const sending = await repository.list(accountId, { limit: 10, status: 'sending' });
    const before = await repository.list(accountId, { limit: 1, beforeSeq: page.lastSeq! });

    expect(page.messages.map((message) => message.id)).toEqual([newer.id]);
    expect(sending.messages.map((message) => message.id)).toContain(newer.id);
    expect(sending.messages.map((message) => message.status)).toEqual(sending.messages.map(() => 'sending'));
    expect(before.messages.map((message) => message.id)).toEqual([older.id]);
  });
});
