import { normalizeDomainName } from '@/lib/core/domains/internal/normalize-domain-name';

export type EmailResult = { ok: true; email: string; domain: string } | { ok: false; reason: string };

const LOCAL_PART = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~.-]+$/;

/**
 * Addresses on messages and suppressions: trimmed and lowercased (the contract's rule), the domain
 * as an A-label. Quoted local parts and address literals are not accepted.
 */
export function normalizeEmailAddress(raw: string): EmailResult {
  const value = raw.trim().toLowerCase();
  const at = value.lastIndexOf('@');
  if (at <= 0 || at === value.length - 1) return { ok: false, reason: 'invalid email address' };
  const local = value.slice(0, at);
  if (
    local.length > 64 ||
    !LOCAL_PART.test(local) ||
    local.startsWith('.') ||
    local.endsWith('.') ||
    local.includes('..')
  ) {
    return { ok: false, reason: 'invalid email address' };
  }
  const domain = normalizeDomainName(value.slice(at + 1));
  if (!domain.ok) return { ok: false, reason: `invalid email address: the domain ${domain.reason}` };
  const email = `${local}@${domain.domain}`;
  if (email.length > 254) return { ok: false, reason: 'invalid email address: longer than 254 characters' };
  return { ok: true, email, domain: domain.domain };
}
