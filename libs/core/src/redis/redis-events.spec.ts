import { EventEmitter } from 'node:events';
import type { Redis } from 'ioredis';
import { CoreSettings } from '../config/core.settings';
import { RedisEvents } from './redis.module';

// The subscription's own connection is not under test here.
jest.mock('ioredis', () => {
  const { EventEmitter: Emitter } = jest.requireActual<typeof import('node:events')>('node:events');
  return { Redis: jest.fn(() => Object.assign(new Emitter(), { status: 'wait' })), Cluster: jest.fn() };
});

function commandConnection(status: Redis['status']) {
  return Object.assign(new EventEmitter(), {
    status,
    publish: jest.fn().mockResolvedValue(1),
  } satisfies Partial<Redis>);
}

const settings = new CoreSettings();

describe('RedisEvents.publish', () => {
  it('waits for a process’s first connection instead of losing the message', async () => {
    const redis = commandConnection('connecting');
    const events = new RedisEvents(redis as unknown as Redis, settings);
    const published = events.publish('channel', 'message');
    await new Promise(setImmediate);
    expect(redis.publish).not.toHaveBeenCalled();
    redis.status = 'ready';
    redis.emit('ready');
    await published;
    expect(redis.publish).toHaveBeenCalledWith('channel', 'message');
  });

  it('publishes at once on a connection that is ready', async () => {
    const redis = commandConnection('ready');
    await new RedisEvents(redis as unknown as Redis, settings).publish('channel', 'message');
    expect(redis.publish).toHaveBeenCalledTimes(1);
  });
});
