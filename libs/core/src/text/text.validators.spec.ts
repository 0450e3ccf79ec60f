import { validate } from 'class-validator';
import { CharacterCount, characterCount, textFault } from './text.validators';

class Named {
  @CharacterCount(1, 3)
  name: unknown;
}

async function errorsFor(name: unknown): Promise<string[]> {
  const named = Object.assign(new Named(), { name });
  const [error] = await validate(named);
  return Object.values(error?.constraints ?? {});
}

describe('characterCount', () => {
  it.each([
    ['', 0],
    ['abc', 3],
    ['🐶', 1],
    ['❤\ufe0f', 2],
    ['👨‍👩‍👧', 5],
  ])('counts %j as %i code points, as PostgreSQL does', (text, count) => {
    expect(characterCount(text)).toBe(count);
  });
});

describe('CharacterCount', () => {
  it.each(['a', '🐶🐶🐶', '❤\ufe0fa'])('accepts %j', async (name) => {
    expect(await errorsFor(name)).toEqual([]);
  });

  it.each(['', 'abcd', '❤\ufe0f❤\ufe0f', 42])('refuses %j by its length', async (name) => {
    expect(await errorsFor(name)).toEqual(['name must be 1 to 3 characters']);
  });
});

describe('textFault', () => {
  it.each(['', 'Rex', 'tab\tline\nreturn\r', '🐶 ❤\ufe0f', '\u0080\u00a0', '\ud83d\udc36'])('accepts %j', (text) => {
    expect(textFault(text)).toBeUndefined();
  });

  it.each([
    ['a\0', 'must not contain NUL characters'],
    // NUL is named before the surrogate, whichever comes first.
    ['\ud800\0', 'must not contain NUL characters'],
    ['a\ud800', 'must not contain unpaired surrogates'],
    ['\udc00a', 'must not contain unpaired surrogates'],
    ['\ud83d', 'must not contain unpaired surrogates'],
    ['a\u0001', 'must not contain control characters'],
    ['\u001b[31m', 'must not contain control characters'],
    ['\u000b', 'must not contain control characters'],
    ['\u007f', 'must not contain control characters'],
  ])('refuses %j: %s', (text, fault) => {
    expect(textFault(text)).toBe(fault);
  });
});
