import { AppError } from '@/lib/shared/errors';
import type { MemberRole, Principal } from './principal';
import { ROLE_SCOPES } from './roles';
import { parseScope, WILDCARD_SCOPE, type ScopeRequirement } from './scopes';

const INSUFFICIENT = 'insufficient permissions for the required scope';

function domainPrefixOf(requirement: ScopeRequirement): string | null {
  return requirement.endsWith(':{domain}') ? requirement.slice(0, -':{domain}'.length) : null;
}

/**
 * The one permission decision. Order as the contract states it: wildcard, exact match, the `:all`
 * form of a domain requirement, then the exact domain scope. Domain scopes are only ever stored for
 * domains the account owns, so holding one is proof of ownership.
 *
 * Without `domains`, a domain requirement passes when the principal holds any scope that could grant
 * it: the early check, made before the request body names the domain. With `domains`, every domain
 * must be covered.
 */
export function isAuthorized(principal: Principal, requirement: ScopeRequirement, domains?: readonly string[]): boolean {
  if (requirement === 'any') return true;
  if (requirement === 'system') return principal.kind === 'system';
  const held = principal.scopes;
  if (held.includes(WILDCARD_SCOPE)) return true;
  const prefix = domainPrefixOf(requirement);
  if (!prefix) return held.includes(requirement);
  if (held.includes(`${prefix}:all`)) return true;
  if (domains === undefined) {
    return held.some((scope) => {
      const parsed = parseScope(scope);
      return parsed?.kind === 'domain' && parsed.prefix === prefix;
    });
  }
  if (domains.length === 0) return false;
  return domains.every((domain) => held.includes(`${prefix}:{${domain}}`));
}

/** Throws `forbidden` unless the principal holds the requirement (for the given domains). */
export function authorize(principal: Principal, requirement: ScopeRequirement, domains?: readonly string[]): void {
  if (!isAuthorized(principal, requirement, domains)) {
    throw new AppError('forbidden', domains?.length === 1 ? `${INSUFFICIENT}: ${requirement.replace('{domain}', `{${domains[0]}}`)}` : `${INSUFFICIENT}: ${requirement}`);
  }
}

/** The domains among `domains` that a domain requirement covers (list filtering for scoped keys). */
export function authorizedDomains(principal: Principal, requirement: ScopeRequirement, domains: readonly string[]): string[] | 'all' {
  if (requirement === 'system') return principal.kind === 'system' ? 'all' : [];
  if (requirement === 'any' || principal.scopes.includes(WILDCARD_SCOPE)) return 'all';
  const prefix = domainPrefixOf(requirement);
  if (!prefix || principal.scopes.includes(`${prefix}:all`)) return isAuthorized(principal, requirement) ? 'all' : [];
  return domains.filter((domain) => principal.scopes.includes(`${prefix}:{${domain}}`));
}

/** Whether a principal may grant a scope to a key it creates or edits: only what it holds itself. */
export function canGrant(principal: Principal, scope: string): boolean {
  if (principal.scopes.includes(WILDCARD_SCOPE)) return true;
  const parsed = parseScope(scope);
  if (!parsed || parsed.kind === 'wildcard') return false;
  if (parsed.kind === 'domain') return principal.scopes.includes(`${parsed.prefix}:all`) || principal.scopes.includes(parsed.scope);
  return principal.scopes.includes(parsed.scope);
}

/**
 * Whether a principal may edit or delete a key: only when it could have granted every scope the key
 * holds, so that a key with `api-keys:write` cannot lock out, weaken or remove a stronger one.
 */
export function authorizeKeyManagement(principal: Principal, scopesOfKey: readonly string[]): void {
  const missing = scopesOfKey.filter((scope) => !canGrant(principal, scope));
  if (missing.length > 0) throw new AppError('forbidden', `insufficient permissions: this key holds scopes you do not: ${missing.join(', ')}`);
}

/**
 * Whether a principal may give a role to someone, or change or remove someone holding it: only when
 * it holds every scope of the role, so that `accounts:members:*` alone never makes an Administrator.
 */
export function authorizeRoleManagement(principal: Principal, role: MemberRole): void {
  const missing = ROLE_SCOPES[role].filter((scope) => !canGrant(principal, scope));
  if (missing.length > 0) throw new AppError('forbidden', `insufficient permissions: the role ${role} holds scopes you do not: ${missing.join(', ')}`);
}
