import { double } from '../../../test/support/doubles';
import type { MessagesProducer } from './messages.producer';
import type { MessagesRepository, NewMessage } from './messages.repository';
import { MessagesService } from './messages.service';

const CREATED_AT = '2026-06-01T12:00:00.000Z';

function setUp() {
  const repository = {
    insert: jest.fn(async ({ id, text }: NewMessage) => ({
      id,
      message: text,
      status: 'queued' as const,
      createdAt: CREATED_AT,
      attempts: 0,
      sentAt: null,
      lastError: null,
    })),
    recordEnqueued: jest.fn(),
    recordError: jest.fn().mockResolvedValue(undefined),
  } satisfies Partial<MessagesRepository>;
  const producer = { enqueue: jest.fn().mockResolvedValue(true) } satisfies Partial<MessagesProducer>;
  const service = new MessagesService(double<MessagesRepository>(repository), double<MessagesProducer>(producer));
  return { service, repository, producer };
}

describe('MessagesService.accept', () => {
  it('stores each message, then enqueues those accepted together with one call', async () => {
    const { service, repository, producer } = setUp();
    const accepted = await Promise.all([
      service.accept(1, 'one'),
      service.accept(2, 'two'),
      service.accept(1, 'three'),
    ]);
    expect(accepted.map((message) => message.message)).toEqual(['one', 'two', 'three']);
    const ids = accepted.map((message) => message.id);
    expect(repository.insert.mock.calls.map(([stored]) => stored)).toEqual([
      { id: ids[0], accountId: 1, text: 'one' },
      { id: ids[1], accountId: 2, text: 'two' },
      { id: ids[2], accountId: 1, text: 'three' },
    ]);
    expect(producer.enqueue.mock.calls).toEqual([[ids]]);
    expect(repository.recordEnqueued.mock.calls).toEqual(ids.map((id) => [id]));
  });

  it('answers for a stored message that Redis did not take, leaving it to the reconciler', async () => {
    const { service, producer, repository } = setUp();
    producer.enqueue.mockResolvedValueOnce(false);
    await expect(service.accept(1, 'one')).resolves.toMatchObject({ message: 'one', status: 'queued' });
    expect(repository.recordEnqueued).not.toHaveBeenCalled();
  });
});

describe('MessagesService.enqueue', () => {
  it('adds jobs 100 at a time, and stops at the first chunk Redis does not take', async () => {
    const { service, producer, repository } = setUp();
    const ids = Array.from({ length: 250 }, (_, i) => `msg_${i}`);
    producer.enqueue.mockResolvedValueOnce(true).mockResolvedValueOnce(false);
    await expect(service.enqueue(ids)).resolves.toBe(false);
    expect(producer.enqueue.mock.calls).toEqual([[ids.slice(0, 100)], [ids.slice(100, 200)]]);
    expect(repository.recordEnqueued.mock.calls).toEqual(ids.slice(0, 100).map((id) => [id]));
  });
});

describe('MessagesService.recordError', () => {
  it('keeps the first 1000 characters of an attempt’s error', async () => {
    const { service, repository } = setUp();
    await service.recordError('msg_a', 'x'.repeat(1500));
    expect(repository.recordError).toHaveBeenCalledWith('msg_a', 'x'.repeat(1000));
  });
});
