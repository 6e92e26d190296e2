import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/** A parsed, canonical CIDR block (host bits masked). */
export type Cidr = { text: string; address: ipaddr.IPv4 | ipaddr.IPv6; prefix: number };

/** The socket address as a plain IP: `::ffff:127.0.0.1` becomes `127.0.0.1`. */
export function normalizeIp(raw: string | undefined | null): string | null {
  if (!raw) return null;
  const trimmed = raw.trim().replace(/^\[|\]$/g, '');
  if (isIP(trimmed) === 0) return null;
  return ipaddr.process(trimmed).toString();
}

/** Parses a CIDR or bare IP into canonical form; returns null when it is not one. */
export function parseCidr(entry: string): Cidr | null {
  const text = entry.trim();
  try {
    let address: ipaddr.IPv4 | ipaddr.IPv6;
    let prefix: number;
    // node:net is strict about address syntax (ipaddr.js alone accepts classful forms like "1.2.3").
    if (text.includes('/')) {
      if (isIP(text.slice(0, text.indexOf('/'))) === 0 || !ipaddr.isValidCIDR(text)) return null;
      [address, prefix] = ipaddr.parseCIDR(text);
    } else {
      if (isIP(text) === 0) return null;
      address = ipaddr.parse(text);
      prefix = address.kind() === 'ipv4' ? 32 : 128;
    }
    // An IPv4-mapped IPv6 block is the IPv4 block it names, so that it matches normalised client IPs.
    if (address.kind() === 'ipv6' && (address as ipaddr.IPv6).isIPv4MappedAddress() && prefix >= 96) {
      address = (address as ipaddr.IPv6).toIPv4Address();
      prefix -= 96;
    }
    const network =
      address.kind() === 'ipv4'
        ? ipaddr.IPv4.networkAddressFromCIDR(`${address.toString()}/${prefix}`)
        : ipaddr.IPv6.networkAddressFromCIDR(`${address.toString()}/${prefix}`);
    const canonical = network.kind() === 'ipv4' ? network.toString() : (network as ipaddr.IPv6).toRFC5952String();
    return { text: `${canonical}/${prefix}`, address: network, prefix };
  } catch {
    return null;
  }
}

function cidrContains(cidr: Cidr, ip: string): boolean {
  const normalized = normalizeIp(ip);
  if (!normalized) return false;
  const address = ipaddr.parse(normalized);
  if (address.kind() !== cidr.address.kind()) return false;
  return address.match([cidr.address, cidr.prefix] as [typeof address, number]);
}

export function anyCidrContains(cidrs: readonly Cidr[], ip: string | null): boolean {
  if (!ip) return false;
  return cidrs.some((cidr) => cidrContains(cidr, ip));
}

/** For stored canonical strings: parse each, skipping anything unparseable. */
export function parseCidrList(entries: readonly string[]): Cidr[] {
  return entries.map(parseCidr).filter((cidr): cidr is Cidr => cidr !== null);
}
