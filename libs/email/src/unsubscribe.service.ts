import { Injectable } from '@nestjs/common';
import { UnsubscribeLinkNotFoundError } from './email.errors';
import { EmailRepository } from './email.repository';
import { type UnsubscribeTarget, UnsubscribeTokens } from './unsubscribe-tokens';

/** The unsubscribe links: what a token names, and its one effect. */
@Injectable()
export class UnsubscribeService {
  constructor(
    private readonly tokens: UnsubscribeTokens,
    private readonly emails: EmailRepository,
  ) {}

  /** What the token names; a token not signed by this service → 404. */
  target(token: string): UnsubscribeTarget {
    const target = this.tokens.verify(token);
    if (!target) throw new UnsubscribeLinkNotFoundError();
    return target;
  }

  /** The address leaves the list: emails of it already written are not sent either. */
  async unsubscribe(token: string): Promise<UnsubscribeTarget> {
    const target = this.target(token);
    await this.emails.unsubscribe(target.addressKey, target.list);
    return target;
  }
}
