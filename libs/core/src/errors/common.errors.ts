import { AppError, ErrorDetail } from './app-error';

export class ValidationFailedError extends AppError {
  constructor(message: string, details?: ErrorDetail[]) {
    super(400, 'validation_failed', message, details);
  }
}

export class InvalidJsonError extends AppError {
  constructor(message = 'The request body is not valid JSON.') {
    super(400, 'invalid_json', message);
  }
}

export class UnsupportedContentTypeError extends AppError {
  constructor() {
    super(400, 'unsupported_content_type', 'The request body must be sent as application/json.');
  }
}

export class UnauthorizedError extends AppError {
  constructor(message = 'A valid API key is required: send it as "Authorization: Bearer <API_KEY>".') {
    super(401, 'unauthorized', message, undefined, { 'WWW-Authenticate': 'Bearer' });
  }
}

/** The key is valid, but its account may not do this to this resource. */
export class ForbiddenError extends AppError {
  constructor(message: string) {
    super(403, 'forbidden', message);
  }
}

export class NotFoundError extends AppError {
  constructor(message: string) {
    super(404, 'not_found', message);
  }
}

export class GoneError extends AppError {
  constructor(message: string) {
    super(410, 'gone', message);
  }
}

export class PayloadTooLargeError extends AppError {
  constructor(limit: string) {
    // The rest of the body may never be read, so the connection cannot carry another request.
    super(413, 'payload_too_large', `The request body is larger than ${limit}.`, undefined, { Connection: 'close' });
  }
}

export class ServiceUnavailableError extends AppError {
  constructor(message: string, retryAfterSeconds = 5) {
    super(503, 'service_unavailable', message, undefined, { 'Retry-After': String(retryAfterSeconds) });
  }
}

export class InternalError extends AppError {
  constructor() {
    super(500, 'internal_error', 'An unexpected error occurred. It has been logged.');
  }
}
