import { double } from '../../../../test/support/doubles';
import type { Clock } from '@app/core';
import type { EndpointTarget, WebhookEndpointsRepository } from '../webhooks/webhook-endpoints.repository';
import { ENDPOINT_TARGET_TTL_MS, EndpointTargetsCache } from './endpoint-targets.cache';

const target = (id: number, url = `https://example.com/${id}`): EndpointTarget => ({
  id,
  url,
  secretCiphertext: 'v1.sealed',
  previousSecretCiphertext: null,
  previousSecretExpiresAt: null,
  enabled: true,
});

function setUp() {
  let now = 1_000_000;
  const stored = new Map([
    [1, target(1)],
    [2, target(2)],
  ]);
  const endpoints = {
    targets: jest.fn(async (ids: number[]) => ids.flatMap((id) => stored.get(id) ?? [])),
  } satisfies Partial<WebhookEndpointsRepository>;
  const clock = { now: () => new Date(now) } satisfies Partial<Clock>;
  const targets = new EndpointTargetsCache(double<WebhookEndpointsRepository>(endpoints), double<Clock>(clock));
  return { targets, endpoints, stored, advance: (ms: number) => (now += ms) };
}

describe('EndpointTargetsCache', () => {
  it('reads the endpoints missed together with one statement, and nothing more within the TTL', async () => {
    const { targets, endpoints } = setUp();
    expect(await Promise.all([targets.get(1), targets.get(2), targets.get(1), targets.get(3)])).toEqual([
      target(1),
      target(2),
      target(1),
      undefined,
    ]);
    expect(endpoints.targets.mock.calls).toEqual([[[1, 2, 3]]]);
    await targets.get(2);
    expect(endpoints.targets).toHaveBeenCalledTimes(1);
  });

  it('reads an endpoint again once its TTL is over, seeing a change or its deletion', async () => {
    const { targets, stored, advance } = setUp();
    await targets.get(1);
    await targets.get(2);
    stored.set(1, target(1, 'https://example.com/moved'));
    stored.delete(2);
    advance(ENDPOINT_TARGET_TTL_MS - 1);
    expect(await targets.get(1)).toEqual(target(1));
    advance(1);
    expect(await targets.get(1)).toEqual(target(1, 'https://example.com/moved'));
    expect(await targets.get(2)).toBeUndefined();
  });

  it('keeps no failed read: the next delivery reads again', async () => {
    const { targets, endpoints } = setUp();
    endpoints.targets.mockRejectedValueOnce(new Error('connect ECONNREFUSED'));
    await expect(targets.get(1)).rejects.toThrow('ECONNREFUSED');
    expect(await targets.get(1)).toEqual(target(1));
    expect(endpoints.targets).toHaveBeenCalledTimes(2);
  });
});
