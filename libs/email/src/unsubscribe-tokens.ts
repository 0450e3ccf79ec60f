import { createHmac, timingSafeEqual } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { EmailSettings } from './email.settings';

/** Stands in for `EMAIL_UNSUBSCRIBE_KEY` in development only (the settings refuse its absence elsewhere). */
const DEVELOPMENT_KEY = Buffer.alloc(32, 'development unsubscribe key');

/** What an unsubscribe link names: an address (in canonical form) and a list's key. */
export interface UnsubscribeTarget {
  addressKey: string;
  list: string;
}

/**
 * The tokens of unsubscribe links: the target in base64url JSON, a dot, and its HMAC-SHA256 under
 * `EMAIL_UNSUBSCRIBE_KEY`, so that a link cannot be made for another address or list, nor altered.
 */
@Injectable()
export class UnsubscribeTokens {
  private readonly key: Buffer;

  constructor(settings: EmailSettings) {
    // The settings allow no key only in development.
    this.key =
      settings.EMAIL_UNSUBSCRIBE_KEY === undefined
        ? DEVELOPMENT_KEY
        : Buffer.from(settings.EMAIL_UNSUBSCRIBE_KEY, 'base64');
  }

  sign(target: UnsubscribeTarget): string {
    const payload = Buffer.from(JSON.stringify([target.addressKey, target.list])).toString('base64url');
    return `${payload}.${this.mac(payload).toString('base64url')}`;
  }

  /** The target of a token this key signed; undefined for anything else. */
  verify(token: string): UnsubscribeTarget | undefined {
    // Strictly base64url: Node's decoder skips other characters, which would let altered tokens through.
    const [, payload, mac] = /^([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]{43})$/.exec(token) ?? [];
    if (!payload || !mac) return undefined;
    const given = Buffer.from(mac, 'base64url');
    const expected = this.mac(payload);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
    const target: unknown = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    if (!Array.isArray(target) || target.length !== 2) return undefined;
    const [addressKey, list] = target as unknown[];
    return typeof addressKey === 'string' && typeof list === 'string' ? { addressKey, list } : undefined;
  }

  private mac(payload: string): Buffer {
    return createHmac('sha256', this.key).update(payload).digest();
  }
}
