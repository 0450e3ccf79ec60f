import { parseListKey, listKey } from './email-lists';
import { EmailSettings } from './email.settings';
import { UnsubscribeTokens } from './unsubscribe-tokens';

const settings = (key?: string) => Object.assign(new EmailSettings(), { EMAIL_UNSUBSCRIBE_KEY: key });

describe('UnsubscribeTokens', () => {
  const tokens = new UnsubscribeTokens(settings(Buffer.alloc(32, 1).toString('base64')));
  const target = { addressKey: 'ada@example.com', list: 'saved_search:srch_1' };

  it('verifies what it signed, and nothing altered', () => {
    const token = tokens.sign(target);
    expect(tokens.verify(token)).toEqual(target);
    const [payload, mac] = token.split('.') as [string, string];
    const other = Buffer.from(JSON.stringify(['eve@example.com', target.list])).toString('base64url');
    expect(tokens.verify(`${other}.${mac}`)).toBeUndefined();
    expect(tokens.verify(`${payload}.${mac.slice(1)}`)).toBeUndefined();
    expect(tokens.verify(payload)).toBeUndefined();
    expect(tokens.verify(`${token}.more`)).toBeUndefined();
  });

  it('refuses a token signed under another key', () => {
    const other = new UnsubscribeTokens(settings(Buffer.alloc(32, 2).toString('base64')));
    expect(tokens.verify(other.sign(target))).toBeUndefined();
  });

  it('names each kind of list, and reads back only what it names', () => {
    for (const list of [
      { kind: 'application', id: 'app_1' },
      { kind: 'saved_search', id: 'srch_1' },
      { kind: 'lister', accountId: 42 },
    ] as const)
      expect(parseListKey(listKey(list))).toEqual(list);
    expect(parseListKey('lister:abc')).toBeUndefined();
    expect(parseListKey('orders:1')).toBeUndefined();
  });
});
