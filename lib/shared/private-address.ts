import ipaddr from 'ipaddr.js';

// Addresses a public service must never connect to on a customer's say-so (mail to an MX, webhook
// calls) unless the operator allows it: loopback, private, link-local (cloud metadata at
// 169.254.169.254), CGNAT, unique-local and every other non-global range.
const PRIVATE_V4 = new Set([
  'loopback',
  'private',
  'linkLocal',
  'unspecified',
  'carrierGradeNat',
  'reserved',
  'broadcast',
  'multicast',
]);
const PRIVATE_V6 = new Set([
  'loopback',
  'linkLocal',
  'uniqueLocal',
  'unspecified',
  'reserved',
  'multicast',
  'deprecatedSiteLocal',
  'discard',
  'rfc6145',
  'teredo',
]);

/**
 * Whether an address is not a public one. IPv4-mapped (`::ffff:127.0.0.1`), IPv4-compatible,
 * NAT64 (`64:ff9b::/96`; the local-use `64:ff9b:1::/48` is private) and 6to4 (`2002::/16`) addresses are judged by the IPv4 address they carry.
 * Anything that does not parse counts as private.
 */
export function isPrivateAddress(address: string): boolean {
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    parsed = ipaddr.process(address.replace(/^\[|\]$/g, ''));
  } catch {
    return true;
  }
  if (parsed.kind() === 'ipv4') return PRIVATE_V4.has(parsed.range());
  const v6 = parsed as ipaddr.IPv6;
  const embedded = embeddedIpv4(v6);
  if (embedded) return PRIVATE_V4.has(embedded.range());
  return PRIVATE_V6.has(v6.range());
}

function embeddedIpv4(address: ipaddr.IPv6): ipaddr.IPv4 | null {
  const parts = address.parts;
  const bytes = (high: number, low: number) => new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);
  const range = address.range();
  // 64:ff9b::/96 carries it in the last 32 bits; the local-use 64:ff9b:1::/48 is for private networks.
  if (range === 'rfc6052') return parts[2] === 0 ? bytes(parts[6], parts[7]) : new ipaddr.IPv4([10, 0, 0, 0]);
  if (range === '6to4') return bytes(parts[1], parts[2]);
  // `::a.b.c.d` (IPv4-compatible, deprecated), but not `::` and `::1`, which have ranges of their own.
  if (parts.slice(0, 6).every((part) => part === 0) && (parts[6] !== 0 || parts[7] > 1))
    return bytes(parts[6], parts[7]);
  return null;
}
