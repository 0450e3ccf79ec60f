import { METHODS } from 'node:http';
import { AppError } from '@app/core';

/** A known path asked with a method it does not serve (RFC 9110: 405 with `Allow`). */
export class MethodNotAllowedError extends AppError {
  constructor(allowed: readonly string[]) {
    super(405, 'method_not_allowed', `This path answers only ${allowed.join(', ')}.`, undefined, {
      Allow: allowed.join(', '),
    });
  }
}

interface RouteLayer {
  matchers?: Array<(path: string) => unknown>;
  route?: { methods: Record<string, boolean> };
}

/**
 * The methods the Express app routes on a path, from its route table as it stands once every route is
 * registered. A path that only another method serves exists: it is not a 404.
 */
export function routedMethods(express: unknown): (path: string) => string[] {
  const stack = (express as { router: { stack: RouteLayer[] } }).router.stack;
  // A route for every method (middleware mounted with `all`) says nothing about the path.
  const routes = stack.filter(
    (layer) =>
      layer.matchers &&
      layer.route &&
      !layer.route.methods._all &&
      Object.keys(layer.route.methods).length < METHODS.length,
  );
  const matches = (layer: RouteLayer, path: string) => {
    try {
      return layer.matchers!.some((matcher) => matcher(path));
    } catch {
      // A malformed %-escape in the path matches nothing.
      return false;
    }
  };
  return (path) => {
    const methods = new Set<string>();
    for (const layer of routes) {
      if (!matches(layer, path)) continue;
      for (const method of Object.keys(layer.route!.methods)) methods.add(method.toUpperCase());
    }
    if (methods.has('GET')) methods.add('HEAD');
    return [...methods].sort();
  };
}
