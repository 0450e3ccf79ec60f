/** How the client retries a request the service refused for now (429, 503) or that never got an answer. */
export interface RetryOptions {
  /** Retries after the first attempt; 0 turns retrying off. Default 3. */
  retries?: number;
  /** First backoff; each further retry doubles it. Default 500 ms. */
  baseDelayMs?: number;
  /** Longest wait before a retry; a `Retry-After` beyond it is answered to the caller instead. Default 30 s. */
  maxDelayMs?: number;
  /** For tests: the source of jitter (0 ≤ x < 1) and the clock's sleep. */
  random?: () => number;
  sleep?: (ms: number) => Promise<void>;
}

const RETRIED_STATUSES = new Set([429, 503]);
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS', 'DELETE']);

/** `Retry-After` in milliseconds: delay-seconds or an HTTP date; 0 when absent or unreadable. */
export function retryAfterMs(header: string | null, now = Date.now()): number {
  if (header === null) return 0;
  if (/^\d+$/.test(header.trim())) return Number(header) * 1000;
  const at = Date.parse(header);
  return Number.isNaN(at) ? 0 : Math.max(0, at - now);
}

/**
 * The wait before retry `attempt` (0 for the first): never earlier than `Retry-After`, plus an exponential
 * backoff with full jitter so that many clients refused together do not come back together.
 */
export function retryDelayMs(attempt: number, retryAfter: number, options: Required<RetryOptions>): number {
  const backoff = Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** attempt);
  return Math.min(options.maxDelayMs, retryAfter + options.random() * backoff);
}

const defaults: Required<RetryOptions> = {
  retries: 3,
  baseDelayMs: 500,
  maxDelayMs: 30_000,
  random: Math.random,
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

/**
 * Wraps `fetch` with retries of 429 and 503 (backing off exponentially, after `Retry-After` when given) and of
 * requests that got no answer. A POST gets an `Idempotency-Key` (unless it has one), the same on every
 * attempt, so that a retry never has a second effect.
 */
export function withRetries(fetchImpl: typeof fetch, options: RetryOptions = {}): typeof fetch {
  const settings = { ...defaults, ...options };
  return async (input, init) => {
    const request = new Request(input, init);
    if (request.method === 'POST' && !request.headers.has('Idempotency-Key'))
      request.headers.set('Idempotency-Key', crypto.randomUUID());
    const retriable = SAFE_METHODS.has(request.method) || request.headers.has('Idempotency-Key');
    for (let attempt = 0; ; attempt++) {
      const last = !retriable || attempt >= settings.retries;
      let response: Response;
      try {
        response = await fetchImpl(request.clone());
      } catch (error) {
        if (last) throw error;
        await settings.sleep(retryDelayMs(attempt, 0, settings));
        continue;
      }
      if (last || !RETRIED_STATUSES.has(response.status)) return response;
      const retryAfter = retryAfterMs(response.headers.get('Retry-After'));
      // A ban or a long outage: waiting is the caller's decision.
      if (retryAfter > settings.maxDelayMs) return response;
      await response.body?.cancel();
      await settings.sleep(retryDelayMs(attempt, retryAfter, settings));
    }
  };
}
