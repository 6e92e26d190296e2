import type { domains } from '@/lib/db/schema';

/** Where mail back to us for a domain goes: its return-path subdomain once that CNAME verifies, else the domain. */
export function returnPathHost(domain: typeof domains.$inferSelect): string {
  const host = `${domain.returnPathSubdomain ?? 'rp'}.${domain.domain}`;
  const isVerified = domain.dnsChecks[`CNAME:${host}`]?.propagated ?? false;
  return isVerified ? host : domain.domain;
}
