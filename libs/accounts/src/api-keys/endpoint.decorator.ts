import { Operation, Public, type OperationOptions } from '@app/http';
import { applyDecorators } from '@nestjs/common';
import { RequiredScope } from './required-scope.decorator';
import type { GrantedScope } from './scopes';

/**
 * An operation and who may call it: a key with `scope` (`publishable` for a website's key too; `*` for what only
 * a key with every power may do), or anyone.
 */
export type EndpointOptions = OperationOptions & ({ scope: GrantedScope; publishable?: boolean } | { scope: 'public' });

/** The one decorator of a handler: its route, document and required scope (see `Operation`). */
export function Endpoint(endpoint: EndpointOptions): MethodDecorator {
  const access =
    endpoint.scope === 'public' ? Public() : RequiredScope(endpoint.scope, { publishable: endpoint.publishable });
  return applyDecorators(Operation(endpoint), access);
}
