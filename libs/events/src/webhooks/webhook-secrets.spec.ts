import { createHmac } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { newWebhookSecret, signingKey, WebhookSecrets } from './webhook-secrets';
import { WebhookSecretsSettings } from './webhook-secrets.settings';
import { StandardWebhookHeaders, standardWebhookHeaders } from './webhook-signature';

const hmac = (key: Parameters<typeof createHmac>[1]) => createHmac('sha256', key).update('evt_1.1.{}').digest('base64');

describe('WebhookSecrets', () => {
  const secrets = new WebhookSecrets(new WebhookSecretsSettings());

  it('opens what it sealed, under a fresh IV each time', () => {
    const secret = newWebhookSecret();
    const sealed = [secrets.seal(secret), secrets.seal(secret)];
    expect(sealed[0]).not.toBe(sealed[1]);
    expect(sealed.map((stored) => secrets.open(stored))).toEqual([secret, secret]);
  });

  it('refuses a sealed secret that was tampered with', () => {
    const sealed = secrets.seal(newWebhookSecret());
    const bytes = Buffer.from(sealed.slice('v1.'.length), 'base64');
    bytes[bytes.length - 1]! ^= 1;
    expect(() => secrets.open(`v1.${bytes.toString('base64')}`)).toThrow();
  });

  it('signs with the decoded bytes of the secret, opening each sealed secret once', () => {
    const secret = newWebhookSecret();
    const sealed = secrets.seal(secret);
    const open = jest.spyOn(secrets, 'open');
    const key = secrets.signingKey(sealed);
    expect(hmac(key)).toBe(hmac(signingKey(secret)));
    expect(secrets.signingKey(sealed)).toBe(key);
    expect(open).toHaveBeenCalledTimes(1);
    open.mockRestore();
  });

  it('gives the key of the secret now stored: another secret, or the same sealed again, is another string', () => {
    const before = newWebhookSecret();
    const after = newWebhookSecret();
    const sealedBefore = secrets.seal(before);
    expect(hmac(secrets.signingKey(sealedBefore))).toBe(hmac(signingKey(before)));
    expect(hmac(secrets.signingKey(secrets.seal(after)))).toBe(hmac(signingKey(after)));
    expect(hmac(secrets.signingKey(secrets.seal(before)))).toBe(hmac(signingKey(before)));
  });
});

describe('signing during a rotation', () => {
  const secrets = new WebhookSecrets(new WebhookSecretsSettings());
  const [current, previous] = [newWebhookSecret(), newWebhookSecret()];
  const AT = new Date();
  const body = '{"id":"evt_1"}';
  const sealed = (previousSecretExpiresAt: Date | null) => ({
    secretCiphertext: secrets.seal(current),
    previousSecretCiphertext: secrets.seal(previous),
    previousSecretExpiresAt,
  });
  const verifies = (secret: string, headers: StandardWebhookHeaders) => {
    try {
      new Webhook(secret).verify(body, { ...headers });
      return true;
    } catch {
      return false;
    }
  };

  it('signs with both secrets until the previous one expires, so that a receiver holding either verifies', () => {
    const keys = secrets.signingKeys(sealed(new Date(AT.getTime() + 1000)), AT);
    const headers = standardWebhookHeaders('evt_1', body, keys, AT);
    expect(headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/=]{44} v1,[A-Za-z0-9+/=]{44}$/);
    expect([verifies(current, headers), verifies(previous, headers)]).toEqual([true, true]);
  });

  it('signs with the current secret alone once the previous one expired, or when there is none', () => {
    for (const expired of [sealed(AT), { ...sealed(null), previousSecretCiphertext: null }]) {
      const headers = standardWebhookHeaders('evt_1', body, secrets.signingKeys(expired, AT), AT);
      expect(headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/=]{44}$/);
      expect([verifies(current, headers), verifies(previous, headers)]).toEqual([true, false]);
    }
  });
});
