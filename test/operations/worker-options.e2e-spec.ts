import { CoreModule, ENVIRONMENT_VARIABLES, type EnvironmentVariables } from '@app/core';
import { DatabaseModule } from '@app/database';
import { MessagesProcessor, MessagingWorkerModule } from '@app/messaging';
import { Test, TestingModule } from '@nestjs/testing';
import { waitFor } from '../support/processes';
import { TEST_REDIS_URL } from '../support/test-env';

describe('the delivery worker’s options', () => {
  let worker: TestingModule;

  beforeAll(async () => {
    worker = await Test.createTestingModule({ imports: [CoreModule, DatabaseModule.forRoot(), MessagingWorkerModule] })
      .overrideProvider(ENVIRONMENT_VARIABLES)
      .useValue({
        ...process.env,
        WORKER_CONCURRENCY: '7',
        WORKER_LOCK_DURATION_MS: '4321',
        MESSAGES_MAX_ATTEMPTS: '4',
      } satisfies EnvironmentVariables)
      .compile();
    await worker.init();
  });
  afterAll(() => worker?.close());

  it('reach the BullMQ Worker from the settings', async () => {
    const { worker: bullWorker } = worker.get(MessagesProcessor);
    await waitFor(async () => bullWorker.isRunning(), 5000, 'the worker to run');
    expect(bullWorker.concurrency).toBe(7);
    expect(bullWorker.opts).toMatchObject({ lockDuration: 4321, stalledInterval: 4321, maxStalledCount: 4 });
    expect(bullWorker.opts.connection).toMatchObject({ db: Number(new URL(TEST_REDIS_URL).pathname.slice(1)) });
  });
});
