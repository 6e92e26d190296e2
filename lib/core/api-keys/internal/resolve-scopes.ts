import { and, eq, inArray, isNull } from 'drizzle-orm';
import { canGrant } from '@/lib/auth/authorize';
import type { Principal } from '@/lib/auth/principal';
import { domainScope, parseScope } from '@/lib/auth/scopes';
import { AppError, invalidInput } from '@/lib/shared/errors';
import { normalizeDomainName } from '@/lib/core/domains/internal/normalize-domain-name';
import type { DbOrTx } from '@/lib/db/client';
import { domains } from '@/lib/db/schema';

export type ResolvedScope = { scope: string; domainId: string | null };

/**
 * Turns requested scope strings into the rows to store: each must be in the catalogue; domains inside
 * braces are normalised and must belong to the account; duplicates are refused; a domain scope whose
 * `:all` form is also present is dropped. A caller can only grant what it holds itself, so a key with
 * `api-keys:write` cannot mint a more powerful key.
 */
export async function resolveScopes(
  db: DbOrTx,
  accountId: string,
  granter: Principal,
  requested: readonly string[],
): Promise<ResolvedScope[]> {
  const parsed = requested.map((raw) => {
    const scope = parseScope(raw);
    if (!scope) throw invalidInput(`unknown scope "${raw}"`, 'scopes');
    if (scope.kind !== 'domain') return { ...scope, raw };
    const name = normalizeDomainName(scope.domain);
    if (!name.ok) throw invalidInput(`scope "${raw}": the domain ${name.reason}`, 'scopes');
    return { ...scope, raw, domain: name.domain, scope: domainScope(scope.prefix, name.domain) };
  });

  const seen = new Set<string>();
  for (const scope of parsed) {
    if (seen.has(scope.scope)) throw invalidInput(`duplicate scope "${scope.raw}"`, 'scopes');
    seen.add(scope.scope);
  }

  const domainNames = [...new Set(parsed.flatMap((scope) => (scope.kind === 'domain' ? [scope.domain] : [])))];
  const owned = domainNames.length
    ? await db
        .select({ id: domains.id, domain: domains.domain })
        .from(domains)
        .where(and(eq(domains.accountId, accountId), inArray(domains.domain, domainNames), isNull(domains.deletedAt)))
    : [];
  const domainIds = new Map(owned.map((row) => [row.domain, row.id]));

  const resolved: ResolvedScope[] = [];
  for (const scope of parsed) {
    if (scope.kind === 'domain' && seen.has(`${scope.prefix}:all`)) continue;
    const domainId = scope.kind === 'domain' ? domainIds.get(scope.domain) : null;
    if (domainId === undefined)
      throw invalidInput(`scope "${scope.raw}" names a domain this account does not have`, 'scopes');
    if (!canGrant(granter, scope.scope))
      throw new AppError('forbidden', `cannot grant scope "${scope.raw}": the caller does not hold it`, 'scopes');
    resolved.push({ scope: scope.scope, domainId });
  }
  return resolved;
}
