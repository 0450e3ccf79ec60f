/** One field-level problem, listed in an Error body's optional `details`. */
export interface ErrorDetail {
  field?: string;
  message: string;
}

/**
 * The base of every error the service means to answer with. Services throw these (never Nest's
 * HttpException) so the same code runs in the worker and the CLI; the HTTP filter maps them.
 */
export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: ErrorDetail[],
    /** Response headers that belong to the error, e.g. `Retry-After`. */
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = new.target.name;
  }
}
