import { Sql } from '@app/database';
import type { EventsRecorder } from '@app/events';
import { TRANSITIONS } from './message-status';
import { MESSAGE_SEQS_LOCK, MessagesRepository } from './messages.repository';

const CREATED_AT = new Date('2026-06-01T12:00:00.000Z');
const SENT_AT = new Date('2026-06-01T12:00:01.000Z');
/** The delivery columns of a message not yet attempted, and of one sent at its second attempt. */
const NONE = { attempts: 0, sent_at: null, last_error: null };
const DELIVERY = { attempts: 2, sent_at: SENT_AT, last_error: 'webhook answered 503' };

/** A database that stores every row of an INSERT, and answers every other statement with no rows. */
function setUp() {
  const sql = new Sql({} as ConstructorParameters<typeof Sql>[0]);
  const rows = jest.spyOn(sql, 'rows').mockImplementation(async (text: string, values: unknown[] = []) => {
    for (const status of ['sending', 'sent']) {
      if (!text.includes(`status = '${status}'`)) continue;
      // A message already sent is left out: the rows after it no longer line up with the ids asked for.
      const [ids] = values as [string[]];
      return ids
        .filter((id) => !id.endsWith('_sent'))
        .map((id) => ({ id, seq: '1', message: id, status, created_at: CREATED_AT, account_id: '7', ...DELIVERY }));
    }
    if (!text.includes('INSERT INTO messages')) return [];
    const [ids, , texts] = values as [string[], number[], string[]];
    // Returned in another order than inserted: each request must still get its own row.
    return ids
      .map((id, i) => ({
        id,
        seq: String(i + 1),
        message: texts[i],
        status: 'queued',
        created_at: CREATED_AT,
        ...NONE,
      }))
      .reverse();
  });
  const query = jest.spyOn(sql, 'query').mockResolvedValue({ rows: [], rowCount: 0 } as never);
  const inTransaction = jest.spyOn(sql, 'inTransaction', 'get').mockReturnValue(false);
  const transaction = jest.spyOn(sql, 'transaction').mockImplementation((work) => work());
  const recordAll = jest.fn().mockResolvedValue(undefined);
  const repository = new MessagesRepository(sql, { recordAll } as unknown as EventsRecorder);
  return { repository, rows, query, inTransaction, transaction, recordAll };
}

const message = (id: string, accountId: number, text: string) => ({ id, accountId, text });

