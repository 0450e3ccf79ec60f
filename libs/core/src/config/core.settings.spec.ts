import { AppEnv, CoreSettings } from './core.settings';
import { loadSettings } from './settings';

describe('CoreSettings', () => {
  it('supplies the contract’s defaults when nothing is set', () => {
    expect(loadSettings(CoreSettings, {})).toMatchObject({
      APP_ENV: AppEnv.Development,
      LOG_LEVEL: undefined,
      REDIS_URL: undefined,
      REDIS_CLUSTER_NODES: undefined,
      redis: { url: 'redis://127.0.0.1:6379' },
      REDIS_COMMAND_TIMEOUT_MS: 500,
      SHUTDOWN_GRACE_MS: 10000,
      HEAP_GROWTH_PERCENT: 100,
    });
  });

  it.each(['0', '10', '300'])('takes HEAP_GROWTH_PERCENT=%s', (percent) => {
    expect(loadSettings(CoreSettings, { HEAP_GROWTH_PERCENT: percent }).HEAP_GROWTH_PERCENT).toBe(Number(percent));
  });

  it.each(['-1', '5', '301', 'half'])('refuses HEAP_GROWTH_PERCENT=%s', (percent) => {
    expect(() => loadSettings(CoreSettings, { HEAP_GROWTH_PERCENT: percent })).toThrow(
      /^ {2}HEAP_GROWTH_PERCENT="?[^=]*"?: HEAP_GROWTH_PERCENT must /m,
    );
  });

  it('names every invalid setting in one error', () => {
    const load = () => loadSettings(CoreSettings, { APP_ENV: 'prod', REDIS_URL: 'http://x', LOG_LEVEL: 'loud' });
    expect(load).toThrow(/^Invalid configuration:/);
    expect(load).toThrow(/^ {2}APP_ENV="prod": /m);
    expect(load).toThrow(/^ {2}REDIS_URL="http:\/\/x": /m);
    expect(load).toThrow(/^ {2}LOG_LEVEL="loud": /m);
  });

  it('talks to a cluster by its seed nodes when REDIS_CLUSTER_NODES is set', () => {
    const settings = loadSettings(CoreSettings, { REDIS_CLUSTER_NODES: '10.0.0.1:7001,redis-2.internal:7002' });
    expect(settings.redis).toEqual({
      clusterNodes: [
        { host: '10.0.0.1', port: 7001 },
        { host: 'redis-2.internal', port: 7002 },
      ],
    });
  });

  it('refuses REDIS_URL and REDIS_CLUSTER_NODES together rather than choosing one', () => {
    const load = () =>
      loadSettings(CoreSettings, { REDIS_URL: 'redis://10.0.0.9:6379', REDIS_CLUSTER_NODES: '10.0.0.1:7001' });
    expect(load).toThrow(/^ {2}REDIS_URL and REDIS_CLUSTER_NODES are both set: /m);
  });

  it.each(['10.0.0.1', '10.0.0.1:7001;10.0.0.2:7002', 'redis://10.0.0.1:7001', '10.0.0.1:7001,'])(
    'refuses REDIS_CLUSTER_NODES=%s with an example that works',
    (nodes) => {
      expect(() => loadSettings(CoreSettings, { REDIS_CLUSTER_NODES: nodes })).toThrow(
        /REDIS_CLUSTER_NODES must be host:port pairs separated by commas, such as 10\.0\.0\.1:7001,10\.0\.0\.2:7002/,
      );
    },
  );
});
