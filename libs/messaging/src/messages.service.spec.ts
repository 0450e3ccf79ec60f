import { ADVISORY_LOCKS, type Sql } from '@app/core';
import type { EnqueuedRecorder } from './enqueued-recorder';
import type { MessagesProducer } from './messages.producer';
import { MessagesService } from './messages.service';

const CREATED_AT = new Date('2026-06-01T12:00:00.000Z');

/** A database that stores every row of an INSERT. */
function setUp() {
  const sql = {
    rows: jest.fn(async (_text: string, [ids, , texts]: [string[], number[], string[]]) => {
      // Returned in another order than inserted: each request must still get its own row.
      return ids
        .map((id, i) => ({ id, seq: String(i + 1), message: texts[i], status: 'queued', created_at: CREATED_AT }))
        .reverse();
    }),
  };
  const producer = { enqueue: jest.fn().mockResolvedValue(true) };
  const enqueued = { record: jest.fn() };
  const service = new MessagesService(
    sql as unknown as Sql,
    producer as unknown as MessagesProducer,
    enqueued as unknown as EnqueuedRecorder,
  );
  return { service, sql, producer, enqueued };
}

describe('MessagesService.accept', () => {
  it('stores messages accepted together with one INSERT and enqueues them with one call', async () => {
    const { service, sql, producer, enqueued } = setUp();
    const accepted = await Promise.all([
      service.accept(1, 'one'),
      service.accept(2, 'two'),
      service.accept(1, 'three'),
    ]);
    expect(accepted.map((message) => message.message)).toEqual(['one', 'two', 'three']);
    expect(accepted.every((message) => message.status === 'queued')).toBe(true);
    expect(sql.rows).toHaveBeenCalledTimes(1);
    expect(sql.rows.mock.calls[0]![0]).toMatch(/INSERT INTO messages .* unnest/s);
    const ids = accepted.map((message) => message.id);
    expect(sql.rows.mock.calls[0]![1]).toEqual([ids, [1, 2, 1], ['one', 'two', 'three'], ADVISORY_LOCKS.messageSeqs]);
    expect(producer.enqueue.mock.calls).toEqual([[ids]]);
    expect(enqueued.record.mock.calls).toEqual(ids.map((id) => [id]));
  });

  it('answers for a stored message that Redis did not take, leaving it to the reconciler', async () => {
    const { service, producer, enqueued } = setUp();
    producer.enqueue.mockResolvedValueOnce(false);
    await expect(service.accept(1, 'one')).resolves.toMatchObject({ message: 'one', status: 'queued' });
    expect(enqueued.record).not.toHaveBeenCalled();
  });
});

describe('MessagesService.enqueue', () => {
  it('adds jobs 100 at a time, and stops at the first chunk Redis does not take', async () => {
    const { service, producer, enqueued } = setUp();
    const ids = Array.from({ length: 250 }, (_, i) => `msg_${i}`);
    producer.enqueue.mockResolvedValueOnce(true).mockResolvedValueOnce(false);
    await expect(service.enqueue(ids)).resolves.toBe(false);
    expect(producer.enqueue.mock.calls).toEqual([[ids.slice(0, 100)], [ids.slice(100, 200)]]);
    expect(enqueued.record.mock.calls).toEqual(ids.slice(0, 100).map((id) => [id]));
  });
});
