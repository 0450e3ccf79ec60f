/**
 * The limiter's Redis keys. Each carries the tracker of the caller it counts as a Redis Cluster hash tag
 * (`rate-limit:minute:{account:3}`): one script call decides a caller's windows and ban together, and a
 * cluster runs a script only on keys of one slot. The same names serve one Redis.
 */
export const windowKey = (name: string, tracker: string) => `rate-limit:${name}:{${tracker}}`;

/** The tracker a window's key was made for: its hash tag. */
export const trackerOf = (key: string) => key.slice(key.indexOf('{') + 1, key.indexOf('}'));

/** An API key's ban flag and refusal log, kept beside the windows of the caller they count for. */
export const banKeys = (tracker: string, keyId: number) =>
  [`rate-limit:ban:{${tracker}}:key:${keyId}`, `rate-limit:refusals:{${tracker}}:key:${keyId}`] as const;
