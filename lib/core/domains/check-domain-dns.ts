import { defineVerb } from '@/lib/core/verb';
import { dnsCheckCacheSeconds } from './dns-check-window';
import { presentDomain } from './internal/present';
import { getDomainInAccount, loadLiveKeys } from './internal/queries';
import { checkAndStore } from './internal';
import { domainPathSchema } from './schemas';

/**
 * Checks the domain's records against real DNS now. Within the cache window of the last check (60 s
 * by default for API keys, a few seconds for a person in the dashboard) the last result is answered
 * instead; its `last_dns_check_at` tells which.
 */
export const checkDomainDns = defineVerb({
  scope: 'domains:write',
  input: domainPathSchema,
  async run(ctx, input) {
    const row = await getDomainInAccount(ctx.db, ctx.principal.targetAccountId, input.domain);
    const keys = await loadLiveKeys(ctx.db, [row.id]);
    const cacheSeconds = dnsCheckCacheSeconds(ctx.principal.kind, ctx.config.dns.checkCacheSeconds);
    const isFresh = row.lastDnsCheckAt && ctx.now().getTime() - row.lastDnsCheckAt.getTime() < cacheSeconds * 1000;
    if (isFresh) return presentDomain(row, keys, ctx.config);
    const updated = await checkAndStore(ctx, ctx.db, row, keys);
    return presentDomain(updated, keys, ctx.config);
  },
});
