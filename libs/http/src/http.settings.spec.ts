import { loadSettings } from '@app/core';
import { HttpSettings } from './http.settings';

describe('HttpSettings', () => {
  it('supplies the contract’s defaults when nothing is set', () => {
    expect(loadSettings(HttpSettings, {})).toMatchObject({
      PORT: 3000,
      MESSAGES_PORT: 3001,
      TRUST_PROXY: 'false',
      HEADERS_TIMEOUT_MS: 10000,
      REQUEST_TIMEOUT_MS: 30000,
      IDLE_TIMEOUT_MS: 10000,
      MAX_CONNECTIONS_PER_CLIENT: 100,
      CORS_ORIGINS: '',
    });
  });

  it('converts ports from text and ignores an empty one', () => {
    expect(loadSettings(HttpSettings, { PORT: '8080', MESSAGES_PORT: '' })).toMatchObject({
      PORT: 8080,
      MESSAGES_PORT: 3001,
    });
  });

  it('names a port that is not a number', () => {
    expect(() => loadSettings(HttpSettings, { PORT: 'eighty' })).toThrow(/^ {2}PORT="eighty": .*integer/m);
  });

  it('refuses a request timeout shorter than the headers timeout', () => {
    expect(() => loadSettings(HttpSettings, { HEADERS_TIMEOUT_MS: '5000', REQUEST_TIMEOUT_MS: '2000' })).toThrow(
      /^ {2}REQUEST_TIMEOUT_MS=2000: must not be less than HEADERS_TIMEOUT_MS/m,
    );
    expect(
      loadSettings(HttpSettings, { HEADERS_TIMEOUT_MS: '5000', REQUEST_TIMEOUT_MS: '5000' }).REQUEST_TIMEOUT_MS,
    ).toBe(5000);
  });
});
