/**
 * Recognises failures that pass with time (as opposed to a bug): PostgreSQL or Redis cannot be reached, or
 * PostgreSQL rolled the work back to settle a conflict with other work. They are answered as
 * `503 service_unavailable` with `Retry-After` instead of `500`, and workers try the job again later
 * without using up one of its attempts.
 */
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENOTFOUND', 'EPIPE']);
// PostgreSQL SQLSTATEs: connection exceptions (08…), shutdown/starting (57P0x), too many connections, a
// statement it cancelled (57014: past statement_timeout, so overloaded), and a transaction it rolled back as
// the victim of a deadlock (40P01) or a serialization failure (40001): nothing was done, and a retry can pass.
const POSTGRES_TEMPORARY = /^(08\d{3}|57P0[1-3]|53300|57014|40P01|40001)$/;
const UNAVAILABLE_MESSAGES = [
  'Connection terminated',
  'timeout exceeded when trying to connect',
  'Connection is closed',
  "Stream isn't writeable",
  'Command timed out',
  'Reached the max retries per request limit',
  'the database system is',
];

export function isTemporaryFailure(error: unknown): boolean {
  for (let current: unknown = error, depth = 0; current && depth < 5; depth++) {
    if (typeof current !== 'object') return false;
    const { code, message, name } = current as { code?: unknown; message?: unknown; name?: unknown };
    if (typeof code === 'string' && (NETWORK_CODES.has(code) || POSTGRES_TEMPORARY.test(code))) return true;
    if (name === 'MaxRetriesPerRequestError') return true;
    if (typeof message === 'string' && UNAVAILABLE_MESSAGES.some((text) => message.includes(text))) return true;
    const next = current as { driverError?: unknown; cause?: unknown };
    current = next.driverError ?? next.cause;
  }
  return false;
}
