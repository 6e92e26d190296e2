import { domainToASCII } from 'node:url';
import { isIP } from 'node:net';

export type DomainNameResult = { ok: true; domain: string } | { ok: false; reason: string };

const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

/**
 * The one normalisation of domain names, used for domains, paths and key scopes alike: trimmed,
 * lowercase, no trailing dot, internationalised names as A-labels; then checked as a fully
 * qualified hostname (two or more labels, each 1-63 characters, 253 in all, no IP literals).
 */
export function normalizeDomainName(raw: string): DomainNameResult {
  let name = raw.trim().toLowerCase();
  if (name.endsWith('.')) name = name.slice(0, -1);
  if (name === '') return { ok: false, reason: 'is empty' };
  if (isIP(name) || /^\[.*\]$/.test(name)) return { ok: false, reason: 'is an IP address, not a domain name' };
  if (/[^\x00-\x7f]/.test(name)) {
    const ascii = domainToASCII(name);
    if (!ascii) return { ok: false, reason: 'is not a valid internationalised domain name' };
    name = ascii;
  }
  if (name.length > 253) return { ok: false, reason: 'is longer than 253 characters' };
  const labels = name.split('.');
  if (labels.length < 2) return { ok: false, reason: 'must be a fully qualified domain name (e.g. mail.example.com)' };
  for (const label of labels) {
    if (label.length === 0) return { ok: false, reason: 'has an empty label' };
    if (label.length > 63)
      return { ok: false, reason: `has a label longer than 63 characters ("${label.slice(0, 20)}...")` };
    if (!LABEL.test(label))
      return { ok: false, reason: `has an invalid label "${label}" (letters, digits and inner hyphens only)` };
  }
  if (/^\d+$/.test(labels.at(-1)!)) return { ok: false, reason: 'has a numeric top-level label' };
  return { ok: true, domain: name };
}
