import 'reflect-metadata';
import { checkSettings, collectProcessMetrics } from '@app/core';
import { migrateOnStart } from '@app/database';
import { closeOnSignals } from '@app/http';
import { NestFactory } from '@nestjs/core';
import { Logger } from 'nestjs-pino';
import { WorkerModule } from './worker.module';

async function main(): Promise<void> {
  await checkSettings([WorkerModule], process.env);
  await migrateOnStart(process.env);
  collectProcessMetrics('worker');
  const app = await NestFactory.createApplicationContext(WorkerModule, { bufferLogs: true });
  const logger = app.get(Logger);
  app.useLogger(logger);
  // Closing the worker lets running jobs finish before the connections close. A job still running
  // when the grace period ends is taken over by another worker once its lock expires.
  closeOnSignals(app, (signal) => logger.log(`${signal} received: finishing running jobs`));
}

main().catch((error: Error) => {
  console.error(error.message);
  process.exit(1);
});
