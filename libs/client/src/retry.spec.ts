import { retryAfterMs, retryDelayMs, withRetries } from './retry';

/** A fetch that answers from a script, recording each request it saw. */
function scripted(...answers: Array<() => Response>) {
  const seen: Request[] = [];
  const fetchImpl = (async (input: Request) => {
    seen.push(input);
    return answers[Math.min(seen.length - 1, answers.length - 1)]!();
  }) as unknown as typeof fetch;
  return { fetchImpl, seen };
}

const refused = (status: number, retryAfter?: string) => () =>
  new Response('{}', { status, headers: retryAfter ? { 'Retry-After': retryAfter } : {} });
const ok = () => new Response('[]', { status: 200 });

describe('withRetries', () => {
  const waits: number[] = [];
  const options = { random: () => 0.5, sleep: async (ms: number) => void waits.push(ms) };
  beforeEach(() => (waits.length = 0));

  it('retries a 429 after Retry-After, then answers the success', async () => {
    const { fetchImpl, seen } = scripted(refused(429, '2'), ok);
    const response = await withRetries(fetchImpl, options)('http://api.test/v1/pets');
    expect(response.status).toBe(200);
    expect(seen).toHaveLength(2);
    // Retry-After (2 s) plus half of the first backoff (500 ms).
    expect(waits).toEqual([2250]);
  });

  it('backs off exponentially with jitter on 503 without Retry-After, and stops after the retries', async () => {
    const { fetchImpl, seen } = scripted(refused(503));
    const response = await withRetries(fetchImpl, { ...options, retries: 3 })('http://api.test/v1/pets');
    expect(response.status).toBe(503);
    expect(seen).toHaveLength(4);
    expect(waits).toEqual([250, 500, 1000]);
  });

  it('gives one Idempotency-Key to every attempt of a POST, and keeps the caller’s own', async () => {
    const { fetchImpl, seen } = scripted(refused(429, '1'), refused(503, '1'), ok);
    await withRetries(fetchImpl, options)('http://api.test/v1/pets', { method: 'POST', body: '{"name":"Rex"}' });
    const keys = seen.map((request) => request.headers.get('Idempotency-Key'));
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(new Set(keys).size).toBe(1);
    expect(await seen[2]!.text()).toBe('{"name":"Rex"}');

    const own = scripted(ok);
    await withRetries(own.fetchImpl, options)('http://api.test/v1/pets', {
      method: 'POST',
      headers: { 'Idempotency-Key': 'mine' },
    });
    expect(own.seen[0]!.headers.get('Idempotency-Key')).toBe('mine');
  });

  it('answers a Retry-After longer than the longest wait at once (a ban is the caller’s call)', async () => {
    const { fetchImpl, seen } = scripted(refused(429, '600'), ok);
    const response = await withRetries(fetchImpl, options)('http://api.test/v1/pets');
    expect(response.status).toBe(429);
    expect(seen).toHaveLength(1);
  });

  it('does not retry other statuses, nor when retries are 0', async () => {
    expect((await withRetries(scripted(refused(500), ok).fetchImpl, options)('http://api.test/')).status).toBe(500);
    expect(
      (await withRetries(scripted(refused(429, '1'), ok).fetchImpl, { ...options, retries: 0 })('http://api.test/'))
        .status,
    ).toBe(429);
    expect(waits).toEqual([]);
  });

  it('retries a request that got no answer, and rethrows when the retries are spent', async () => {
    let calls = 0;
    const failing = (async () => {
      calls += 1;
      throw new TypeError('fetch failed');
    }) as unknown as typeof fetch;
    await expect(withRetries(failing, { ...options, retries: 2 })('http://api.test/')).rejects.toThrow('fetch failed');
    expect(calls).toBe(3);
  });
});

describe('retryAfterMs and retryDelayMs', () => {
  it('read delay-seconds and HTTP dates', () => {
    expect(retryAfterMs('7')).toBe(7000);
    expect(retryAfterMs('Thu, 01 Jan 2026 00:00:10 GMT', Date.parse('2026-01-01T00:00:00Z'))).toBe(10000);
    expect(retryAfterMs(null)).toBe(0);
    expect(retryAfterMs('soon')).toBe(0);
  });

  it('never wait less than Retry-After nor more than the longest wait', () => {
    const settings = { retries: 3, baseDelayMs: 500, maxDelayMs: 30_000, random: () => 0.999, sleep: async () => {} };
    expect(retryDelayMs(0, 3000, settings)).toBeGreaterThanOrEqual(3000);
    expect(retryDelayMs(20, 0, settings)).toBeLessThanOrEqual(30_000);
    expect(retryDelayMs(2, 0, { ...settings, random: () => 0 })).toBe(0);
  });
});
