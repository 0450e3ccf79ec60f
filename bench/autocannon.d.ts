// autocannon ships no types; this declares the part of its programmatic API the bench uses.
declare module 'autocannon' {
  import type { EventEmitter } from 'node:events';

  interface Request {
    method?: string;
    path?: string;
    headers?: Record<string, string>;
    body?: string;
    /** Called before each send with the connection's context: returns the request to send. */
    setupRequest?: (request: Request, context: Record<string, unknown>) => Request;
    /** Called with each answer and the connection's context. */
    onResponse?: (status: number, body: string, context: Record<string, unknown>) => void;
  }

  interface Options {
    url: string;
    connections?: number;
    duration?: number;
    amount?: number;
    timeout?: number;
    requests?: Request[];
    setupClient?: (client: Client) => void;
  }

  interface Client {
    setRequests(requests: Request[]): void;
  }

  interface Result {
    duration: number;
    errors: number;
    timeouts: number;
  }

  interface Instance extends EventEmitter, PromiseLike<Result> {
    stop(): void;
  }

  function autocannon(options: Options): Instance;
  export = autocannon;
}
