import { and, eq, isNull } from 'drizzle-orm';
import { invalidInput } from '@/lib/shared/errors';
import { normalizeEmailAddress } from '@/lib/core/shared/email-address';
import type { DbOrTx } from '@/lib/db/client';
import { accounts, domains } from '@/lib/db/schema';

/**
 * The sender's address and domain: the domain must be one of the account's, verified (SPF, DKIM and
 * DMARC in place) and not paused. Every send path asks here.
 */
export async function resolveSender(db: DbOrTx, accountId: string, fromEmail: string, field = 'from.email') {
  const address = normalizeEmailAddress(fromEmail);
  if (!address.ok) throw invalidInput(`${field}: ${address.reason}`, field);
  const [found] = await db
    .select({ domain: domains, account: accounts })
    .from(domains)
    .innerJoin(accounts, eq(accounts.id, domains.accountId))
    .where(and(eq(domains.accountId, accountId), eq(domains.domain, address.domain), isNull(domains.deletedAt)))
    .limit(1);
  if (!found) throw invalidInput(`${field}: the domain ${address.domain} is not a domain of this account`, field);
  const { domain, account } = found;
  if (!domain.dnsValid)
    throw invalidInput(
      `${field}: the domain ${address.domain} is not verified: publish its DNS records and check DNS`,
      field,
    );
  if (domain.isPaused)
    throw invalidInput(
      `${field}: sending from ${address.domain} is paused because too many recent emails bounced`,
      field,
    );
  return { email: address.email, domain, account };
}

/** The sender domain a request names, for the domain-scoped key check (before any lookup). */
export function senderDomainOf(fromEmail: string): string[] {
  const address = normalizeEmailAddress(fromEmail);
  return address.ok ? [address.domain] : [];
}
