import { asc, and, eq, isNull } from 'drizzle-orm';
import type { Services } from '@/lib/core/context';
import { domains } from '@/lib/db/schema';
import { expectedDnsRecords } from './dns-records';
import { lookUpDomainRecords } from '.';
import { keysOf, loadLiveKeys } from './queries';

export type VerifiedDomainRecords = {
  domain: string;
  accountId: string;
  records: {
    label: string;
    type: string;
    host: string;
    required: boolean;
    propagated: boolean;
    found: string[] | null;
    error: string | null;
  }[];
};

const LIMIT = 200;
const AT_ONCE = 10;

/**
 * Every verified domain's records as DNS answers now, for `mailstead doctor`. Read-only: the stored
 * verdicts and the re-check's schedule are left alone. Unsafe: it reads every account's domains.
 */
export async function unsafeLookUpVerifiedDomains(
  services: Pick<Services, 'db' | 'dns' | 'config' | 'now'>,
): Promise<{ domains: VerifiedDomainRecords[]; notChecked: number }> {
  const where = and(isNull(domains.deletedAt), eq(domains.dnsValid, true));
  const rows = await services.db
    .select()
    .from(domains)
    .where(where)
    .orderBy(asc(domains.domain), asc(domains.id))
    .limit(LIMIT + 1);
  const checked = rows.slice(0, LIMIT);
  const keys = await loadLiveKeys(
    services.db,
    checked.map((row) => row.id),
  );
  const results: VerifiedDomainRecords[] = [];
  for (let start = 0; start < checked.length; start += AT_ONCE) {
    const batch = checked.slice(start, start + AT_ONCE);
    results.push(
      ...(await Promise.all(
        batch.map(async (row) => {
          const domainKeys = keysOf(keys, row.id);
          // No previous verdicts: what DNS says now, not what was stored.
          const result = await lookUpDomainRecords(services, { ...row, dnsChecks: {} }, domainKeys);
          const records = expectedDnsRecords(row, domainKeys, services.config).map((record) => {
            const check = result.checks[record.key];
            return {
              label: record.label,
              type: record.type,
              host: record.host,
              required: record.required,
              propagated: check.propagated,
              found: check.found,
              error: check.error,
            };
          });
          return { domain: row.domain, accountId: row.accountId, records };
        }),
      )),
    );
  }
  const notChecked = rows.length > LIMIT ? Number((await services.db.$count(domains, where)) - LIMIT) : 0;
  return { domains: results, notChecked };
}
