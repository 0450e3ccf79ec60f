import { Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';

/** How often the refusals counted since the last summary are logged. */
export const REFUSAL_SUMMARY_INTERVAL_MS = 10_000;
/** Callers counted one by one per interval; the refusals of any caller beyond them are only totalled. */
export const MAX_CALLERS_PER_INTERVAL = 10_000;
/** Callers named in a summary, the most refused first. */
const CALLERS_PER_SUMMARY = 20;

/**
 * Rate-limit refusals (429) in the request log. A caller's first refusal in each interval gets its
 * own line, request id and all; the others are counted and logged as one summary per interval. A
 * client hammering past its limit would otherwise write a line for every refusal: logging it would
 * cost more than refusing it, and bury every other line.
 */
@Injectable()
export class RefusalLog implements OnApplicationShutdown {
  private readonly logger = new Logger(RefusalLog.name);
  private counts = new Map<string, number>();
  /** Refusals of callers beyond MAX_CALLERS_PER_INTERVAL. */
  private untracked = 0;
  private since = Date.now();
  private readonly timer = setInterval(() => this.summarise(), REFUSAL_SUMMARY_INTERVAL_MS).unref();

  /** Counts a refusal of `caller`; true when it is the caller's first in this interval, to be logged in full. */
  record(caller: string): boolean {
    const count = this.counts.get(caller);
    if (count !== undefined) {
      this.counts.set(caller, count + 1);
      return false;
    }
    if (this.counts.size >= MAX_CALLERS_PER_INTERVAL) {
      this.untracked++;
      return false;
    }
    this.counts.set(caller, 1);
    return true;
  }

  /** Logs the interval's refusals when some of them were not logged one by one, and starts a new interval. */
  summarise(): void {
    const counts = this.counts;
    const untracked = this.untracked;
    const seconds = Math.max(1, Math.round((Date.now() - this.since) / 1000));
    this.counts = new Map();
    this.untracked = 0;
    this.since = Date.now();

    let refused = untracked;
    for (const count of counts.values()) refused += count;
    const unlogged = refused - counts.size;
    if (unlogged === 0) return;
    const byCaller = [...counts].sort((a, b) => b[1] - a[1]).slice(0, CALLERS_PER_SUMMARY);
    this.logger.log(
      {
        refused,
        unlogged,
        seconds,
        byCaller: Object.fromEntries(byCaller),
        // Counted callers not named above; the refusals of untracked callers are only in the totals.
        otherCallers: counts.size - byCaller.length,
      },
      `rate limits refused ${refused} request(s) in ${seconds} s; ${unlogged} of them had no line of their own`,
    );
  }

  onApplicationShutdown(): void {
    clearInterval(this.timer);
    this.summarise();
  }
}
