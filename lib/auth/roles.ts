import type { MemberRole } from './principal';

export const MEMBER_ROLES = ['Administrator', 'Developer', 'Analyst', 'Billing Manager'] as const satisfies readonly MemberRole[];

/**
 * What each member role may do, as scopes: a person signed in to the dashboard acts with the scopes
 * of their role in the account, through the same checks as an API key. The owner is an
 * Administrator who cannot be removed.
 */
export const ROLE_SCOPES: Record<MemberRole, readonly string[]> = {
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
  'Billing Manager': ['accounts:read', 'accounts:billing', 'accounts:members:read', 'statistics-transactional:read:all', 'sub-accounts:usage'],
};

export function isMemberRole(value: string): value is MemberRole {
  return (MEMBER_ROLES as readonly string[]).includes(value);
}
