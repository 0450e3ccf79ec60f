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

/**
 * Text that PostgreSQL stores exactly as sent: it cannot hold NUL, and the UTF-8 sent to it turns an
 * unpaired surrogate (which JSON's \u escapes can produce) into U+FFFD.
 */
export const IsStorableText = (options?: ValidationOptions) =>
  ValidateBy(
    {
      name: 'isStorableText',
      validator: {
        validate: (value) => typeof value !== 'string' || (!value.includes('\0') && value.isWellFormed()),
        defaultMessage: (args) =>
          typeof args?.value === 'string' && args.value.includes('\0')
            ? '$property must not contain NUL characters'
            : '$property must not contain unpaired surrogates',
      },
    },
    options,
  );

/** A label people give (a key's, a saved search's): trimmed, then `min` to `max` storable characters. */
export const LabelText = (min: number, max: number) =>
  applyDecorators(
    Transform(({ value }) => (typeof value === 'string' ? value.trim() : value)),
    IsString(),
    CharacterCount(min, max),
    IsStorableText(),
  );
