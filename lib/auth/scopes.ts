/**
 * The scope catalogue: every permission an API key, session role or credential can hold.
 * Scope strings are exact; a domain form carries the domain in literal braces, e.g.
 * `messages:send:{example.com}`. `*` grants everything.
 */

/** Scopes that exist only as themselves. */
export const STATIC_SCOPES = [
  'domains:read',
  'domains:write',
  'accounts:read',
  'accounts:write',
  'accounts:billing',
  'accounts:members:read',
  'accounts:members:add',
  'accounts:members:update',
  'accounts:members:remove',
  'suppressions:read',
  'suppressions:write',
  'suppressions:delete',
  'suppressions:wipe',
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
  'api-keys:read',
  'api-keys:write',
  'api-keys:delete',
  'sub-accounts:read',
  'sub-accounts:write',
  'sub-accounts:delete',
  'sub-accounts:suspend',
  'sub-accounts:usage',
  'sub-account-api-keys:read',
  'sub-account-api-keys:write',
  'sub-account-api-keys:delete',
] as const;

/** Scopes with an `:all` form and a per-domain `:{domain}` form. */
export const DOMAIN_SCOPE_PREFIXES = [
  'messages:send',
  'messages:cancel',
  'messages:read',
  'domains:delete',
  'webhooks:read',
  'webhooks:write',
  'webhooks:delete',
  'routes:read',
  'routes:write',
  'routes:delete',
  'smtp-credentials:read',
  'smtp-credentials:write',
  'smtp-credentials:delete',
  'statistics-transactional:read',
] as const;

export type StaticScope = (typeof STATIC_SCOPES)[number];
export type DomainScopePrefix = (typeof DOMAIN_SCOPE_PREFIXES)[number];

/**
 * What a verb may require: a static scope, a domain scope resolved against the domains the request
 * touches, `any` (any authenticated caller, e.g. ping) or `system` (the operator: CLI and jobs only).
 */
export type ScopeRequirement = StaticScope | `${DomainScopePrefix}:{domain}` | 'any' | 'system';

export const WILDCARD_SCOPE = '*';

/** A scope as held by a key, role or credential: typed so that a misspelt scope in a list fails tsc. */
export type Scope =
  typeof WILDCARD_SCOPE | StaticScope | `${DomainScopePrefix}:all` | `${DomainScopePrefix}:{${string}}`;

export type ParsedScope =
  | { kind: 'wildcard'; scope: '*' }
  | { kind: 'static'; scope: StaticScope }
  | { kind: 'all'; scope: string; prefix: DomainScopePrefix }
  | { kind: 'domain'; scope: string; prefix: DomainScopePrefix; domain: string };

const staticSet = new Set<string>(STATIC_SCOPES);
const prefixSet = new Set<string>(DOMAIN_SCOPE_PREFIXES);

/** Parses a scope string as written; returns null for anything not in the catalogue. */
export function parseScope(raw: string): ParsedScope | null {
  if (raw === WILDCARD_SCOPE) return { kind: 'wildcard', scope: '*' };
  if (staticSet.has(raw)) return { kind: 'static', scope: raw as StaticScope };
  const match = /^([a-z-]+:[a-z-]+):(all|\{(.+)\})$/.exec(raw);
  if (!match || !prefixSet.has(match[1])) return null;
  const prefix = match[1] as DomainScopePrefix;
  if (match[2] === 'all') return { kind: 'all', scope: raw, prefix };
  return { kind: 'domain', scope: raw, prefix, domain: match[3] };
}

export function domainScope(prefix: DomainScopePrefix, domain: string): string {
  return `${prefix}:{${domain}}`;
}
