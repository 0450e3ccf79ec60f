import type { RateLimits } from '@app/core';

export const PLANS = ['free', 'pro', 'business', 'enterprise'] as const;
export type Plan = (typeof PLANS)[number];

/** Spec section 8. Enterprise figures are set per account by the operator; these are its defaults. */
export const PLAN_LIMITS: Record<Plan, RateLimits> = {
  free: { perMinute: 60, perDay: 1_000 },
  pro: { perMinute: 300, perDay: 10_000 },
  business: { perMinute: 1_000, perDay: 100_000 },
  enterprise: { perMinute: 10_000, perDay: 10_000_000 },
};

export function isPlan(value: string): value is Plan {
  return (PLANS as readonly string[]).includes(value);
}

export function limitsFor(plan: Plan, customPerMinute: number | null, customPerDay: number | null): RateLimits {
  const base = PLAN_LIMITS[plan];
  if (plan !== 'enterprise') return base;
  return { perMinute: customPerMinute ?? base.perMinute, perDay: customPerDay ?? base.perDay };
}
