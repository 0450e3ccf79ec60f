/** One window that applies to a request, as the policy resolved it for the caller. */
export interface WindowSpec {
  /** `minute`, `day` or `signup`, also the IETF policy name. */
  name: string;
  /** Counter key without the window start: whose requests this window counts. */
  key: string;
  limit: number;
  /** Window length; windows are fixed and aligned on multiples of it since the Unix epoch. */
  seconds: number;
}

export interface WindowState extends WindowSpec {
  /** Requests counted in the current window, this one included when it was admitted. */
  count: number;
  /** Unix seconds at which the current window ends. */
  resetAt: number;
}

/** The outcome of one atomic step in Redis. */
export interface RateLimitDecision {
  admitted: boolean;
  /** Milliseconds left of the key's ban; 0 when it is not banned. */
  banMs: number;
  /** Redis's clock, which every process shares, so windows align across processes. */
  nowMs: number;
  windows: WindowState[];
}

const remaining = (window: WindowState) => Math.max(0, window.limit - window.count);

/** Whole seconds from `nowMs` until `resetAt`; never 0, because the window is still running. */
const secondsUntil = (resetAt: number, nowMs: number) => Math.max(1, Math.ceil((resetAt * 1000 - nowMs) / 1000));

/** The window with the fewest requests remaining; the shorter one on a tie. */
export function bindingWindow(windows: WindowState[]): WindowState {
  return windows.reduce((best, window) => {
    const difference = remaining(window) - remaining(best);
    return difference < 0 || (difference === 0 && window.seconds < best.seconds) ? window : best;
  });
}

/** The windows that refused the request: full before it arrived. */
function exhaustedWindows(decision: RateLimitDecision): WindowState[] {
  return decision.admitted ? [] : decision.windows.filter((window) => window.count >= window.limit);
}

/** Seconds until a refused request can succeed: the end of the ban, or of the last exhausted window. */
export function retryAfterSeconds(decision: RateLimitDecision): number {
  if (decision.banMs > 0) return Math.ceil(decision.banMs / 1000);
  const exhausted = exhaustedWindows(decision);
  return Math.max(1, ...exhausted.map((window) => secondsUntil(window.resetAt, decision.nowMs)));
}

/**
 * Spec section 8's `X-RateLimit-*` (Reset in absolute Unix seconds) for the binding window, and the
 * IETF draft's `RateLimit-Policy` / `RateLimit` (draft-ietf-httpapi-ratelimit-headers-10) for every window.
 */
export function rateLimitHeaders(decision: RateLimitDecision): Record<string, string> {
  const windows = [...decision.windows].sort((a, b) => a.seconds - b.seconds);
  const binding = bindingWindow(windows);
  return {
    'X-RateLimit-Limit': String(binding.limit),
    'X-RateLimit-Remaining': String(remaining(binding)),
    'X-RateLimit-Reset': String(binding.resetAt),
    'RateLimit-Policy': windows.map((window) => `"${window.name}";q=${window.limit};w=${window.seconds}`).join(', '),
    RateLimit: windows
      .map((window) => `"${window.name}";r=${remaining(window)};t=${secondsUntil(window.resetAt, decision.nowMs)}`)
      .join(', '),
  };
}
