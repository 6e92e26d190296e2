import { and, eq } from 'drizzle-orm';
import type { Services } from '@/lib/core/context';
import type { DbOrTx } from '@/lib/db/client';
import { domains } from '@/lib/db/schema';
import { expectedDnsRecords } from './dns-records';
import type { loadLiveKeys } from './queries';
import { runDnsCheck } from './run-dns-check';

// Helpers shared by the domain verbs (check now) and the periodic re-check; not verbs themselves.

/** One DNS check of a domain: lookups first (no transaction held while DNS answers), then one write. */
export async function checkAndStore(
  services: Pick<Services, 'dns' | 'config' | 'now'>,
  db: DbOrTx,
  row: typeof domains.$inferSelect,
  keys: Awaited<ReturnType<typeof loadLiveKeys>>,
) {
  const result = await lookUpDomainRecords(services, row, keys);
  return storeDnsCheck(db, row, result);
}

export async function lookUpDomainRecords(
  services: Pick<Services, 'dns' | 'config' | 'now'>,
  row: typeof domains.$inferSelect,
  keys: Awaited<ReturnType<typeof loadLiveKeys>>,
) {
  const now = services.now();
  const records = expectedDnsRecords(row, keys, services.config);
  return { ...(await runDnsCheck(services.dns, records, row.dnsChecks, now)), checkedAt: now };
}

export async function storeDnsCheck(
  db: DbOrTx,
  row: typeof domains.$inferSelect,
  result: Awaited<ReturnType<typeof lookUpDomainRecords>>,
) {
  const [updated] = await db
    .update(domains)
    .set({ dnsChecks: result.checks, dnsValid: result.dnsValid, lastDnsCheckAt: result.checkedAt })
    .where(and(eq(domains.accountId, row.accountId), eq(domains.id, row.id)))
    .returning();
  return updated;
}
