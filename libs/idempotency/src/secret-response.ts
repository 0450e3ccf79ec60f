import type { AppError } from '@app/core';

export const IDEMPOTENT_SECRET = 'idempotent:secret';

/** A response that carries a secret shown once: the secret is never stored, so a retry cannot show it. */
export interface SecretResponse<T = Record<string, unknown>, F extends keyof T = keyof T> {
  /** The top-level fields of the response that hold the secret; they are left out of what is stored. */
  fields: F[];
  /** The error a retry is answered with, given the stored response (without the secret). */
  replay: (stored: Omit<T, F>) => AppError;
}
