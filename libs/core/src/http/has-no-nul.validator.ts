import { ValidateBy } from 'class-validator';

/** PostgreSQL text cannot hold NUL: refuse it at validation rather than fail on insert. */
export const HasNoNul = () =>
  ValidateBy({
    name: 'hasNoNul',
    validator: {
      validate: (value) => typeof value !== 'string' || !value.includes('\0'),
      defaultMessage: () => '$property must not contain NUL characters',
    },
  });
