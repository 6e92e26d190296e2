import { invalidInput } from '@/lib/shared/errors';
import { parseCidr } from '@/lib/shared/ip';

const MAX_IP_ALLOW_LIST = 100;

/** CIDRs or bare IPs -> canonical CIDR blocks, host bits masked, de-duplicated, order kept. */
export function canonicalizeIpAllowList(entries: readonly string[]): string[] {
  const canonical: string[] = [];
  entries.forEach((entry, index) => {
    const cidr = parseCidr(entry);
    if (!cidr)
      throw invalidInput(`ip_allow_list.${index}: "${entry}" is not an IP address or CIDR block`, 'ip_allow_list');
    if (cidr.prefix === 0) {
      throw invalidInput(
        `ip_allow_list.${index}: "${entry}" allows every address; leave the list empty for no restriction`,
        'ip_allow_list',
      );
    }
    if (!canonical.includes(cidr.text)) canonical.push(cidr.text);
  });
  if (canonical.length > MAX_IP_ALLOW_LIST) {
    throw invalidInput(
      `ip_allow_list: at most ${MAX_IP_ALLOW_LIST} entries are allowed after de-duplication (got ${canonical.length})`,
      'ip_allow_list',
    );
  }
  return canonical;
}
