import { and, eq } from 'drizzle-orm';
import type { Services } from '@/lib/core/context';
import { defineVerb } from '@/lib/core/verb';
import type { DbOrTx } from '@/lib/db/client';
import { domains } from '@/lib/db/schema';
import { expectedDnsRecords } from './dns-records';
import { presentDomain } from './present';
import { getDomainInAccount, loadLiveKeys } from './queries';
import { runDnsCheck } from './run-dns-check';
import { domainPathSchema } from './schemas';

/**
 * Checks the domain's records against real DNS now. Within the cache window (60 s by default) of
 * the last check, the last result is answered instead of asking DNS again.
 */
export const checkDomainDns = defineVerb({
  scope: 'domains:write',
  input: domainPathSchema,
  async run(ctx, input) {
    const row = await getDomainInAccount(ctx.db, ctx.principal.targetAccountId, input.domain);
    const keys = await loadLiveKeys(ctx.db, [row.id]);
    const isFresh = row.lastDnsCheckAt && ctx.now().getTime() - row.lastDnsCheckAt.getTime() < ctx.config.dns.checkCacheSeconds * 1000;
    if (isFresh) return presentDomain(row, keys, ctx.config);
    const updated = await checkAndStore(ctx, ctx.db, row, keys);
    return presentDomain(updated, keys, ctx.config);
  },
});

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

export async function lookUpDomainRecords(services: Pick<Services, 'dns' | 'config' | 'now'>, row: typeof domains.$inferSelect, keys: Awaited<ReturnType<typeof loadLiveKeys>>) {
  const now = services.now();
  const records = expectedDnsRecords(row, keys, services.config);
  return { ...(await runDnsCheck(services.dns, records, row.dnsChecks, now)), checkedAt: now };
}

export async function storeDnsCheck(db: DbOrTx, row: typeof domains.$inferSelect, result: Awaited<ReturnType<typeof lookUpDomainRecords>>) {
  const [updated] = await db
    .update(domains)
    .set({ dnsChecks: result.checks, dnsValid: result.dnsValid, lastDnsCheckAt: result.checkedAt })
    .where(and(eq(domains.accountId, row.accountId), eq(domains.id, row.id)))
    .returning();
  return updated;
}
