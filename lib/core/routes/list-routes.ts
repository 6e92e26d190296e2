import { and, eq, type SQL } from 'drizzle-orm';
import { normalizeDomainName } from '@/lib/core/domains/internal/normalize-domain-name';
import { paginate } from '@/lib/core/shared/pagination';
import { defineVerb } from '@/lib/core/verb';
import { routes } from '@/lib/db/schema';
import { invalidInput } from '@/lib/shared/errors';
import { presentRoute, type RouteRow } from './internal/present';
import { listRoutesQuerySchema } from './schemas';

/**
 * The account's routes, newest first, optionally those of one `domain`. A domain-scoped key must
 * pass `?domain=` naming one of its domains (the contract's rule): without it the check is asked
 * about no domain, which only `routes:read:all` covers.
 */
export const listRoutes = defineVerb({
  scope: 'routes:read:{domain}',
  input: listRoutesQuerySchema,
  domains: (_ctx, query) => (query.domain === undefined ? [] : [normalizedDomain(query.domain)]),
  async run({ db, principal }, query) {
    const conditions: (SQL | undefined)[] = [eq(routes.accountId, principal.targetAccountId)];
    if (query.domain !== undefined) conditions.push(eq(routes.domain, normalizedDomain(query.domain)));
    return paginate(db, {
      table: routes,
      idColumn: routes.id,
      where: and(...conditions),
      query,
      map: (rows: RouteRow[]) => rows.map(presentRoute),
    });
  },
});

function normalizedDomain(raw: string): string {
  const name = normalizeDomainName(raw);
  if (!name.ok) throw invalidInput(`domain: ${name.reason}`, 'domain');
  return name.domain;
}
