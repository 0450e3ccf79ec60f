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
});
