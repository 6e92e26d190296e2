import { isIP } from 'node:net';
import { createDnsLookup } from '@/lib/core/domains/dns-lookup';
import type { Config } from '../config-settings';
import { result, type CheckResult } from './check-result';

/** The resolver delivery and the domain checks use (DNS_SERVERS, or the system's) answers a lookup. */
export async function checkDnsResolver(config: Config): Promise<CheckResult> {
  const via = config.dnsServers.length
    ? `DNS_SERVERS (${config.dnsServers.map(({ host, port }) => `${host}:${port}`).join(', ')})`
    : 'the system resolver';
  const name = [config.mailHostname, config.publicUrl.hostname].find(
    (host) => isIP(host.replace(/^\[|\]$/g, '')) === 0 && host !== 'localhost',
  );
  if (!name)
    return result(
      'dns_resolver',
      'skip',
      'MAIL_HOSTNAME and PUBLIC_URL name no host to look up (addresses or localhost)',
      'set MAIL_HOSTNAME to the name your MX and return-path records point at',
    );
  const answer = await createDnsLookup({ servers: config.dnsServers, timeoutMs: config.dns.timeoutMs }).addresses(name);
  if (answer.status === 'error') {
    return result(
      'dns_resolver',
      'warn',
      `${via} did not answer for ${name}: ${answer.error}`,
      'check DNS_SERVERS (or /etc/resolv.conf): delivery and the domain checks need a resolver that answers',
    );
  }
  if (answer.status === 'none') {
    return result(
      'dns_resolver',
      'warn',
      `${via} answers, but ${name} has no address`,
      `publish an A (or AAAA) record for ${name}: MX and return-path records point at it`,
    );
  }
  return result('dns_resolver', 'ok', `${via} answers: ${name} is ${answer.values.join(', ')}`);
}
