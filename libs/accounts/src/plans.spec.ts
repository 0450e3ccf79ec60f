import { isPlan, limitsFor, PLAN_LIMITS } from './plans';

describe('plans', () => {
  it('has the spec’s limits per plan', () => {
    expect(PLAN_LIMITS.free).toEqual({ perMinute: 60, perDay: 1000 });
    expect(PLAN_LIMITS.pro).toEqual({ perMinute: 300, perDay: 10000 });
    expect(PLAN_LIMITS.business).toEqual({ perMinute: 1000, perDay: 100000 });
  });

  it('applies custom figures to enterprise only', () => {
    expect(limitsFor('enterprise', 5000, null)).toEqual({ perMinute: 5000, perDay: PLAN_LIMITS.enterprise.perDay });
    expect(limitsFor('pro', 5000, 9)).toEqual(PLAN_LIMITS.pro);
  });

  it('recognises plan names', () => {
    expect(isPlan('business')).toBe(true);
    expect(isPlan('gold')).toBe(false);
  });
});
