import { canonicalEmail, characterCount, ValidationFailedError } from '@app/core';
import { Sql, sqlState } from '@app/database';
import { Injectable } from '@nestjs/common';
import { AccountEvents } from './account-events';
import { AccountNotFoundError, EmailTakenError } from './accounts.errors';
import { Account, AccountsRepository } from './accounts.repository';
import { ApiKeysService, IssuedApiKey } from './api-keys/api-keys.service';
import type { Plan } from './plans';

const UNIQUE_VIOLATION = '23505';
/** As `SignUpDto.email`; the canonical form is held to it too. */
const MAX_EMAIL_LENGTH = 254;

export interface CustomLimits {
  perMinute?: number;
  perDay?: number;
}

@Injectable()
export class AccountsService {
  constructor(
    private readonly accounts: AccountsRepository,
    private readonly sql: Sql,
    private readonly apiKeys: ApiKeysService,
    private readonly events: AccountEvents,
  ) {}

  /**
   * Creates the account and its first key in one transaction: never an account without a key. One
   * account per canonical email, so that addresses that read the same cannot sign up twice.
   */
  async signUp(email: string): Promise<{ account: Account; apiKey: IssuedApiKey }> {
    const emailCanonical = canonicalEmail(email);
    if (characterCount(emailCanonical) > MAX_EMAIL_LENGTH) {
      throw new ValidationFailedError(`email must be at most ${MAX_EMAIL_LENGTH} characters once normalised`, [
        { field: 'email', message: `must be at most ${MAX_EMAIL_LENGTH} characters once normalised` },
      ]);
    }
    try {
      return await this.sql.transaction(async () => {
        const account = await this.accounts.insert({ email, emailCanonical, plan: 'free' });
        const apiKey = await this.apiKeys.issue(account.id, 'default');
        return { account, apiKey };
      });
    } catch (error) {
      if (sqlState(error) === UNIQUE_VIOLATION) {
        throw new EmailTakenError();
      }
      throw error;
    }
  }

  async get(accountId: number): Promise<Account> {
    const account = await this.accounts.findById(accountId);
    if (!account) throw new AccountNotFoundError(String(accountId));
    return account;
  }

  /** The account with this canonical email, or, among those left without one, with exactly this email. */
  async getByEmail(email: string): Promise<Account> {
    const account = await this.accounts.findByEmail(canonicalEmail(email), email);
    if (!account) throw new AccountNotFoundError(email);
    return account;
  }

  /** Operator action: a page of every account, by id. */
  list(afterId: number, limit: number): Promise<Account[]> {
    return this.accounts.list(afterId, limit);
  }

  /** Operator action: custom figures apply to the enterprise plan only. */
  async setPlan(email: string, plan: Plan, custom: CustomLimits = {}): Promise<Account> {
    const account = await this.getByEmail(email);
    const updated = await this.accounts.updatePlan(
      account.id,
      plan,
      plan === 'enterprise' ? (custom.perMinute ?? null) : null,
      plan === 'enterprise' ? (custom.perDay ?? null) : null,
    );
    if (!updated) throw new AccountNotFoundError(email);
    await this.events.announce({ type: 'account-changed', accountId: updated.id });
    return updated;
  }
}
