import { and, eq, inArray, isNull, or } from 'drizzle-orm';
import { DEFAULT_SUBDOMAINS } from '@/lib/core/domains/internal/dns-records';
import type { RouteRow } from '@/lib/core/routes/internal/present';
import { matchesRecipientPattern } from '@/lib/core/routes/internal/recipient-pattern';
import { normalizeEmailAddress } from '@/lib/core/shared/email-address';
import type { DbOrTx } from '@/lib/db/client';
import { domains, routes } from '@/lib/db/schema';

const REPORT_LOCAL_PART = /^dmarc-([a-z0-9]{16,64})$/;

/** What the MX does with one RCPT TO. */
export type InboundRecipient =
  | { kind: 'return_path'; address: string }
  /** `dmarc-<token>@MAIL_HOSTNAME`: DMARC and TLS reports about one domain whose reports are on. */
  | { kind: 'report'; address: string; accountId: string; domainId: string; domain: string }
  | { kind: 'route'; address: string; routes: RouteRow[] }
  /** A domain we receive for, but no enabled route matches the address: 550 5.1.1. */
  | { kind: 'no_such_user'; address: string }
  /** Not a domain of ours: 550 5.7.1, we relay for nobody. */
  | { kind: 'relay_denied'; address: string }
  | { kind: 'invalid'; reason: string };

/**
 * Which RCPT TO our MX accepts, decided here alone: any address at a return-path host
 * (`<return_path_subdomain or rp>.<domain>` of a live domain, where bounces and complaints come back),
 * a domain's report address at MAIL_HOSTNAME (when given), or an address an enabled route matches at a domain whose DNS is verified. The verified domain is
 * the proof of ownership: a name can be added by several accounts, but only the one that published
 * its own DKIM key routes that domain's mail. Unsafe: every account's domains, by design (the MX).
 */
export async function unsafeCheckInboundRecipient(
  db: DbOrTx,
  rawAddress: string,
  mailHostname?: string,
): Promise<InboundRecipient> {
  const normalized = normalizeEmailAddress(rawAddress);
  if (!normalized.ok) return { kind: 'invalid', reason: normalized.reason };
  const address = normalized.email;
  const host = normalized.domain;
  if (mailHostname && host === mailHostname.toLowerCase().replace(/\.$/, '')) {
    const token = REPORT_LOCAL_PART.exec(address.slice(0, address.lastIndexOf('@')).toLowerCase())?.[1];
    if (!token) return { kind: 'no_such_user', address };
    const [owner] = await db
      .select({ accountId: domains.accountId, domainId: domains.id, domain: domains.domain })
      .from(domains)
      .where(and(eq(domains.reportsToken, token), eq(domains.reportsEnabled, true), isNull(domains.deletedAt)));
    return owner ? { kind: 'report', address, ...owner } : { kind: 'no_such_user', address };
  }

  // `rp.example.com` may be the return path of `example.com` (or, with a custom subdomain, of any parent).
  const parents = host
    .split('.')
    .map((_, index, labels) => ({ subdomain: labels.slice(0, index).join('.'), domain: labels.slice(index).join('.') }))
    .filter((candidate) => candidate.subdomain !== '' && candidate.domain.includes('.'));
  if (parents.length > 0) {
    const rows = await db
      .select({ domain: domains.domain, returnPathSubdomain: domains.returnPathSubdomain })
      .from(domains)
      .where(
        and(
          inArray(
            domains.domain,
            parents.map((parent) => parent.domain),
          ),
          isNull(domains.deletedAt),
        ),
      );
    const isReturnPath = rows.some((row) =>
      parents.some(
        (parent) =>
          parent.domain === row.domain &&
          parent.subdomain === (row.returnPathSubdomain ?? DEFAULT_SUBDOMAINS.returnPath),
      ),
    );
    if (isReturnPath) return { kind: 'return_path', address };
  }

  const owners = await db
    .select({ accountId: domains.accountId })
    .from(domains)
    .where(and(eq(domains.domain, host), isNull(domains.deletedAt), eq(domains.dnsValid, true)));
  if (owners.length === 0) return { kind: 'relay_denied', address };
  const candidates = await db
    .select()
    .from(routes)
    .where(
      and(
        inArray(
          routes.accountId,
          owners.map((owner) => owner.accountId),
        ),
        eq(routes.enabled, true),
        or(eq(routes.domain, host), isNull(routes.domain)),
      ),
    );
  const matching = candidates.filter((route) => matchesRecipientPattern(route.recipient, address));
  return matching.length > 0 ? { kind: 'route', address, routes: matching } : { kind: 'no_such_user', address };
}
