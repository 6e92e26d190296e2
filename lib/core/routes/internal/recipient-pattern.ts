import { normalizeDomainName } from '@/lib/core/domains/internal/normalize-domain-name';

export type RecipientPattern = { ok: true; recipient: string; domain: string | null } | { ok: false; reason: string };

// A local part as addresses have them, plus `*`; no spaces, quotes, brackets, commas or angle brackets.
const LOCAL_PATTERN = /^[a-z0-9!#$%&'*+/=?^_`{|}~.-]{1,64}$/;

/**
 * A route's `recipient`, as the contract allows it: `""` or `*` (no filter: every address at the
 * account's domains), a full address whose local part may hold `*` wildcards (`support@d`, `*@d`,
 * `ticket-*@d`), or a local part alone (the dashboard's form, at any of the account's domains). The
 * domain part is a plain domain name, never a wildcard: it decides scopes and which MX mail is ours.
 */
export function parseRecipientPattern(raw: string): RecipientPattern {
  const value = raw.trim().toLowerCase();
  if (value === '' || value === '*') return { ok: true, recipient: value, domain: null };
  const at = value.lastIndexOf('@');
  const local = at === -1 ? value : value.slice(0, at);
  if (!LOCAL_PATTERN.test(local))
    return {
      ok: false,
      reason: 'the local part must be 1-64 characters of an address local part, with * as a wildcard',
    };
  if (at === -1) return { ok: true, recipient: local, domain: null };
  const domainPart = value.slice(at + 1);
  if (domainPart.includes('*'))
    return { ok: false, reason: 'wildcards are allowed in the local part only; name the domain' };
  const domain = normalizeDomainName(domainPart);
  if (!domain.ok) return { ok: false, reason: `the domain ${domain.reason}` };
  return { ok: true, recipient: `${local}@${domain.domain}`, domain: domain.domain };
}

/** Whether an address (lower-cased, `local@domain`) matches a stored pattern; `*` matches any run of characters. */
export function matchesRecipientPattern(pattern: string, address: string): boolean {
  if (pattern === '' || pattern === '*') return true;
  const at = address.lastIndexOf('@');
  const [local, domain] = [address.slice(0, at), address.slice(at + 1)];
  const patternAt = pattern.lastIndexOf('@');
  if (patternAt !== -1 && pattern.slice(patternAt + 1) !== domain) return false;
  const localPattern = patternAt === -1 ? pattern : pattern.slice(0, patternAt);
  const glob = new RegExp(`^${localPattern.split('*').map(escapeRegExp).join('.*')}$`);
  return glob.test(local);
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
