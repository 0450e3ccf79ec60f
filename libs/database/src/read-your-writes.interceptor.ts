import { type AuthenticatedRequest, REDIS } from '@app/core';
import { CallHandler, ExecutionContext, Inject, Injectable, NestInterceptor } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { catchError, concatMap, defer, from, Observable, switchMap, throwError } from 'rxjs';
import { ReadReplicas } from './read-replicas';

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** The Redis key that marks an account as having changed something lately. */
const recentWriteKey = (accountId: number) => `read-your-writes:account:${accountId}`;

/**
 * Read-your-writes with read replicas: a request by an account that may change something marks the account
 * in Redis, where every api process sees it, for `DATABASE_REPLICA_MAX_LAG_MS` once it has finished; a read
 * by a marked account runs on the primary (`ReadReplicas.fromPrimary`). A replica serves only while it lags
 * less than that same bound, so an unmarked account's reads see its every change. Where Redis cannot say,
 * the read goes to the primary. Without replicas it does nothing. The api, whose reads may lag, installs it.
 */
@Injectable()
export class ReadYourWritesInterceptor implements NestInterceptor {
  constructor(
    private readonly replicas: ReadReplicas,
    @Inject(REDIS) private readonly redis: Redis,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const accountId = request.principal?.accountId;
    if (!this.replicas.configured || accountId === undefined) return next.handle();
    const key = recentWriteKey(accountId);
    if (!READS.has(request.method)) {
      // Marked after its commit, so that the window runs from it, and before the answer leaves, so that no
      // read the client makes on seeing it comes first; marked on failure too, which may follow a commit. A
      // mark that Redis refuses leaves the next reads to the replicas' bound alone.
      const mark = () => this.redis.set(key, '1', 'PX', this.replicas.maxLagMs).catch(() => undefined);
      return next.handle().pipe(
        concatMap(async (body: unknown) => {
          await mark();
          return body;
        }),
        catchError((error: unknown) => from(mark()).pipe(switchMap(() => throwError(() => error)))),
      );
    }
    return defer(() => this.redis.exists(key).catch(() => 1)).pipe(
      // `handle` binds the handler to the async context it is called in.
      switchMap((marked) => (marked ? this.replicas.fromPrimary(() => next.handle()) : next.handle())),
    );
  }
}
