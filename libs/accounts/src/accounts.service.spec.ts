import { double } from '../../../test/support/doubles';
import { canonicalEmail } from '@app/core';
import { type Sql } from '@app/database';
import type { AccountEvents } from './account-events';
import { AccountNotFoundError, EmailTakenError } from './accounts.errors';
import type { Account, AccountsRepository } from './accounts.repository';
import { AccountsService } from './accounts.service';
import type { ApiKey } from './api-keys/api-keys.repository';
import type { ApiKeysService } from './api-keys/api-keys.service';
import type { Plan } from './plans';

const ACCOUNT: Account = {
  id: 3,
  email: 'Alex@example.com',
  emailCanonical: canonicalEmail('Alex@example.com'),
  plan: 'free',
  customPerMinute: null,
  customPerDay: null,
  createdAt: new Date('2026-06-01T12:00:00.000Z'),
};
const KEY: ApiKey = {
  id: 7,
  accountId: ACCOUNT.id,
  name: 'default',
  prefix: 'pet_test_sec',
  kind: 'secret',
  scopes: ['*'],
  expiresAt: null,
  allowedOrigins: null,
  publishableKey: null,
  createdAt: ACCOUNT.createdAt,
  lastUsedAt: null,
  revokedAt: null,
};

function setUp() {
  /** Which calls ran inside the transaction. */
  const calls: string[] = [];
  let inTransaction = false;
  const sql = {
    transaction: async <T>(work: () => Promise<T>) => {
      inTransaction = true;
      try {
        return await work();
      } finally {
        inTransaction = false;
      }
    },
  } satisfies Partial<Sql>;
  const accounts = {
    insert: jest.fn(async () => {
      calls.push(`account inserted${inTransaction ? ' in the transaction' : ''}`);
      return ACCOUNT;
    }),
    findByEmail: jest.fn().mockResolvedValue(ACCOUNT),
    updatePlan: jest.fn(
      async (id: number, plan: Plan, customPerMinute: number | null, customPerDay: number | null) => ({
        ...ACCOUNT,
        plan,
        customPerMinute,
        customPerDay,
      }),
    ),
  } satisfies Partial<AccountsRepository>;
  const apiKeys = {
    issue: jest.fn(async () => {
      calls.push(`key issued${inTransaction ? ' in the transaction' : ''}`);
      return { key: KEY, secret: 'pet_test_secret' };
    }),
  } satisfies Partial<ApiKeysService>;
  const events = { announce: jest.fn().mockResolvedValue(undefined) } satisfies Partial<AccountEvents>;
  const service = new AccountsService(
    double<AccountsRepository>(accounts),
    double<Sql>(sql),
    double<ApiKeysService>(apiKeys),
    double<AccountEvents>(events),
  );
  return { service, calls, accounts, apiKeys, events };
}

describe('AccountsService', () => {
  it('creates the account and its first key in one transaction', async () => {
    const { service, calls, accounts, apiKeys } = setUp();
    await expect(service.signUp('Alex@example.com')).resolves.toEqual({
      account: ACCOUNT,
      apiKey: { key: KEY, secret: 'pet_test_secret' },
    });
    expect(calls).toEqual(['account inserted in the transaction', 'key issued in the transaction']);
    expect(accounts.insert).toHaveBeenCalledWith({
      email: 'Alex@example.com',
      emailCanonical: canonicalEmail('Alex@example.com'),
      plan: 'free',
    });
    expect(apiKeys.issue).toHaveBeenCalledWith(ACCOUNT.id, 'default');
  });

  it('answers a sign-up whose email is taken with email_taken', async () => {
    const { service, accounts } = setUp();
    accounts.insert.mockRejectedValue(Object.assign(new Error('duplicate key'), { code: '23505' }));
    await expect(service.signUp('alex@example.com')).rejects.toBeInstanceOf(EmailTakenError);
  });

  it('keeps custom figures for the enterprise plan only, and announces the change', async () => {
    const { service, accounts, events } = setUp();
    await service.setPlan(ACCOUNT.email, 'enterprise', { perMinute: 5000 });
    await service.setPlan(ACCOUNT.email, 'pro', { perMinute: 5000, perDay: 9 });
    expect(accounts.updatePlan.mock.calls).toEqual([
      [ACCOUNT.id, 'enterprise', 5000, null],
      [ACCOUNT.id, 'pro', null, null],
    ]);
    expect(events.announce).toHaveBeenCalledWith({ type: 'account-changed', accountId: ACCOUNT.id });
  });

  it('answers a plan change for an unknown email with not_found', async () => {
    const { service, accounts } = setUp();
    accounts.findByEmail.mockResolvedValue(undefined);
    await expect(service.setPlan('Nobody@example.com', 'pro')).rejects.toBeInstanceOf(AccountNotFoundError);
    expect(accounts.findByEmail).toHaveBeenCalledWith(canonicalEmail('Nobody@example.com'), 'Nobody@example.com');
    expect(accounts.updatePlan).not.toHaveBeenCalled();
  });
});
