import { Counter } from 'prom-client';

/** Read by the Prometheus exporter at /metrics: how often Redis failed the limiter, and what followed. */
export const rateLimitRedisFailures = new Counter({
  name: 'rate_limit_redis_failures_total',
  help: 'Rate-limit decisions that failed because Redis could not answer, by the policy applied (open: admitted, closed: 503).',
  labelNames: ['policy'] as const,
});

export const rateLimitRefusals = new Counter({
  name: 'rate_limit_refusals_total',
  help: 'Requests refused with 429, by error code (rate_limited, api_key_banned).',
  labelNames: ['code'] as const,
});
