import { asc, isNull, sql } from 'drizzle-orm';
import type { Services } from '@/lib/core/context';
import { recordEvent } from '@/lib/core/events/internal/record-event';
import { notifyPeople } from '@/lib/core/notifications/notify-people';
import { domains } from '@/lib/db/schema';
import { lookUpDomainRecords, storeDnsCheck } from './internal';
import { expectedDnsRecords } from './internal/dns-records';
import { keysOf, loadLiveKeys } from './internal/queries';

/**
 * Scheduled job: re-checks domains, least recently checked first. When a required record that was
 * valid stops being valid (a definite answer, not a DNS failure), a `domain.dns_error` event is
 * recorded for webhooks and the dashboard, and a verified domain's administrators are mailed. Unsafe: it reads every account's domains (a system
 * job, no principal), so only the scheduler calls it.
 */
export async function unsafeRecheckDomains(
  services: Services,
  batchSize = 200,
): Promise<{ checked: number; errors: number }> {
  const { db } = services;
  const rows = await db
    .select()
    .from(domains)
    .where(isNull(domains.deletedAt))
    .orderBy(sql`${domains.lastDnsCheckAt} asc nulls first`, asc(domains.id))
    .limit(batchSize);
  const keys = await loadLiveKeys(
    db,
    rows.map((row) => row.id),
  );
  let errors = 0;
  for (const row of rows) {
    const domainKeys = keysOf(keys, row.id);
    const result = await lookUpDomainRecords(services, row, domainKeys);
    await db.transaction(async (tx) => {
      const updated = await storeDnsCheck(tx, row, result);
      const required = expectedDnsRecords(row, domainKeys, services.config).filter((record) => record.required);
      const broke = required.filter(
        (record) =>
          row.dnsChecks[record.key]?.propagated &&
          updated.dnsChecks[record.key] &&
          !updated.dnsChecks[record.key].propagated &&
          !updated.dnsChecks[record.key].error,
      );
      if (broke.length === 0) return;
      errors++;
      const isValid = (kind: string) =>
        required.filter((record) => record.kind === kind).every((record) => updated.dnsChecks[record.key]?.propagated);
      await recordEvent(tx, {
        accountId: row.accountId,
        type: 'domain.dns_error',
        domainId: row.id,
        payload: {
          domain: row.domain,
          account_id: row.accountId,
          spf_valid: isValid('spf'),
          dkim_valid: isValid('dkim'),
          dmarc_valid: isValid('dmarc'),
          dns_last_checked_at: updated.lastDnsCheckAt?.toISOString(),
        },
      });
      if (row.dnsValid)
        await notifyPeople(services, tx, {
          kind: 'domain_dns_broken',
          accountId: row.accountId,
          resource: { id: row.id, name: row.domain },
          detail: `no longer found: ${broke.map((record) => `${record.kind.toUpperCase()} at ${record.host}`).join(', ')}`,
        });
    });
  }
  return { checked: rows.length, errors };
}
