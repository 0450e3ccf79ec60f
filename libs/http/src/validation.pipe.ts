import { ArgumentMetadata, Injectable, Type, ValidationError, ValidationPipe } from '@nestjs/common';
import { ErrorDetail, textFault, ValidationFailedError } from '@app/core';

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

function refuse(field: string, message: string): never {
  throw new ValidationFailedError(`${field} ${message}`, [{ field, message: `${field} ${message}` }]);
}

/**
 * The one gate every body, query and path parameter passes before any field's own rules: walks the value
 * iteratively (a body may be too deep to recurse through), refuses what validation cannot (depth, keys that
 * reach prototypes) and every string that is not acceptable text (textFault), naming it by its path.
 */
function assertAcceptable(value: unknown, root: string | undefined): void {
  const pending: Array<[unknown, string | undefined, number]> = [[value, root, 1]];
  while (pending.length > 0) {
    const [item, path, depth] = pending.pop()!;
    if (typeof item === 'string') {
      const fault = textFault(item);
      if (fault) refuse(path ?? 'the request', fault);
    }
    if (item === null || typeof item !== 'object') continue;
    if (depth > MAX_BODY_DEPTH)
      throw new ValidationFailedError(`The request body nests deeper than ${MAX_BODY_DEPTH} levels.`);
    for (const key of PROTOTYPE_KEYS) {
      if (Object.hasOwn(item, key)) throw new ValidationFailedError(`property ${key} should not exist`);
    }
    for (const [key, child] of Object.entries(item)) pending.push([child, path ? `${path}.${key}` : key, depth + 1]);
  }
}

/**
 * Express reads a query parameter given twice as an array of its values, which each parameter's own rule
 * would then refuse with a message about its length or range. No parameter of this API repeats (a list is
 * one comma-separated value), so a repeat is refused here, for every parameter, saying so.
 */
function assertSingleValues(query: unknown, name: string | undefined): void {
  const parameters = name === undefined ? Object.entries(query ?? {}) : [[name, query] as const];
  const repeated = parameters.find(([, value]) => Array.isArray(value));
  if (repeated) refuse(repeated[0], 'must be given once, not repeated');
}

/**
 * Validates and converts bodies, queries and path parameters (in both apps: it is the global pipe); every
 * failure becomes `400 validation_failed` whose message names the offending field.
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
    if (metadata.type === 'body') {
      // No body at all validates as an empty object, so the message names the missing fields.
      if (value === undefined) return super.transform({}, metadata);
      if (value === null || typeof value !== 'object' || Array.isArray(value)) {
        throw new ValidationFailedError('The request body must be a JSON object.');
      }
    }
    if (metadata.type === 'query') assertSingleValues(value, metadata.data);
    if (metadata.type !== 'custom') assertAcceptable(value, metadata.data);
    return super.transform(value, metadata);
  }

  /**
   * Path parameters stay text for the route's own pipe (IdParamPipe): converted here by `Number()`, `1\n`,
   * ` 1` and `0x1` would all reach it as the id 1.
   */
  protected override transformPrimitive(value: unknown, metadata: ArgumentMetadata): unknown {
    return metadata.type === 'param' ? value : super.transformPrimitive(value, metadata);
  }
}

const pipe = new AppValidationPipe();

/** `value` validated and converted as the body of a route declared with `type` would be. */
export function validatedBody<T extends object>(type: Type<T>, value: object): Promise<T> {
  return pipe.transform(value, { type: 'body', metatype: type }) as Promise<T>;
}
