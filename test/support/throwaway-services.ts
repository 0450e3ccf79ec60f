import { ChildProcess, execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { chmodSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort, waitFor } from './processes';

const run = promisify(execFile);

/** The newest installed PostgreSQL's binaries (Debian layout). */
function postgresBin(tool: string): string {
  const versions = readdirSync('/usr/lib/postgresql').sort((a, b) => Number(b) - Number(a));
  return join('/usr/lib/postgresql', versions[0]!, 'bin', tool);
}

/** PostgreSQL refuses to run as root; run it as the `postgres` user when we are root. */
function asPostgres(tool: string, args: string[]): [string, string[]] {
  return process.getuid?.() === 0
    ? ['runuser', ['-u', 'postgres', '--', postgresBin(tool), ...args]]
    : [postgresBin(tool), args];
}

/**
 * A PostgreSQL server of the test's own, in a temporary directory on a free port, so a test can stop
 * and start it without touching the shared server.
 */
export class ThrowawayPostgres {
  private dir = '';
  port = 0;

  get url(): string {
    return `postgres://postgres@127.0.0.1:${this.port}/pet_adoption_faults_test`;
  }

  async create(): Promise<this> {
    this.dir = mkdtempSync(join(tmpdir(), 'pg-faults-'));
    chmodSync(this.dir, 0o777);
    this.port = await freePort();
    await run(...asPostgres('initdb', ['-D', join(this.dir, 'data'), '-U', 'postgres', '-A', 'trust', '--no-sync']));
    await this.start();
    return this;
  }

  async start(): Promise<void> {
    const options = `-p ${this.port} -k ${this.dir} -c listen_addresses=127.0.0.1 -c fsync=off`;
    await run(
      ...asPostgres('pg_ctl', [
        '-D',
        join(this.dir, 'data'),
        '-o',
        options,
        '-l',
        join(this.dir, 'log'),
        '-w',
        'start',
      ]),
    );
  }

  /** Stops at once, dropping every connection (as a crash or failover would). */
  async stop(): Promise<void> {
    await run(...asPostgres('pg_ctl', ['-D', join(this.dir, 'data'), '-m', 'immediate', '-w', 'stop']));
  }

  async destroy(): Promise<void> {
    await this.stop().catch(() => undefined);
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/**
 * A Redis server of the test's own on a free port: killed, restarted, frozen and thawed at will.
 * `persistent` keeps its data in an append-only file, as production must (docs/operations.md): a restart then
 * keeps the queue's jobs, as it would in production.
 */
export class ThrowawayRedis {
  private child?: ChildProcess;
  private dir?: string;
  port = 0;

  constructor(private readonly options: { persistent?: boolean } = {}) {}

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  async create(): Promise<this> {
    this.port = await freePort();
    if (this.options.persistent) this.dir = mkdtempSync(join(tmpdir(), 'redis-faults-'));
    await this.start();
    return this;
  }

  async start(): Promise<void> {
    const storage = this.dir ? ['--dir', this.dir, '--appendonly', 'yes'] : ['--appendonly', 'no'];
    this.child = spawn('redis-server', ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', ...storage], {
      stdio: 'ignore',
    });
    await waitFor(
      async () => {
        const { stdout } = await run('redis-cli', ['-p', String(this.port), 'ping']);
        return stdout.trim() === 'PONG';
      },
      10000,
      'redis',
    );
  }

  async kill(): Promise<void> {
    if (!this.child || this.child.exitCode !== null) return;
    const exited = once(this.child, 'exit');
    this.child.kill('SIGKILL');
    await exited;
  }

  /** Still accepts connections, answers nothing: the hardest failure for a client to notice. */
  freeze(): void {
    this.child?.kill('SIGSTOP');
  }

  thaw(): void {
    this.child?.kill('SIGCONT');
  }

  async destroy(): Promise<void> {
    this.thaw();
    await this.kill();
    if (this.dir) rmSync(this.dir, { recursive: true, force: true });
  }
}
