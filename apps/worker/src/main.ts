import 'reflect-metadata';
import { AppLogger, collectProcessMetrics } from '@app/core';
import { exitOnStartFailure, prepareStart } from '@app/database';
import { closeOnSignals } from '@app/http';
import { NestFactory } from '@nestjs/core';
import { WorkerModule } from './worker.module';

async function main(): Promise<void> {
  await prepareStart([WorkerModule], process.env);
  collectProcessMetrics('worker');
  const app = await NestFactory.createApplicationContext(WorkerModule, { bufferLogs: true });
  const logger = app.get(AppLogger);
  app.useLogger(logger);
  // Closing the worker lets running jobs finish before the connections close. A job still running
  // when the grace period ends is taken over by another worker once its lock expires.
  closeOnSignals(app, (signal) => logger.log(`${signal} received: finishing running jobs`));
  logger.log('worker running: delivering messages and webhooks, expiring order holds');
}

main().catch(exitOnStartFailure);
