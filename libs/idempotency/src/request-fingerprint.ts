import { createHash } from 'node:crypto';

/** The value with every object's keys sorted, so that key order does not change the fingerprint. */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((key) => [key, canonical((value as Record<string, unknown>)[key])]),
  );
}

/** SHA-256 of the method, the route and the body: what makes a retry "the same request". */
export function requestFingerprint(method: string, path: string, body: unknown): Buffer {
  return createHash('sha256')
    .update(`${method} ${path}\n${JSON.stringify(canonical(body ?? null))}`)
    .digest();
}