describe('MessagesRepository', () => {
  afterEach(() => jest.useRealTimers());

  it('stores messages inserted together with one INSERT under the seq lock, giving each its own row', async () => {
    const { repository, rows } = setUp();
    const stored = await Promise.all([
      repository.insert(message('msg_a', 1, 'one')),
      repository.insert(message('msg_b', 2, 'two')),
      repository.insert(message('msg_c', 1, 'three')),
    ]);
    expect(stored.map((row) => [row.id, row.message, row.status])).toEqual([
      ['msg_a', 'one', 'queued'],
      ['msg_b', 'two', 'queued'],
      ['msg_c', 'three', 'queued'],
    ]);
    expect(rows).toHaveBeenCalledTimes(1);
    expect(rows.mock.calls[0]![0]).toMatch(/pg_advisory_xact_lock\(\$4\).*INSERT INTO messages .* unnest/s);
    expect(rows.mock.calls[0]![1]).toEqual([
      ['msg_a', 'msg_b', 'msg_c'],
      [1, 2, 1],
      ['one', 'two', 'three'],
      MESSAGE_SEQS_LOCK,
    ]);
  });

  it('inserts a message alone inside a transaction', async () => {
    const { repository, rows, inTransaction } = setUp();
    inTransaction.mockReturnValue(true);
    await Promise.all([repository.insert(message('msg_a', 1, 'one')), repository.insert(message('msg_b', 1, 'two'))]);
    expect(rows.mock.calls.map(([, values]) => values![0])).toEqual([['msg_a'], ['msg_b']]);
  });

  it('claims the messages of jobs started together with one guarded UPDATE, each job getting its own or none', async () => {
    const { repository, rows } = setUp();
    const claimed = await Promise.all(['msg_a', 'msg_sent', 'msg_b'].map((id) => repository.startSending(id)));
    expect(claimed.map((message) => message && [message.id, message.status])).toEqual([
      ['msg_a', 'sending'],
      undefined,
      ['msg_b', 'sending'],
    ]);
    expect(rows).toHaveBeenCalledTimes(1);
    expect(rows.mock.calls[0]![0]).toMatch(/ORDER BY id FOR NO KEY UPDATE.*UPDATE messages SET status = 'sending'/s);
    expect(rows.mock.calls[0]![1]).toEqual([['msg_a', 'msg_sent', 'msg_b'], TRANSITIONS.startSending]);
  });

  it('claims a message alone inside a transaction', async () => {
    const { repository, rows, inTransaction } = setUp();
    inTransaction.mockReturnValue(true);
    await Promise.all([repository.startSending('msg_a'), repository.startSending('msg_b')]);
    expect(rows.mock.calls.map(([, values]) => values![0])).toEqual([['msg_a'], ['msg_b']]);
  });

  it('marks the messages delivered together sent with one guarded UPDATE, and their events with it', async () => {
    const { repository, rows, transaction, recordAll } = setUp();
    await Promise.all([repository.markSent('msg_a'), repository.markSent('msg_b')]);
    expect(rows).toHaveBeenCalledTimes(1);
    expect(rows.mock.calls[0]![0]).toMatch(/status = ANY\(\$2\).*UPDATE messages SET status = 'sent'/s);
    expect(rows.mock.calls[0]![1]).toEqual([['msg_a', 'msg_b'], TRANSITIONS.markSent]);
    expect(transaction).toHaveBeenCalledTimes(1);
    expect(recordAll).toHaveBeenCalledWith(
      ['msg_a', 'msg_b'].map((id) => ({
        recipientAccountId: 7,
        type: 'message.sent',
        object: {
          id,
          message: id,
          status: 'sent',
          createdAt: CREATED_AT.toISOString(),
          attempts: 2,
          sentAt: SENT_AT.toISOString(),
          lastError: 'webhook answered 503',
        },
      })),
    );
  });

  it('records the messages enqueued close together in one UPDATE', async () => {
    jest.useFakeTimers();
    const { repository, query } = setUp();
    repository.recordEnqueued('msg_a');
    repository.recordEnqueued('msg_b');
    repository.recordEnqueued('msg_c');
    expect(query).not.toHaveBeenCalled();
    await jest.advanceTimersByTimeAsync(10);
    expect(query).toHaveBeenCalledTimes(1);
    expect(query.mock.calls[0]![0]).toMatch(
      /UPDATE messages SET enqueued_at = now\(\) WHERE id IN \(SELECT id FROM locked\)/,
    );
    expect(query.mock.calls[0]![1]).toEqual([['msg_a', 'msg_b', 'msg_c']]);
  });

  it('leaves an enqueued batch the database refused to the reconciler, without throwing', async () => {
    const { repository, query } = setUp();
    query.mockRejectedValueOnce(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }));
    repository.recordEnqueued('msg_a');
    await expect(repository.flushEnqueued()).resolves.toBeUndefined();
    repository.recordEnqueued('msg_b');
    await repository.flushEnqueued();
    expect(query.mock.calls[1]![1]).toEqual([['msg_b']]);
  });

  it('writes the enqueued records pending at shutdown, and nothing when none are', async () => {
    const { repository, query } = setUp();
    await repository.onApplicationShutdown();
    expect(query).not.toHaveBeenCalled();
    repository.recordEnqueued('msg_a');
    await repository.onApplicationShutdown();
    expect(query.mock.calls[0]![1]).toEqual([['msg_a']]);
  });
});
