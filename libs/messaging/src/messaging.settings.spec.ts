import { loadSettings } from '@app/core';
import { MessagingSettings } from './messaging.settings';

describe('MessagingSettings', () => {
  it('supplies the contract’s defaults when nothing is set', () => {
    expect(loadSettings(MessagingSettings, {})).toMatchObject({
      MESSAGES_TRANSPORT: 'log',
      MESSAGES_MAX_ATTEMPTS: 5,
      MESSAGES_BACKOFF_MS: 1000,
      WORKER_CONCURRENCY: 50,
      WORKER_LOCK_DURATION_MS: 30000,
    });
  });

  it('requires the webhook address and secret only for the webhook transport', () => {
    expect(() => loadSettings(MessagingSettings, { MESSAGES_TRANSPORT: 'webhook' })).toThrow(/MESSAGES_WEBHOOK_URL/);
    expect(
      loadSettings(MessagingSettings, {
        MESSAGES_TRANSPORT: 'webhook',
        MESSAGES_WEBHOOK_URL: 'http://127.0.0.1:9000/hook',
        MESSAGES_WEBHOOK_SECRET: 'a-secret-of-16-chars',
      }).MESSAGES_TRANSPORT,
    ).toBe('webhook');
  });
});
