import { AppEnv, CoreSettings } from './core.settings';
import { loadSettings } from './settings';

describe('CoreSettings', () => {
  it('supplies the contract’s defaults when nothing is set', () => {
    expect(loadSettings(CoreSettings, {})).toMatchObject({
      APP_ENV: AppEnv.Development,
      LOG_LEVEL: undefined,
      REDIS_URL: 'redis://127.0.0.1:6379',
      REDIS_COMMAND_TIMEOUT_MS: 500,
      SHUTDOWN_GRACE_MS: 10000,
    });
  });

  it('names every invalid setting in one error', () => {
    const load = () => loadSettings(CoreSettings, { APP_ENV: 'prod', REDIS_URL: 'http://x', LOG_LEVEL: 'loud' });
    expect(load).toThrow(/^Invalid configuration:/);
    expect(load).toThrow(/^ {2}APP_ENV="prod": /m);
    expect(load).toThrow(/^ {2}REDIS_URL="http:\/\/x": /m);
    expect(load).toThrow(/^ {2}LOG_LEVEL="loud": /m);
  });
});
