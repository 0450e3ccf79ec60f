import { createCipheriv, createDecipheriv, createHash, createSecretKey, KeyObject, randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { WebhookSecretsSettings } from './webhook-secrets.settings';

const SECRET_PREFIX = 'whsec_';
/** Names the scheme of a stored secret, so that a later one can sit beside it. */
const STORED_PREFIX = 'v1.';
/** Opened signing keys one process keeps: far more than the endpoints it delivers to at once. */
const MAX_OPEN_KEYS = 1000;
/** Stands in when WEBHOOK_SECRETS_KEY is unset, which only development allows: no protection at all. */
const DEVELOPMENT_KEY = createHash('sha256').update('pet-adoption-service development webhook secrets').digest();

/**
 * An endpoint's sealed secrets: the current one, and the one it replaced, which still signs until
 * `previousSecretExpiresAt` (a rotation's overlap).
 */
export interface SealedSecrets {
  secretCiphertext: string;
  previousSecretCiphertext: string | null;
  previousSecretExpiresAt: Date | null;
}

/** A new signing secret: `whsec_` and the base64 of 32 bytes from the CSPRNG. */
export function newWebhookSecret(): string {
  return `${SECRET_PREFIX}${randomBytes(32).toString('base64')}`;
}

/** The bytes an HMAC is keyed with: the secret's base64 part, decoded. */
function signingKey(secret: string): Buffer {
  return Buffer.from(secret.slice(SECRET_PREFIX.length), 'base64');
}

/**
 * Endpoints' secrets must be read to sign, so they are stored encrypted, not hashed: AES-256-GCM under
 * WEBHOOK_SECRETS_KEY, a fresh IV each, the tag checked on reading. A copy of the database alone does
 * not reveal them.
 */
@Injectable()
export class WebhookSecrets {
  private readonly key: Buffer;
  /**
   * HMAC keys by the sealed secret they were opened from. A secret sealed again, or another one, is
   * another string (a fresh IV each time), so a kept key is never stale: the delivery looks up the
   * sealed secret it read with its endpoint.
   */
  private readonly openKeys = new Map<string, KeyObject>();

  constructor(settings: WebhookSecretsSettings) {
    this.key = settings.WEBHOOK_SECRETS_KEY ? Buffer.from(settings.WEBHOOK_SECRETS_KEY, 'base64') : DEVELOPMENT_KEY;
  }

  seal(secret: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const sealed = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
    return `${STORED_PREFIX}${Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64')}`;
  }

  /** The HMAC keys that sign for an endpoint at `at`: its current secret's, then its previous one's while it lasts. */
  signingKeys(sealed: SealedSecrets, at: Date): KeyObject[] {
    const keys = [this.signingKey(sealed.secretCiphertext)];
    if (sealed.previousSecretCiphertext && sealed.previousSecretExpiresAt && sealed.previousSecretExpiresAt > at)
      keys.push(this.signingKey(sealed.previousSecretCiphertext));
    return keys;
  }

  /** The HMAC key of a sealed `whsec_` secret: opened once, then kept (the oldest dropped past MAX_OPEN_KEYS). */
  signingKey(stored: string): KeyObject {
    let key = this.openKeys.get(stored);
    if (!key) {
      key = createSecretKey(signingKey(this.open(stored)));
      if (this.openKeys.size >= MAX_OPEN_KEYS) this.openKeys.delete(this.openKeys.keys().next().value!);
      this.openKeys.set(stored, key);
    }
    return key;
  }

  open(stored: string): string {
    const bytes = Buffer.from(stored.slice(STORED_PREFIX.length), 'base64');
    const decipher = createDecipheriv('aes-256-gcm', this.key, bytes.subarray(0, 12));
    decipher.setAuthTag(bytes.subarray(12, 28));
    return Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]).toString('utf8');
  }
}
