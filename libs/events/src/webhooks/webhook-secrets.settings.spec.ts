import { readSettings } from '@app/core';
import { WebhookSecretsSettings } from './webhook-secrets.settings';

const KEY = Buffer.alloc(32, 7).toString('base64');
const violations = (variables: Record<string, string>) => readSettings(WebhookSecretsSettings, variables).violations;

describe('WebhookSecretsSettings', () => {
  it.each(['production', 'staging'])('requires the key when APP_ENV is %s', (appEnv) => {
    expect(violations({ APP_ENV: appEnv })).toEqual([
      expect.stringMatching(
        /^WEBHOOK_SECRETS_KEY=undefined: must be the base64 of 32 bytes .* unless APP_ENV=development$/,
      ),
    ]);
    expect(violations({ APP_ENV: appEnv, WEBHOOK_SECRETS_KEY: KEY })).toEqual([]);
  });

  it('lets the development key stand in during development only', () => {
    expect(violations({})).toEqual([]);
    expect(violations({ APP_ENV: 'development' })).toEqual([]);
  });

  it('refuses a key that is not the base64 of 32 bytes, in development too', () => {
    expect(violations({ APP_ENV: 'development', WEBHOOK_SECRETS_KEY: 'c2hvcnQ=' })).toEqual([
      expect.stringMatching(/^WEBHOOK_SECRETS_KEY="c2hvcnQ=": must be the base64 of 32 bytes/),
    ]);
  });
});
