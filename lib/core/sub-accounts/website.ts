import { invalidInput } from '@/lib/shared/errors';
import { normalizeDomainName } from '@/lib/core/domains/normalize-domain-name';

/** A sub account's `website`: a domain name, normalised like every domain (lowercase, no trailing dot, A-labels). */
export function normalizeWebsite(raw: string): string {
  const name = normalizeDomainName(raw);
  if (!name.ok) throw invalidInput(`website: must be a domain name such as acme.example.com: it ${name.reason}`, 'website');
  return name.domain;
}
