import { and, eq, inArray, isNull } from 'drizzle-orm';
import { normalizeDomainName } from '@/lib/core/domains/internal/normalize-domain-name';
import type { DbOrTx } from '@/lib/db/client';
import { domains } from '@/lib/db/schema';
import { invalidInput } from '@/lib/shared/errors';

/** The names as the scope check sees them: normalised where possible, de-duplicated. */
export function normalizeWebhookDomains(raw: readonly string[]): string[] {
  return [
    ...new Set(
      raw.map((name) => {
        const normalized = normalizeDomainName(name);
        return normalized.ok ? normalized.domain : name.trim().toLowerCase();
      }),
    ),
  ];
}

/** A scoped webhook's domains: at least one, each a live domain of the account (by name). */
export async function resolveWebhookDomains(db: DbOrTx, accountId: string, raw: readonly string[]): Promise<string[]> {
  const names = normalizeWebhookDomains(raw);
  if (names.length === 0)
    throw invalidInput(
      'domains: a scoped webhook needs at least one domain (use scope "global" for every domain)',
      'domains',
    );
  const rows = await db
    .select({ domain: domains.domain })
    .from(domains)
    .where(and(eq(domains.accountId, accountId), inArray(domains.domain, names), isNull(domains.deletedAt)));
  const known = new Set(rows.map((row) => row.domain));
  const unknown = names.find((name) => !known.has(name));
  if (unknown !== undefined) throw invalidInput(`domains: ${unknown} is not a domain of this account`, 'domains');
  return names;
}
