import { applyDecorators } from '@nestjs/common';
import { Transform } from 'class-transformer';
import { IsString, ValidateBy, ValidationOptions } from 'class-validator';

/** Code points, as PostgreSQL's char_length and varchar(n) count them (not UTF-16 units, not graphemes). */
export function characterCount(text: string): number {
  let count = 0;
  for (let i = 0; i < text.length; i += text.codePointAt(i)! > 0xffff ? 2 : 1) count++;
  return count;
}

/**
 * A string of `min` to `max` characters counted as PostgreSQL counts them, so that nothing accepted
 * here is refused by a column's length limit. class-validator's `Length` counts UTF-16 units less
 * variation selectors, which PostgreSQL does count. `{ each: true }` checks each element of an array.
 */
export const CharacterCount = (min: number, max: number, options?: ValidationOptions) =>
  ValidateBy(
    {
      name: 'characterCount',
      constraints: [min, max],
      validator: {
        validate: (value) => {
          if (typeof value !== 'string') return false;
          const count = characterCount(value);
          return count >= min && count <= max;
        },
        defaultMessage: () => `$property must be ${min} to ${max} characters`,
      },
    },
    options,
  );

/** C0 controls but tab, line feed and carriage return, and DEL: no text or URL of this API means one. */
// eslint-disable-next-line no-control-regex -- finding control characters is its purpose
const CONTROL_CHARACTERS = /[\u0001-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

/**
 * What makes `text` unacceptable as text, or undefined when nothing does. PostgreSQL cannot hold NUL (in
 * `text` or `jsonb`), and the UTF-8 sent to it turns an unpaired surrogate (which JSON's \u escapes and
 * percent-decoding can produce) into U+FFFD; a control character is never meant, and would reach a URL or
 * a log line as sent.
 */
export function textFault(text: string): string | undefined {
  if (text.includes('\0')) return 'must not contain NUL characters';
  if (!text.isWellFormed()) return 'must not contain unpaired surrogates';
  if (CONTROL_CHARACTERS.test(text)) return 'must not contain control characters';
  return undefined;
}

/** A label people give (a key's, a saved search's): trimmed, then `min` to `max` characters. */
export const LabelText = (min: number, max: number) =>
  applyDecorators(
    Transform(({ value }) => (typeof value === 'string' ? value.trim() : value)),
    IsString(),
    CharacterCount(min, max),
  );
