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
export function isAuthorized(
  principal: Principal,
  requirement: ScopeRequirement,
  domains?: readonly string[],
): boolean {
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
  if (!isAuthorized(principal, requirement, domains))
    throw new AppError('forbidden', `${INSUFFICIENT}: ${missingScopesOf(principal, requirement, domains)}`);
}

const NAMED_DOMAINS = 3;

/**
 * The scope a refusal names, as the catalogue spells it (`messages:send:{example.com}`), never the
 * `{domain}` placeholder: the domains not covered, or the `:all` form when no domain is known yet.
 */
function missingScopesOf(principal: Principal, requirement: ScopeRequirement, domains?: readonly string[]): string {
  const prefix = domainPrefixOf(requirement);
  if (!prefix) return requirement;
  const missing = (domains ?? []).filter((domain) => !principal.scopes.includes(`${prefix}:{${domain}}`));
  if (missing.length === 0) return `${prefix}:all`;
  const named = missing
    .slice(0, NAMED_DOMAINS)
    .map((domain) => `${prefix}:{${domain}}`)
    .join(', ');
  return missing.length > NAMED_DOMAINS ? `${named} and ${missing.length - NAMED_DOMAINS} more` : named;
}

/** The domains among `domains` that a domain requirement covers (list filtering for scoped keys). */
export function authorizedDomains(
  principal: Principal,
  requirement: ScopeRequirement,
  domains: readonly string[],
): string[] | 'all' {
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
  if (parsed.kind === 'domain')
    return principal.scopes.includes(`${parsed.prefix}:all`) || principal.scopes.includes(parsed.scope);
  return principal.scopes.includes(parsed.scope);
}

/** What a caller manages beyond the verb's scope: a key (its scopes) or a member or invitation (its role). */
export type ManagedHolder = { kind: 'api_key'; scopes: readonly string[] } | { kind: 'role'; role: MemberRole };

/**
 * The one rule for managing keys and roles: a caller may create, change or remove only what it could
 * have granted, i.e. it holds every scope of the key or role. So a key with `api-keys:write` cannot
 * lock out, weaken or remove a stronger one, and `accounts:members:*` alone never makes an Administrator.
 */
export function authorizeHoldingEveryScopeOf(principal: Principal, holder: ManagedHolder): void {
  const scopes = holder.kind === 'role' ? ROLE_SCOPES[holder.role] : holder.scopes;
  const missing = scopes.filter((scope) => !canGrant(principal, scope));
  if (missing.length === 0) return;
  const subject = holder.kind === 'role' ? `the role ${holder.role} holds` : 'this key holds';
  throw new AppError('forbidden', `insufficient permissions: ${subject} scopes you do not: ${missing.join(', ')}`);
}
