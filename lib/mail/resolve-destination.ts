import type { DnsLookup } from '@/lib/core/domains/dns-lookup';
import { isPrivateAddress } from '@/lib/shared/private-address';

export type Destination =
  | { kind: 'hosts'; hosts: { host: string; addresses: string[] }[] }
  | { kind: 'permanent'; reason: string }
  | { kind: 'temporary'; reason: string };

/**
 * Where mail for a domain goes (RFC 5321 section 5): its MX hosts by priority, or the domain's own
 * A/AAAA when it has no MX. NXDOMAIN and a null MX are permanent; DNS failures are temporary.
 * Hosts that resolve only to loopback, private or link-local addresses are refused unless allowed.
 */
export async function resolveDestination(
  dns: DnsLookup,
  domain: string,
  options: { allowPrivateNetworks: boolean },
): Promise<Destination> {
  const mx = await dns.mxRecords(domain);
  if (mx.status === 'error') return { kind: 'temporary', reason: `MX lookup for ${domain} failed: ${mx.error}` };
  let names: string[];
  if (mx.status === 'found') {
    if (mx.values.length === 0) return { kind: 'permanent', reason: `${domain} does not accept mail (null MX)` };
    names = mx.values.map((record) => record.exchange);
  } else {
    names = [domain];
  }
  const hosts: { host: string; addresses: string[] }[] = [];
  let lastError: string | null = null;
  for (const name of names) {
    const answer = await dns.addresses(name);
    if (answer.status === 'error') lastError = answer.error;
    if (answer.status !== 'found') continue;
    const usable = options.allowPrivateNetworks
      ? answer.values
      : answer.values.filter((address) => !isPrivateAddress(address));
    if (usable.length) hosts.push({ host: name, addresses: usable });
    else lastError = `${name} resolves only to private addresses`;
  }
  if (hosts.length) return { kind: 'hosts', hosts };
  if (lastError)
    return {
      kind: mx.status === 'found' ? 'temporary' : 'temporary',
      reason: `no usable address for ${domain}: ${lastError}`,
    };
  return { kind: 'permanent', reason: `${domain} has no MX or address records` };
}
