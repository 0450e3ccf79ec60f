import { validate } from 'class-validator';
import { CharacterCount, characterCount, IsStorableText } from './text.validators';

class Named {
  @CharacterCount(1, 3)
  @IsStorableText()
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

describe('CharacterCount and IsStorableText', () => {
  it.each(['a', '🐶🐶🐶', '❤\ufe0fa'])('accept %j', async (name) => {
    expect(await errorsFor(name)).toEqual([]);
  });

  it.each(['', 'abcd', '❤\ufe0f❤\ufe0f', 42])('refuse %j by its length', async (name) => {
    expect(await errorsFor(name)).toEqual(['name must be 1 to 3 characters']);
  });

  it('refuse a NUL character and an unpaired surrogate, naming which', async () => {
    expect(await errorsFor('a\0')).toEqual(['name must not contain NUL characters']);
    expect(await errorsFor('a\ud800')).toEqual(['name must not contain unpaired surrogates']);
    expect(await errorsFor('\udc00')).toEqual(['name must not contain unpaired surrogates']);
  });
});
