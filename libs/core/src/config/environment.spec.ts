import { AppEnv, validateEnvironment } from './environment';

describe('validateEnvironment', () => {
  it('supplies the contract’s defaults when nothing is set', () => {
    const env = validateEnvironment({});
    expect(env).toMatchObject({
      APP_ENV: AppEnv.Development,
      PORT: 3000,
      MESSAGES_PORT: 3001,
      DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/pet_adoption',
      REDIS_URL: 'redis://127.0.0.1:6379',
      DATABASE_MIGRATE_ON_START: true,
      RATE_LIMIT_ANONYMOUS_PER_MINUTE: 60,
      RATE_LIMIT_SIGNUP_PER_HOUR: 10,
      RATE_LIMIT_BAN_AFTER: 30,
      RATE_LIMIT_BAN_SECONDS: 600,
      MESSAGES_TRANSPORT: 'log',
      MESSAGES_MAX_ATTEMPTS: 5,
      HEADERS_TIMEOUT_MS: 10000,
      REQUEST_TIMEOUT_MS: 30000,
      IDLE_TIMEOUT_MS: 10000,
      MAX_CONNECTIONS_PER_CLIENT: 100,
    });
  });

  it('refuses a request timeout shorter than the headers timeout', () => {
    expect(() => validateEnvironment({ HEADERS_TIMEOUT_MS: '5000', REQUEST_TIMEOUT_MS: '2000' })).toThrow(
      /^ {2}REQUEST_TIMEOUT_MS=2000: must not be less than HEADERS_TIMEOUT_MS/m,
    );
    expect(validateEnvironment({ HEADERS_TIMEOUT_MS: '5000', REQUEST_TIMEOUT_MS: '5000' }).REQUEST_TIMEOUT_MS).toBe(
      5000,
    );
  });

  it('converts numbers and booleans from text', () => {
    const env = validateEnvironment({ PORT: '8080', DATABASE_MIGRATE_ON_START: 'false' });
    expect(env.PORT).toBe(8080);
    expect(env.DATABASE_MIGRATE_ON_START).toBe(false);
  });

  it('ignores variables it does not know and empty values', () => {
    expect(validateEnvironment({ HOME: '/root', PORT: '' }).PORT).toBe(3000);
  });

  it('names every invalid setting in one error', () => {
    const validate = () => validateEnvironment({ PORT: 'eighty', APP_ENV: 'prod', REDIS_URL: 'http://x' });
    expect(validate).toThrow(/^Invalid configuration:/);
    expect(validate).toThrow(/^ {2}PORT="eighty": .*integer/m);
    expect(validate).toThrow(/^ {2}APP_ENV="prod": /m);
    expect(validate).toThrow(/^ {2}REDIS_URL="http:\/\/x": /m);
  });

  it('requires the webhook address and secret only for the webhook transport', () => {
    expect(() => validateEnvironment({ MESSAGES_TRANSPORT: 'webhook' })).toThrow(/MESSAGES_WEBHOOK_URL/);
    expect(
      validateEnvironment({
        MESSAGES_TRANSPORT: 'webhook',
        MESSAGES_WEBHOOK_URL: 'http://127.0.0.1:9000/hook',
        MESSAGES_WEBHOOK_SECRET: 'a-secret-of-16-chars',
      }).MESSAGES_TRANSPORT,
    ).toBe('webhook');
  });
});
