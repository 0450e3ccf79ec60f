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
    // An AppError is an answer, not a fault: a stack trace would only cost time on every 4xx (a
    // rate-limited client can send thousands a second). Unexpected errors are logged with their
    // own stack before the filter turns them into one.
    const stackTraceLimit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    super(message);
    Error.stackTraceLimit = stackTraceLimit;
    this.name = new.target.name;
  }
}
