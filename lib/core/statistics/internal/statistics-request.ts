import { and, eq, isNull } from 'drizzle-orm';
import { authorizedDomains } from '@/lib/auth/authorize';
import type { Principal } from '@/lib/auth/principal';
import type { VerbContext } from '@/lib/core/context';
import { domains } from '@/lib/db/schema';
import { commaList, domainList, type StatisticsQuery } from '../schemas';
import type { RollupFilters } from './sum-rollups';
import { bucketsOf, resolveWindow, rollupRanges, type Bucket, type RollupRanges } from './time-window';

const SCOPE_PREFIX = 'statistics-transactional:read';
const REQUIREMENT = `${SCOPE_PREFIX}:{domain}` as const;

/**
 * The sender domains a request must be authorised for: those it names. Without any, the domains
 * the caller holds a scope for, which pass by definition: `resolveStatisticsRequest` then narrows
 * the report to them (an `:all` scope sees every domain).
 */
export function statisticsDomains({ principal }: { principal: Principal }, query: StatisticsQuery): string[] {
  return (
    domainList(query.sender_domain) ??
    principal.scopes
      .filter((scope) => scope.startsWith(`${SCOPE_PREFIX}:{`))
      .map((scope) => scope.slice(SCOPE_PREFIX.length + 2, -1))
  );
}

export type StatisticsRequest = { buckets: Bucket[]; ranges: RollupRanges; filters: RollupFilters };

/** The window, its buckets, the rollup rows that answer it, and the filters (tenancy first). */
export async function resolveStatisticsRequest(
  { db, principal, now }: VerbContext,
  query: StatisticsQuery,
): Promise<StatisticsRequest> {
  const at = now();
  const accountId = principal.targetAccountId;
  const window = resolveWindow(query, at);
  let senderDomains = domainList(query.sender_domain);
  // Without a sender_domain filter a domain-scoped caller sees its domains of the account; a caller
  // holding the `:all` scope (or `*`) sees everything, without reading the domains at all.
  if (!senderDomains && authorizedDomains(principal, REQUIREMENT, []) !== 'all') {
    const rows = await db
      .select({ domain: domains.domain })
      .from(domains)
      .where(and(eq(domains.accountId, accountId), isNull(domains.deletedAt)));
    const visible = authorizedDomains(
      principal,
      REQUIREMENT,
      rows.map((row) => row.domain),
    );
    senderDomains = visible === 'all' ? null : visible;
  }
  const tags = commaList(query.tags);
  return {
    buckets: bucketsOf(window, query.group_by),
    ranges: rollupRanges(window, query.group_by, at),
    filters: {
      accountId,
      senderDomains,
      recipientDomains: domainList(query.recipient_domains),
      tags: tags.length ? tags : null,
      provider: query.provider ?? null,
    },
  };
}
