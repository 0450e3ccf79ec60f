import type { Environment } from '@app/core';
import type { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { MessagesProducer } from './messages.producer';

function setUp(add: () => Promise<unknown>) {
  const queue = { on: jest.fn(), add: jest.fn(add) };
  // Corks nest, as on a real socket: writes flow again once each cork has its uncork.
  const socket = { writableCorked: 0, cork: jest.fn(), uncork: jest.fn() };
  socket.cork.mockImplementation(() => socket.writableCorked++);
  socket.uncork.mockImplementation(() => (socket.writableCorked = Math.max(0, socket.writableCorked - 1)));
  const producer = new MessagesProducer(
    queue as unknown as Queue,
    { stream: socket } as unknown as Redis,
    { REDIS_COMMAND_TIMEOUT_MS: 20 } as Environment,
  );
  return { producer, queue, socket };
}

describe('MessagesProducer', () => {
  it('adds delivery jobs whose ids are the message ids, so enqueueing twice adds one job each', async () => {
    const { producer, queue } = setUp(async () => []);
    await expect(producer.enqueue(['msg_a', 'msg_b'])).resolves.toBe(true);
    expect(queue.add.mock.calls).toEqual([
      ['deliver', { messageId: 'msg_a' }, { jobId: 'msg_a' }],
      ['deliver', { messageId: 'msg_b' }, { jobId: 'msg_b' }],
    ]);
  });

  it('sends the jobs in one write: the socket is held back while they are added, and let go after', async () => {
    const corkedAtEachAdd: boolean[] = [];
    const { producer, queue, socket } = setUp(async () => undefined);
    // BullMQ issues each command a few microtasks after `add` is called.
    queue.add.mockImplementation(async () => {
      await Promise.resolve();
      corkedAtEachAdd.push(socket.writableCorked > 0);
    });
    await expect(producer.enqueue(['msg_a', 'msg_b', 'msg_c'])).resolves.toBe(true);
    expect(corkedAtEachAdd).toEqual([true, true, true]);
    await new Promise(setImmediate);
    expect(socket.writableCorked).toBe(0);
  });

  it('lets the socket write again when Redis refuses the jobs', async () => {
    const { producer, socket } = setUp(() => Promise.reject(new Error("Stream isn't writeable")));
    await expect(producer.enqueue(['msg_a', 'msg_b'])).resolves.toBe(false);
    await new Promise(setImmediate);
    expect(socket.cork).toHaveBeenCalled();
    expect(socket.writableCorked).toBe(0);
  });

  it('reports failure when Redis refuses any one of the jobs', async () => {
    let calls = 0;
    const { producer } = setUp(() => (++calls === 2 ? Promise.reject(new Error('OOM')) : Promise.resolve()));
    await expect(producer.enqueue(['msg_a', 'msg_b', 'msg_c'])).resolves.toBe(false);
  });

  it('reports failure at once when Redis refuses the command', async () => {
    const { producer } = setUp(() => Promise.reject(new Error("Stream isn't writeable")));
    await expect(producer.enqueue(['msg_a'])).resolves.toBe(false);
  });

  it('gives up after REDIS_COMMAND_TIMEOUT_MS when Redis does not answer', async () => {
    const { producer } = setUp(() => new Promise(() => undefined));
    await expect(producer.enqueue(['msg_a'])).resolves.toBe(false);
  });
});
