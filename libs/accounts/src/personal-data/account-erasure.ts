import { Injectable, Logger } from '@nestjs/common';
import { AccountsRepository } from '../accounts.repository';
import { PersonalDataParts } from './personal-data-parts';

/** Things (rows, files) a part erases per call, each call its own transactions: locks stay short. */
const ERASURE_BATCH = 200;

/**
 * Carries out a deleted account's erasure across every context's part, in bounded batches. Each pass calls
 * every part once whose `erasedAfter` parts have all answered, in that pass, that nothing of the account is
 * left: so orders are cancelled before pets are removed, and an order placed on a pet meanwhile is cancelled
 * in a later pass before that pet goes. The erasure ends with a pass in which no part had anything left,
 * and only then is the account marked erased. Parts are idempotent, so a worker killed at any point starts
 * again from the first pass and carries on from what is left.
 */
@Injectable()
export class AccountErasure {
  private readonly logger = new Logger(AccountErasure.name);

  constructor(
    private readonly parts: PersonalDataParts,
    private readonly accounts: AccountsRepository,
  ) {}

  /** Whether it finished; false when `stopped` said to stop first (the worker is closing). */
  async erase(accountId: number, stopped: () => boolean): Promise<boolean> {
    for (let pass = 1; ; pass++) {
      const finished = new Set<string>();
      for (const part of this.parts.ordered) {
        if (stopped()) return false;
        if (!part.erasedAfter.every((name) => finished.has(name))) continue;
        if (!(await part.erase(accountId, ERASURE_BATCH))) finished.add(part.name);
      }
      if (finished.size === this.parts.ordered.length) {
        await this.accounts.markErased(accountId);
        this.logger.log({ accountId, passes: pass }, 'account erased');
        return true;
      }
    }
  }
}
