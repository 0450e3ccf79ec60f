import type { Sql } from '@app/core';
import { EnqueuedRecorder } from './enqueued-recorder';

function setUp() {
  const sql = { query: jest.fn().mockResolvedValue({ rows: [], rowCount: 0 }) };
  return { sql, recorder: new EnqueuedRecorder(sql as unknown as Sql) };
}

describe('EnqueuedRecorder', () => {
  afterEach(() => jest.useRealTimers());

  it('records the messages accepted close together in one UPDATE', async () => {
    jest.useFakeTimers();
    const { sql, recorder } = setUp();
    recorder.record('msg_a');
    recorder.record('msg_b');
    recorder.record('msg_c');
    expect(sql.query).not.toHaveBeenCalled();
    await jest.advanceTimersByTimeAsync(10);
    expect(sql.query).toHaveBeenCalledTimes(1);
    expect(sql.query.mock.calls[0]![0]).toMatch(
      /UPDATE messages SET enqueued_at = now\(\) WHERE id IN \(SELECT id FROM locked\)/,
    );
    expect(sql.query.mock.calls[0]![1]).toEqual([['msg_a', 'msg_b', 'msg_c']]);
  });

  it('leaves a batch the database refused to the reconciler, without throwing', async () => {
    const { sql, recorder } = setUp();
    sql.query.mockRejectedValueOnce(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }));
    recorder.record('msg_a');
    await expect(recorder.flush()).resolves.toBeUndefined();
    recorder.record('msg_b');
    await recorder.flush();
    expect(sql.query.mock.calls[1]![1]).toEqual([['msg_b']]);
  });

  it('writes what is pending at shutdown, and nothing when nothing is', async () => {
    const { sql, recorder } = setUp();
    await recorder.onApplicationShutdown();
    expect(sql.query).not.toHaveBeenCalled();
    recorder.record('msg_a');
    await recorder.onApplicationShutdown();
    expect(sql.query.mock.calls[0]![1]).toEqual([['msg_a']]);
  });
});
