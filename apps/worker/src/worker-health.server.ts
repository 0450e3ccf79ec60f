import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AppError, NotFoundError, REDIS, type RedisClient, ServiceUnavailableError } from '@app/core';
import { Sql, sql } from '@app/database';
import { MessagesProcessor } from '@app/messaging';
import {
  BeforeApplicationShutdown,
  Inject,
  Injectable,
  Logger,
  OnApplicationBootstrap,
  OnApplicationShutdown,
} from '@nestjs/common';
import { register } from 'prom-client';
import { WorkerSettings } from './worker.settings';

function answer(response: ServerResponse, status: number, body: object, headers: Record<string, string> = {}): void {
  response.writeHead(status, { ...headers, 'Content-Type': 'application/json; charset=utf-8' });
  response.end(JSON.stringify(body));
}

function answerError(response: ServerResponse, error: AppError): void {
  answer(response, error.status, { code: error.code, message: error.message, status: error.status }, error.headers);
}

/**
 * The worker has no HTTP API, only this on `WORKER_METRICS_PORT`: `GET /health/live` (the process runs),
 * `GET /health/ready` (it takes jobs, and PostgreSQL and Redis answer) and `GET /metrics` (Prometheus).
 */
@Injectable()
export class WorkerHealthServer implements OnApplicationBootstrap, BeforeApplicationShutdown, OnApplicationShutdown {
  private readonly logger = new Logger(WorkerHealthServer.name);
  private readonly server: Server = createServer((request, response) => void this.handle(request, response));
  private draining = false;

  constructor(
    private readonly settings: WorkerSettings,
    private readonly processor: MessagesProcessor,
    private readonly sql: Sql,
    @Inject(REDIS) private readonly redis: RedisClient,
  ) {}

  onApplicationBootstrap(): void {
    // Several workers on one host cannot share the port; a worker without the endpoint still works.
    this.server.on('error', (error) => this.logger.warn(`health endpoint unavailable: ${error.message}`));
    this.server.listen(this.settings.WORKER_METRICS_PORT);
  }

  beforeApplicationShutdown(): void {
    this.draining = true;
  }

  onApplicationShutdown(): void {
    this.server.close();
  }

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const path = new URL(request.url ?? '/', 'http://worker').pathname;
    if (request.method === 'GET' && path === '/health/live') return answer(response, 200, { status: 'ok' });
    if (request.method === 'GET' && path === '/metrics') {
      response.writeHead(200, { 'Content-Type': register.contentType });
      return void response.end(await register.metrics());
    }
    if (request.method === 'GET' && path === '/health/ready') {
      const failed = await this.failedChecks();
      if (failed.length === 0) return answer(response, 200, { status: 'ok' });
      return answerError(response, new ServiceUnavailableError(`Not ready: ${failed.join(', ')} unavailable.`));
    }
    answerError(response, new NotFoundError(`No route matches ${request.method} ${path}.`));
  }

  private async failedChecks(): Promise<string[]> {
    const checks: Record<string, () => Promise<unknown>> = {
      worker: async () => {
        if (this.draining || !this.processor.worker.isRunning()) throw new Error('not taking jobs');
      },
      postgres: () => this.sql.query(sql`SELECT 1`),
      redis: () => this.redis.ping(),
    };
    const names = Object.keys(checks);
    const results = await Promise.allSettled(names.map((name) => checks[name]!()));
    return names.filter((_name, index) => results[index]!.status === 'rejected');
  }
}
