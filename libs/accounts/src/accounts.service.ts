import { canonicalEmail, characterCount, sqlState, ValidationFailedError } from '@app/core';
import { Injectable } from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import { DataSource, Repository } from 'typeorm';
import { AccountEvents } from './account-events';
import { AccountEntity } from './account.entity';
import { AccountNotFoundError, EmailTakenError } from './accounts.errors';
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
    @InjectRepository(AccountEntity) private readonly accounts: Repository<AccountEntity>,
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly apiKeys: ApiKeysService,
    private readonly events: AccountEvents,
  ) {}

  /**
   * Creates the account and its first key in one transaction: never an account without a key. One
   * account per canonical email, so that addresses that read the same cannot sign up twice.
   */
  async signUp(email: string): Promise<{ account: AccountEntity; apiKey: IssuedApiKey }> {
    const emailCanonical = canonicalEmail(email);
    if (characterCount(emailCanonical) > MAX_EMAIL_LENGTH) {
      throw new ValidationFailedError(`email must be at most ${MAX_EMAIL_LENGTH} characters once normalised`, [
        { field: 'email', message: `must be at most ${MAX_EMAIL_LENGTH} characters once normalised` },
      ]);
    }
    try {
      return await this.dataSource.transaction(async (manager) => {
        const account = await manager.save(manager.create(AccountEntity, { email, emailCanonical, plan: 'free' }));
        const apiKey = await this.apiKeys.issue(account.id, 'default', manager);
        return { account, apiKey };
      });
    } catch (error) {
      if (sqlState(error) === UNIQUE_VIOLATION) {
        throw new EmailTakenError();
      }
      throw error;
    }
  }

  async get(accountId: number): Promise<AccountEntity> {
    const account = await this.accounts.findOneBy({ id: accountId });
    if (!account) throw new AccountNotFoundError(String(accountId));
    return account;
  }

  /** The account with this canonical email, or, among those left without one, with exactly this email. */
  async getByEmail(email: string): Promise<AccountEntity> {
    const account = await this.accounts
      .createQueryBuilder('account')
      .where('account.email_canonical = :canonical', { canonical: canonicalEmail(email) })
      .orWhere('account.email_canonical IS NULL AND account.email = :email', { email })
      .orderBy('account.email = :email', 'DESC')
      .getOne();
    if (!account) throw new AccountNotFoundError(email);
    return account;
  }

  /** Operator action: custom figures apply to the enterprise plan only. */
  async setPlan(email: string, plan: Plan, custom: CustomLimits = {}): Promise<AccountEntity> {
    const account = await this.getByEmail(email);
    account.plan = plan;
    account.customPerMinute = plan === 'enterprise' ? (custom.perMinute ?? null) : null;
    account.customPerDay = plan === 'enterprise' ? (custom.perDay ?? null) : null;
    await this.accounts.save(account);
    await this.events.announce({ type: 'account-changed', accountId: account.id });
    return account;
  }
}
