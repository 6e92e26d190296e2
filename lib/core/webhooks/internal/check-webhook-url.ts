import { isIP } from 'node:net';
import type { Services } from '@/lib/core/context';
import { invalidInput } from '@/lib/shared/errors';
import { isPrivateAddress } from '@/lib/shared/private-address';

const PRIVATE_TARGET =
  'Mailstead does not call loopback, private, link-local, CGNAT or cloud metadata addresses (a server run with ALLOW_PRIVATE_NETWORKS=true does, for labs and tests)';

/**
 * The server-side request forgery guard at create and update: https only, and a host that is not,
 * and does not resolve to, a non-public address, unless ALLOW_PRIVATE_NETWORKS. A host that does not
 * resolve (yet) is accepted: every connection checks the addresses again (lib/core/shared/guarded-lookup.ts),
 * which is what stops DNS rebinding. Returns the URL as given.
 */
export async function checkWebhookUrl(services: Pick<Services, 'config' | 'dns'>, raw: string): Promise<string> {
  const url = new URL(raw);
  const isAllowed = services.config.allowPrivateNetworks;
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && isAllowed)) {
    throw invalidInput(
      'url: must be an https:// URL (http:// is accepted only with ALLOW_PRIVATE_NETWORKS=true)',
      'url',
    );
  }
  if (isAllowed) return raw;
  // The WHATWG parser already turned decimal, octal and hex IPv4 forms into dotted quads.
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (isIP(host)) {
    if (isPrivateAddress(host)) throw invalidInput(`url: ${host} is not a public address: ${PRIVATE_TARGET}`, 'url');
    return raw;
  }
  if (host === 'localhost' || host.endsWith('.localhost'))
    throw invalidInput(`url: ${host} is this machine: ${PRIVATE_TARGET}`, 'url');
  const answer = await services.dns.addresses(host);
  const privateAddress = answer.status === 'found' ? answer.values.find(isPrivateAddress) : undefined;
  if (privateAddress)
    throw invalidInput(`url: ${host} resolves to ${privateAddress}, not a public address: ${PRIVATE_TARGET}`, 'url');
  return raw;
}
