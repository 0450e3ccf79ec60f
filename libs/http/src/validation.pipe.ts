import { ArgumentMetadata, Injectable, ValidationError, ValidationPipe } from '@nestjs/common';
import { ErrorDetail, ValidationFailedError } from '@app/core';

function flatten(errors: ValidationError[], parent = ''): ErrorDetail[] {
  return errors.flatMap((error) => {
    const field = parent ? `${parent}.${error.property}` : error.property;
    const own = Object.values(error.constraints ?? {}).map((message) => ({
      field,
      message: message.replace(error.property, field),
    }));
    return [...own, ...flatten(error.children ?? [], field)];
  });
}

/** Bodies nest far less than this; deeper ones would only exhaust the stack of the recursive validators. */
const MAX_BODY_DEPTH = 32;
/** Keys that reach prototypes; class-transformer drops them silently, so they are refused here. */
const PROTOTYPE_KEYS = ['__proto__', 'constructor', 'prototype'];

/** Walks the body iteratively (it may be too deep to recurse through) and refuses what validation cannot. */
function assertSafeBody(body: object): void {
  const pending: Array<[unknown, number]> = [[body, 1]];
  while (pending.length > 0) {
    const [value, depth] = pending.pop()!;
    if (value === null || typeof value !== 'object') continue;
    if (depth > MAX_BODY_DEPTH)
      throw new ValidationFailedError(`The request body nests deeper than ${MAX_BODY_DEPTH} levels.`);
    for (const key of PROTOTYPE_KEYS) {
      if (Object.hasOwn(value, key)) throw new ValidationFailedError(`property ${key} should not exist`);
    }
    for (const child of Object.values(value)) pending.push([child, depth + 1]);
  }
}

/**
 * Validates and converts bodies, queries and path parameters; every failure becomes
 * `400 validation_failed` whose message names the offending field.
 */
@Injectable()
export class AppValidationPipe extends ValidationPipe {
  constructor() {
    super({
      transform: true,
      whitelist: true,
      forbidNonWhitelisted: true,
      forbidUnknownValues: true,
      stopAtFirstError: true,
      validationError: { target: false, value: false },
      exceptionFactory: (errors) => {
        const details = flatten(errors);
        return new ValidationFailedError(details[0]?.message ?? 'The request is invalid.', details);
      },
    });
  }

  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    if (metadata.type === 'body' && metadata.metatype && this.toValidate(metadata)) {
      // No body at all validates as an empty object, so the message names the missing fields.
      if (value === undefined) return super.transform({}, metadata);
      if (value === null || typeof value !== 'object' || Array.isArray(value)) {
        throw new ValidationFailedError('The request body must be a JSON object.');
      }
      assertSafeBody(value);
    }
    return super.transform(value, metadata);
  }
}
