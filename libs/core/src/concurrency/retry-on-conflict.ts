/** What an attempt of a guarded change returns when it lost a race with a concurrent change: try again. */
export const RACED = Symbol('raced');

/**
 * Runs `attempt` until it applies, at most `attempts` times, then throws what `exhausted` makes. An
 * attempt returns what it wrote, throws why the change cannot apply, or returns RACED when its guard
 * failed only because a concurrent change came first (each race needs another change to win it).
 */
export async function retryOnConflict<T>(
  attempts: number,
  attempt: () => Promise<T | typeof RACED>,
  exhausted: () => Error,
): Promise<T> {
  for (let tries = 1; tries <= attempts; tries++) {
    const outcome = await attempt();
    if (outcome !== RACED) return outcome;
  }
  throw exhausted();
}
