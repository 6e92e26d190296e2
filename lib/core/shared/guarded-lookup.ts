import { lookup as systemLookup } from 'node:dns/promises';
import { isIP, type LookupFunction } from 'node:net';
import type { DnsLookup } from '@/lib/core/domains/dns-lookup';
import { isPrivateAddress } from '@/lib/shared/private-address';

/** A connection refused because of where it would go (or could not be resolved). */
export class LookupError extends Error {
  constructor(
    message: string,
    readonly code: string,
  ) {
    super(message);
  }
}

/**
 * The addresses an outbound request (a webhook, a route, a preflight's link check) may connect to,
 * decided when it connects: a name that pointed somewhere public when the webhook was saved and now
 * points at 127.0.0.1 (DNS rebinding) is refused here. Public DNS only (DNS_SERVERS, as the check at create and update) unless ALLOW_PRIVATE_NETWORKS:
 * then the system's resolver first (localhost, /etc/hosts), DNS_SERVERS after it.
 */
export async function resolveGuardedHost(
  dns: DnsLookup,
  hostname: string,
  allowPrivateNetworks: boolean,
): Promise<string[]> {
  const host = hostname.replace(/^\[|\]$/g, '');
  if (isIP(host)) {
    if (!allowPrivateNetworks && isPrivateAddress(host))
      throw new LookupError(`${host} is not a public address`, 'EPRIVATEADDRESS');
    return [host];
  }
  if (allowPrivateNetworks) {
    const found = await systemLookup(host, { all: true }).catch(() => []);
    if (found.length > 0) return found.map((entry) => entry.address);
  }
  const answer = await dns.addresses(host);
  if (answer.status === 'none') throw new LookupError(`DNS: no such host (${host})`, 'ENOTFOUND');
  if (answer.status === 'error')
    throw new LookupError(`DNS: ${host} could not be resolved: ${answer.error}`, 'EAI_AGAIN');
  const usable = allowPrivateNetworks ? answer.values : answer.values.filter((address) => !isPrivateAddress(address));
  if (usable.length === 0)
    throw new LookupError(
      `${host} resolves only to addresses that are not public (${answer.values.join(', ')})`,
      'EPRIVATEADDRESS',
    );
  return usable;
}

/** `resolveGuardedHost` as the `lookup` option of a socket (both the single and the `all` form). */
export function guardedLookup(dns: DnsLookup, allowPrivateNetworks: boolean): LookupFunction {
  return (hostname, options, callback) => {
    resolveGuardedHost(dns, hostname, allowPrivateNetworks).then(
      (found) => {
        const family = options.family === 4 || options.family === 6 ? options.family : 0;
        const addresses = found.filter((address) => family === 0 || isIP(address) === family);
        if (addresses.length === 0)
          return callback(new LookupError(`DNS: ${hostname} has no IPv${family} address`, 'ENOTFOUND'), '', 0);
        if (options.all)
          return callback(
            null,
            addresses.map((address) => ({ address, family: isIP(address) })),
          );
        callback(null, addresses[0], isIP(addresses[0]));
      },
      (error: Error) => callback(error as NodeJS.ErrnoException, '', 0),
    );
  };
}
