import { Webhook } from 'standardwebhooks';
import { newWebhookSecret, WebhookSecrets } from './webhook-secrets';
import { WebhookSecretsSettings } from './webhook-secrets.settings';
import { SigningKey, StandardWebhookHeaders, standardWebhookHeaders } from './webhook-signature';

const BODY = '{"id":"evt_1"}';

/** Whether a receiver holding `secret` accepts these headers: the standardwebhooks package is the oracle. */
function verifies(secret: string, headers: StandardWebhookHeaders): boolean {
  try {
    new Webhook(secret).verify(BODY, { ...headers });
    return true;
  } catch {
    return false;
  }
}

const signedWith = (key: SigningKey | readonly SigningKey[], at?: Date) =>
  standardWebhookHeaders('evt_1', BODY, key, at);

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
    expect([verifies(secret, signedWith(key)), verifies(newWebhookSecret(), signedWith(key))]).toEqual([true, false]);
    expect(secrets.signingKey(sealed)).toBe(key);
    expect(open).toHaveBeenCalledTimes(1);
    open.mockRestore();
  });

  it('gives the key of the secret now stored: another secret, or the same sealed again, is another string', () => {
    const before = newWebhookSecret();
    const after = newWebhookSecret();
    const signed = [secrets.seal(before), secrets.seal(after), secrets.seal(before)].map((sealed) =>
      signedWith(secrets.signingKey(sealed)),
    );
    expect(signed.map((headers) => [verifies(before, headers), verifies(after, headers)])).toEqual([
      [true, false],
      [false, true],
      [true, false],
    ]);
  });
});

describe('signing during a rotation', () => {
  const secrets = new WebhookSecrets(new WebhookSecretsSettings());
  const [current, previous] = [newWebhookSecret(), newWebhookSecret()];
  const AT = new Date();
  const sealed = (previousSecretExpiresAt: Date | null) => ({
    secretCiphertext: secrets.seal(current),
    previousSecretCiphertext: secrets.seal(previous),
    previousSecretExpiresAt,
  });

  it('signs with both secrets until the previous one expires, so that a receiver holding either verifies', () => {
    const keys = secrets.signingKeys(sealed(new Date(AT.getTime() + 1000)), AT);
    const headers = signedWith(keys, AT);
    expect(headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/=]{44} v1,[A-Za-z0-9+/=]{44}$/);
    expect([verifies(current, headers), verifies(previous, headers)]).toEqual([true, true]);
  });

  it('signs with the current secret alone once the previous one expired, or when there is none', () => {
    for (const expired of [sealed(AT), { ...sealed(null), previousSecretCiphertext: null }]) {
      const headers = signedWith(secrets.signingKeys(expired, AT), AT);
      expect(headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/=]{44}$/);
      expect([verifies(current, headers), verifies(previous, headers)]).toEqual([true, false]);
    }
  });
});
