import type { ValueTransformer } from 'typeorm';

/**
 * PostgreSQL returns int8 as a string; ids are served as JSON numbers (the contract keeps them at or
 * below 2^53 - 1, where numbers are exact).
 */
export const bigintAsNumber: ValueTransformer = {
  to: (value: number | null | undefined) => value,
  from: (value: string | null) => (value === null ? null : Number(value)),
};
