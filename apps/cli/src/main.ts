import 'reflect-metadata';
import { AppError, checkSettings } from '@app/core';
import { migrateOnStart } from '@app/database';
import { Logger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { LOCAL_SERVICES_DIR, readStartedServices } from '../../../scripts/local-services-state';
import { CliModule } from './cli.module';
import { parseCommandLine, USAGE, UsageError } from './commands';
import { StderrLogger } from './stderr-logger';

/** A URL as the operator may read it: without its password. */
function withoutPassword(url: string): string {
  const parsed = new URL(url);
  parsed.password = '';
  return parsed.toString();
}

/**
 * Beside a running `npm start` that started PostgreSQL or Redis itself (on ports that change on every
 * start), their settings where the environment leaves them unset, said on stderr.
 */
function useLocalServices(env: NodeJS.ProcessEnv): void {
  const started = readStartedServices(LOCAL_SERVICES_DIR);
  if (!started) return;
  const unset = Object.entries(started.env).filter(
    ([name]) => !env[name] && !(name === 'REDIS_URL' && env.REDIS_CLUSTER_NODES),
  );
  if (unset.length === 0) return;
  for (const [name, value] of unset) env[name] = value;
  const said = unset.map(([name, value]) => `${name}=${withoutPassword(value)}`).join(', ');
  console.error(`Using what npm start started (${started.file}): ${said}`);
}

async function run(argv: string[]): Promise<number> {
  const commandLine = await parseCommandLine(argv);
  if ('help' in commandLine) {
    console.log(commandLine.help);
    return 0;
  }
  const logger = new StderrLogger();
  // Before anything logs: preparing the database would otherwise print its progress on stdout.
  Logger.overrideLogger(logger);
  useLocalServices(process.env);
  await checkSettings([CliModule], process.env);
  await migrateOnStart(process.env);
  const app = await NestFactory.createApplicationContext(CliModule, { logger });
  try {
    console.log(JSON.stringify(await commandLine.run(app), null, 2));
    return 0;
  } finally {
    await app.close();
  }
}

run(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: Error) => {
    if (error instanceof UsageError) {
      console.error(`${error.message}\n\n${error.usage ?? USAGE}`);
      process.exit(2);
    }
    console.error(error instanceof AppError ? `${error.code}: ${error.message}` : error.message);
    process.exit(1);
  },
);
