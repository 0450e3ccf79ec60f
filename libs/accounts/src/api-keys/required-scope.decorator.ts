import { ApiErrors, PUBLISHABLE_KEY_EXTENSION, REQUIRED_SCOPE_EXTENSION } from '@app/http';
import { applyDecorators, SetMetadata } from '@nestjs/common';
import { ApiExtension } from '@nestjs/swagger';
import { INSUFFICIENT_SCOPE, ORIGIN_NOT_ALLOWED } from '../accounts-openapi';
import type { GrantedScope } from './scopes';

export const REQUIRED_SCOPE = 'pet-adoption:required-scope';

/** What a keyed route asks of the key: one scope, and whether a publishable key may call it at all. */
export interface ScopeRequirement {
  scope: GrantedScope;
  publishable: boolean;
}

/**
 * Declares the scope a route needs, beside the route as `@Public()` is: the bearer guard checks it, and
 * the document shows it (`x-required-scope` and a line of the description). `publishable` marks the
 * public reads a website's publishable key may make; no other route serves one.
 */
export const RequiredScope = (scope: GrantedScope, options: { publishable?: boolean } = {}) => {
  const publishable = options.publishable ?? false;
  return applyDecorators(
    SetMetadata(REQUIRED_SCOPE, { scope, publishable } satisfies ScopeRequirement),
    ApiExtension(REQUIRED_SCOPE_EXTENSION, scope),
    ...(publishable ? [ApiExtension(PUBLISHABLE_KEY_EXTENSION, true), ApiErrors(ORIGIN_NOT_ALLOWED)] : []),
    ApiErrors(INSUFFICIENT_SCOPE),
  );
};
