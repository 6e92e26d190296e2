import type { DnsLookup } from '@/lib/core/domains/dns-lookup';

export type DmarcPolicy =
  | { status: 'found'; name: string; record: string; policy: string | null }
  | { status: 'none' }
  | { status: 'error'; error: string };

/**
 * The DMARC record that covers a sending domain: `_dmarc.<domain>`, then the parent names up to
 * the registrable one (RFC 7489 falls back to the organisational domain; without a public suffix
 * list, every parent with two labels or more is asked).
 */
export async function findDmarcPolicy(dns: DnsLookup, domain: string): Promise<DmarcPolicy> {
  const labels = domain.toLowerCase().replace(/\.$/, '').split('.');
  for (let start = 0; labels.length - start >= 2; start++) {
    const name = `_dmarc.${labels.slice(start).join('.')}`;
    const answer = await dns.txt(name);
    if (answer.status === 'error') return { status: 'error', error: answer.error };
    const record = answer.status === 'found' ? answer.values.find((value) => /^v=DMARC1\s*(;|$)/i.test(value)) : null;
    if (record) return { status: 'found', name, record, policy: /(?:^|;)\s*p\s*=\s*(\w+)/i.exec(record)?.[1] ?? null };
  }
  return { status: 'none' };
}
