import type { DnsRecordCheck } from '@/lib/db/schema';
import type { DnsAnswer, DnsLookup } from '../dns-lookup';
import { recordMatches, type ExpectedRecord } from './dns-records';

export type DnsCheckResult = { checks: Record<string, DnsRecordCheck>; dnsValid: boolean };

/**
 * Looks every expected record up and decides it. A definite answer (found, NXDOMAIN, no data)
 * decides; an indefinite one (SERVFAIL, timeout) keeps the previous verdict and reports the error.
 */
export async function runDnsCheck(
  dns: DnsLookup,
  records: ExpectedRecord[],
  previous: Record<string, DnsRecordCheck>,
  now: Date,
): Promise<DnsCheckResult> {
  const answers = await Promise.all(records.map((record) => lookup(dns, record)));
  const checks: Record<string, DnsRecordCheck> = {};
  records.forEach((record, index) => {
    const answer = answers[index];
    const before = previous[record.key];
    if (answer.status === 'error') {
      checks[record.key] = {
        propagated: before?.propagated ?? false,
        found: before?.found ?? null,
        error: answer.error,
        hasVerified: before?.hasVerified ?? false,
        checkedAt: now.toISOString(),
      };
      return;
    }
    const found = answer.status === 'found' ? answer.values : null;
    const propagated = found !== null && recordMatches(record, found);
    checks[record.key] = {
      propagated,
      found,
      error: null,
      hasVerified: (before?.hasVerified ?? false) || propagated,
      checkedAt: now.toISOString(),
    };
  });
  const dnsValid = records.filter((record) => record.required).every((record) => checks[record.key].propagated);
  return { checks, dnsValid };
}

function lookup(dns: DnsLookup, record: ExpectedRecord): Promise<DnsAnswer> {
  if (record.type === 'TXT') return dns.txt(record.host);
  if (record.type === 'CNAME') return dns.cname(record.host);
  return dns.mx(record.host);
}
