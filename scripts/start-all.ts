// `npm start`: prepares the database once, then runs every app as its own process (two Nest apps in
// one process would share TypeORM's default data source) and stops them all together.
import 'reflect-metadata';
import { ChildProcess, fork } from 'node:child_process';
import { join } from 'node:path';
import { validateEnvironment } from '@app/core';
import { prepareDatabase } from '@app/database';

const APPS = ['api', 'messages', 'worker'];

async function main(): Promise<void> {
  const env = validateEnvironment(process.env);
  if (env.DATABASE_MIGRATE_ON_START) await prepareDatabase(env);

  const children = new Map<string, ChildProcess>();
  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    for (const child of children.values()) child.kill(signal);
  };

  for (const app of APPS) {
    const child = fork(join(__dirname, '..', 'apps', app, 'src', 'main.js'), {
      env: { ...process.env, DATABASE_MIGRATE_ON_START: 'false' },
    });
    children.set(app, child);
    child.on('exit', (code, signal) => {
      children.delete(app);
      if (!stopping) {
        console.error(`${app} exited (${signal ?? code}); stopping the others`);
        process.exitCode = 1;
        stop('SIGTERM');
      }
      if (children.size === 0) process.exit();
    });
  }
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

main().catch((error: Error) => {
  console.error(error.message);
  process.exit(1);
});
