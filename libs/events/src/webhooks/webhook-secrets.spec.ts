import { createHmac } from 'node:crypto';
import { newWebhookSecret, signingKey, WebhookSecrets } from './webhook-secrets';
import { WebhookSecretsSettings } from './webhook-secrets.settings';

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
