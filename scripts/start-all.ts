// `npm start`: starts PostgreSQL and Redis where nothing runs (local-services.ts), prepares the database
// once, then runs every app as its own process (two Nest apps in one process would share TypeORM's default
// data source) and stops them all together.
import 'reflect-metadata';
import { ChildProcess, fork } from 'node:child_process';
import { join } from 'node:path';
import { exitOnStartFailure } from '@app/core';
import { prepareStart } from '@app/database';
import { ApiModule } from '../apps/api/src/api.module';
import { MessagesModule } from '../apps/messages/src/messages.module';
import { WorkerModule } from '../apps/worker/src/worker.module';
import { startLocalServices } from './local-services';
import { LOCAL_SERVICES_DIR } from './local-services-state';

const APPS = ['api', 'messages', 'worker'];

async function main(): Promise<void> {
  const local = await startLocalServices(process.env, LOCAL_SERVICES_DIR);
  const env = { ...process.env, ...local.env };
  try {
    // Every app's settings and dependencies at once, so a bad one stops everything before anything starts.
    await prepareStart([ApiModule, MessagesModule, WorkerModule], env);
  } catch (error) {
    await local.stop();
    throw error;
  }

  const children = new Map<string, ChildProcess>();
  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    for (const child of children.values()) child.kill(signal);
  };

  for (const app of APPS) {
    const child = fork(join(__dirname, '..', 'apps', app, 'src', 'main.js'), {
      env: { ...env, DATABASE_MIGRATE_ON_START: 'false' },
    });
    children.set(app, child);
    child.on('exit', (code, signal) => {
      children.delete(app);
      if (!stopping) {
        console.error(`${app} exited (${signal ?? code}); stopping the others`);
        process.exitCode = 1;
        stop('SIGTERM');
      }
      if (children.size === 0) void local.stop().then(() => process.exit());
    });
  }
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
  // A closed terminal: PostgreSQL and Redis run in process groups of their own, stopped only by the launcher.
  process.on('SIGHUP', () => stop('SIGTERM'));
}

main().catch(exitOnStartFailure);
