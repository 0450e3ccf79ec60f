import { IsString } from 'class-validator';
import { AppValidationPipe } from './validation.pipe';

class Body {
  @IsString()
  name: string;
}

const validate = (value: unknown) => new AppValidationPipe().transform(value, { type: 'body', metatype: Body });
const failure = (message: RegExp) =>
  expect.objectContaining({ code: 'validation_failed', message: expect.stringMatching(message) });

describe('AppValidationPipe', () => {
  it('converts a valid body', async () => {
    await expect(validate({ name: 'Rex' })).resolves.toBeInstanceOf(Body);
  });

  it('names the offending field', async () => {
    await expect(validate({ name: 5 })).rejects.toEqual(failure(/^name must be a string/));
    await expect(validate({ name: 'Rex', extra: 1 })).rejects.toEqual(failure(/extra should not exist/));
  });

  it('validates a missing body as empty, so the message names the missing field', async () => {
    await expect(validate(undefined)).rejects.toEqual(failure(/^name/));
  });

  it.each([[[]], ['text'], [null], [7]])('refuses %p as a body', async (body) => {
    await expect(validate(body)).rejects.toEqual(failure(/JSON object/));
  });

  it.each(['__proto__', 'constructor', 'prototype'])('refuses a %s key at any depth', async (key) => {
    await expect(validate(JSON.parse(`{"name":"Rex","${key}":{"polluted":true}}`))).rejects.toEqual(
      failure(new RegExp(key)),
    );
    await expect(validate(JSON.parse(`{"name":[{"${key}":1}]}`))).rejects.toEqual(failure(new RegExp(key)));
  });

  it('refuses deep nesting instead of overflowing the stack', async () => {
    const deep = JSON.parse(`{"name":${'['.repeat(50000)}${']'.repeat(50000)}}`);
    await expect(validate(deep)).rejects.toEqual(failure(/deeper than 32/));
    await expect(validate({ name: [[['fine']]] })).rejects.toEqual(failure(/^name must be a string/));
  });

  describe('the text gate', () => {
    const pipe = new AppValidationPipe();

    it.each([
      [{ name: 'Rex\0' }, 'name must not contain NUL characters'],
      [{ name: ['ok', 'a\0b'] }, 'name.1 must not contain NUL characters'],
      [{ name: { inner: '\ud800' } }, 'name.inner must not contain unpaired surrogates'],
      [{ name: 'a\u0001' }, 'name must not contain control characters'],
    ])('refuses %j in a body, naming the field by its path', async (body, message) => {
      await expect(validate(body)).rejects.toEqual(
        expect.objectContaining({ message, details: [{ field: message.split(' ')[0], message }] }),
      );
    });

    it('refuses such text in a whole query, a single query parameter and a path parameter', async () => {
      await expect(pipe.transform({ q: 'a\0b' }, { type: 'query', metatype: Object })).rejects.toEqual(
        failure(/^q must not contain NUL characters$/),
      );
      await expect(pipe.transform('\udfff', { type: 'query', metatype: String, data: 'tag' })).rejects.toEqual(
        failure(/^tag must not contain unpaired surrogates$/),
      );
      await expect(pipe.transform('7\0', { type: 'param', metatype: String, data: 'petId' })).rejects.toEqual(
        failure(/^petId must not contain NUL characters$/),
      );
    });

    it('refuses a repeated query parameter, whole query or single, saying it is given once', async () => {
      await expect(
        pipe.transform({ limit: '5', tag: ['a', 'b'] }, { type: 'query', metatype: Object }),
      ).rejects.toEqual(failure(/^tag must be given once, not repeated$/));
      await expect(pipe.transform(['1', '1'], { type: 'query', metatype: String, data: 'categoryId' })).rejects.toEqual(
        failure(/^categoryId must be given once, not repeated$/),
      );
    });

    it('leaves path parameters as text for the route to parse, so that `1\\n` or `0x1` is no id', async () => {
      for (const id of ['1\n', ' 1', '0x1']) {
        await expect(pipe.transform(id, { type: 'param', metatype: Number, data: 'keyId' })).resolves.toBe(id);
      }
    });

    it('lets tabs and line breaks through, and leaves values the handler reads itself to it', async () => {
      await expect(validate({ name: 'two\nlines\tand a tab' })).resolves.toEqual({ name: 'two\nlines\tand a tab' });
      await expect(pipe.transform('a\0', { type: 'custom' })).resolves.toBe('a\0');
    });
  });
});
