import 'reflect-metadata';
import { AppError, checkSettings } from '@app/core';
import { migrateOnStart } from '@app/database';
import { Logger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { CliModule } from './cli.module';
import { runCommand, USAGE, UsageError } from './commands';
import { StderrLogger } from './stderr-logger';

async function main(): Promise<number> {
  const logger = new StderrLogger();
  // Before anything logs: preparing the database would otherwise print its progress on stdout.
  Logger.overrideLogger(logger);
  await checkSettings([CliModule], process.env);
  await migrateOnStart(process.env);
  const app = await NestFactory.createApplicationContext(CliModule, { logger });
  try {
    console.log(JSON.stringify(await runCommand(app, process.argv.slice(2)), null, 2));
    return 0;
  } catch (error) {
    if (error instanceof UsageError) {
      console.error(`${error.message}\n\n${USAGE}`);
      return 2;
    }
    if (error instanceof AppError) {
      console.error(`${error.code}: ${error.message}`);
      return 1;
    }
    throw error;
  } finally {
    await app.close();
  }
}

main().then(
  (code) => process.exit(code),
  (error: Error) => {
    console.error(error.message);
    process.exit(1);
  },
);
