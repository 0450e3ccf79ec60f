/** What a key may do, per resource: `X:write` includes `X:read`, and `*` is every scope. */
const SCOPES = [
  'pets:read',
  'pets:write',
  'orders:read',
  'orders:write',
  'events:read',
  'webhooks:read',
  'webhooks:write',
  'messages:read',
  'messages:write',
  'organization:read',
  'organization:write',
  'searches:read',
  'searches:write',
  'applications:read',
  'applications:write',
  'keys:read',
  'keys:write',
  'account:read',
] as const;

type Scope = (typeof SCOPES)[number];
export const ALL_SCOPES = '*';
/** A scope a key holds: one of SCOPES, or `*`. */
export type GrantedScope = Scope | typeof ALL_SCOPES;
export const GRANTABLE_SCOPES: readonly GrantedScope[] = [ALL_SCOPES, ...SCOPES];

export const KEY_KINDS = ['secret', 'publishable'] as const;
export type KeyKind = (typeof KEY_KINDS)[number];

/** The one scope a publishable key holds; it reaches only the operations marked for publishable keys. */
export const PUBLISHABLE_SCOPES: readonly GrantedScope[] = ['pets:read'];

/** Whether a key holding `held` may act with `needed` (`*` only from `*`). */
export function holdsScope(held: readonly string[], needed: GrantedScope): boolean {
  if (held.includes(ALL_SCOPES) || held.includes(needed)) return true;
  return needed.endsWith(':read') && held.includes(needed.replace(/:read$/, ':write'));
}
