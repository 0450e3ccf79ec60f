import { bindingWindow, RateLimitDecision, rateLimitHeaders, retryAfterSeconds, WindowState } from './rate-windows';

const NOW_MS = 1_800_000_030_250; // 30.25 s into a minute window that started at 1_800_000_000
const minute = (count: number, limit = 60): WindowState => ({
  name: 'minute',
  key: 'rate-limit:minute:{account:1}',
  limit,
  seconds: 60,
  count,
  resetAt: 1_800_000_060,
});
const day = (count: number, limit = 1000): WindowState => ({
  name: 'day',
  key: 'rate-limit:day:{account:1}',
  limit,
  seconds: 86400,
  count,
  resetAt: 1_800_028_800,
});
const decision = (windows: WindowState[], admitted = true, banMs = 0): RateLimitDecision => ({
  admitted,
  banMs,
  nowMs: NOW_MS,
  windows,
});

describe('bindingWindow', () => {
  it('picks the window with the fewest requests remaining', () => {
    expect(bindingWindow([minute(10), day(995)]).name).toBe('day');
    expect(bindingWindow([day(10), minute(59)]).name).toBe('minute');
  });

  it('picks the shorter window on a tie, whatever the order', () => {
    expect(bindingWindow([day(940), minute(0)]).name).toBe('minute');
    expect(bindingWindow([minute(60), day(1000)]).name).toBe('minute');
  });
});

describe('rateLimitHeaders', () => {
  it('reports the binding window with an absolute reset, and every window in the IETF fields', () => {
    expect(rateLimitHeaders(decision([day(100), minute(1)]))).toEqual({
      'X-RateLimit-Limit': '60',
      'X-RateLimit-Remaining': '59',
      'X-RateLimit-Reset': '1800000060',
      'RateLimit-Policy': '"minute";q=60;w=60, "day";q=1000;w=86400',
      RateLimit: '"minute";r=59;t=30, "day";r=900;t=28770',
    });
  });

  it('never reports a negative remaining count', () => {
    const headers = rateLimitHeaders(decision([minute(60, 30)], false));
    expect(headers['X-RateLimit-Remaining']).toBe('0');
    expect(headers.RateLimit).toBe('"minute";r=0;t=30');
  });

  it('reports a window about to reset as one second away, never zero', () => {
    const headers = rateLimitHeaders({ ...decision([minute(5)]), nowMs: 1_800_000_059_999 });
    expect(headers.RateLimit).toBe('"minute";r=55;t=1');
  });
});

describe('retryAfterSeconds', () => {
  it('waits for the exhausted window to reset, rounded up to whole seconds', () => {
    expect(retryAfterSeconds(decision([minute(60), day(500)], false))).toBe(30);
  });

  it('waits for the last exhausted window when several are', () => {
    expect(retryAfterSeconds(decision([minute(60), day(1000)], false))).toBe(28770);
  });

  it('waits out the day even when only the day window is exhausted', () => {
    expect(retryAfterSeconds(decision([minute(3), day(1000)], false))).toBe(28770);
  });

  it('is the rest of the ban for a banned key', () => {
    expect(retryAfterSeconds(decision([minute(60)], false, 599_001))).toBe(600);
  });
});
