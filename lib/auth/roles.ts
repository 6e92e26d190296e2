import type { MemberRole } from './principal';
import { DOMAIN_SCOPE_PREFIXES, STATIC_SCOPES, WILDCARD_SCOPE, type Scope } from './scopes';

export const MEMBER_ROLES = [
  'Administrator',
  'Developer',
  'Analyst',
  'Billing Manager',
] as const satisfies readonly MemberRole[];

/**
 * What each member role may do, as scopes: a person signed in to the dashboard acts with the scopes
 * of their role in the account, through the same checks as an API key. The owner is an
 * Administrator who cannot be removed.
 */
export const ROLE_SCOPES: Record<MemberRole, readonly Scope[]> = {
  Administrator: ['*'],
  Developer: [
    'accounts:read',
    'accounts:members:read',
    'domains:read',
    'domains:write',
    'domains:delete:all',
    'messages:send:all',
    'messages:cancel:all',
    'messages:read:all',
    'webhooks:read:all',
    'webhooks:write:all',
    'webhooks:delete:all',
    'routes:read:all',
    'routes:write:all',
    'routes:delete:all',
    'suppressions:read',
    'suppressions:write',
    'suppressions:delete',
    'smtp-credentials:read:all',
    'smtp-credentials:write:all',
    'smtp-credentials:delete:all',
    'statistics-transactional:read:all',
    'api-keys:read',
    'api-keys:write',
    'api-keys:delete',
    'templates:read',
    'templates:write',
    'templates:delete',
    'campaigns:read',
    'campaigns:write',
    'campaigns:delete',
    'campaigns:send',
    'contacts:read',
    'contacts:write',
    'contacts:delete',
    'lists:read',
    'lists:write',
    'lists:delete',
  ],
  Analyst: [
    'accounts:read',
    'accounts:members:read',
    'domains:read',
    'messages:read:all',
    'webhooks:read:all',
    'routes:read:all',
    'suppressions:read',
    'smtp-credentials:read:all',
    'statistics-transactional:read:all',
    'templates:read',
    'campaigns:read',
    'contacts:read',
    'lists:read',
  ],
  'Billing Manager': [
    'accounts:read',
    'accounts:billing',
    'accounts:members:read',
    'statistics-transactional:read:all',
    'sub-accounts:usage',
  ],
};

export function isMemberRole(value: string): value is MemberRole {
  return (MEMBER_ROLES as readonly string[]).includes(value);
}

/**
 * The scopes of a role that only read: what a partner's people keep in a sub account the partner has
 * suspended, so that they can look into it (and unsuspend it from the parent) but send nothing.
 */
export function readOnlyScopesOf(role: MemberRole): Scope[] {
  const scopes: readonly Scope[] = ROLE_SCOPES[role].includes(WILDCARD_SCOPE)
    ? [...STATIC_SCOPES, ...DOMAIN_SCOPE_PREFIXES.map((prefix) => `${prefix}:all` as const)]
    : ROLE_SCOPES[role];
  return scopes.filter((scope) => scope.split(':').includes('read'));
}
