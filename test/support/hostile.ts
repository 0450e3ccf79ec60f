import fc from 'fast-check';
import { AccountsService } from '@app/accounts';
import { createApiApp } from './api-app';
import { signUp, TestAccount } from './factories';
import type { TestHttpApp } from './http-app';

/** The writable fields of a pet. */
export const PET_FIELDS = [
  'name',
  'categoryId',
  'status',
  'description',
  'breed',
  'sex',
  'ageGroup',
  'size',
  'tags',
  'photoUrls',
  'location',
  'attributes',
  'specialNeedsNotes',
  'environment',
  'coat',
  'colors',
  'secondaryBreed',
  'mixedBreed',
  'externalId',
];

export const RUNS = Number(process.env.FUZZ_RUNS ?? 1500);
export const PROTOTYPE_KEYS = Object.getOwnPropertyNames(Object.prototype).sort();

/** Keys that attack prototypes, mixed into generated objects. */
const hostileKey = fc.oneof(
  fc.constantFrom('__proto__', 'constructor', 'prototype', ...PET_FIELDS, 'latitude', 'longitude'),
  fc.string(),
);
export const hostileJson = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.constant(null),
    fc.boolean(),
    fc.double(),
    fc.integer(),
    fc.bigInt().map((n) => Number(n) * 1e300),
    fc.string({ unit: 'binary', maxLength: 200 }),
    fc.array(tie('value'), { maxLength: 5 }),
    fc.dictionary(hostileKey, tie('value'), { maxKeys: 6 }),
  ),
})).value;

/** A client error must be the Error body; anything else is a bug. */
export function expectWellFormed(
  response: { status: number; body: unknown; headers: Record<string, string> },
  allowed: number[],
) {
  if (!allowed.includes(response.status)) {
    throw new Error(`unexpected ${response.status}: ${JSON.stringify(response.body)}`);
  }
  if (response.status >= 400) {
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(response.body).toEqual(
      expect.objectContaining({ code: expect.any(String), message: expect.any(String), status: response.status }),
    );
  }
}

/** The api app with limits high enough that every generated request reaches validation, and a caller. */
export async function startHostileApp(): Promise<{ app: TestHttpApp; account: TestAccount }> {
  const app = await createApiApp({
    env: { RATE_LIMIT_ANONYMOUS_PER_MINUTE: '1000000', RATE_LIMIT_SIGNUP_PER_HOUR: '1000000' },
  });
  const account = await signUp(app.http);
  await app.app.get(AccountsService).setPlan(account.email, 'enterprise', { perMinute: 1_000_000, perDay: 10_000_000 });
  return { app, account };
}

/** Closes the app, and checks that nothing was added to Object.prototype meanwhile. */
export async function closeHostileApp(app: TestHttpApp): Promise<void> {
  await app.close();
  expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(PROTOTYPE_KEYS);
}
