import { invalidInput } from '@/lib/shared/errors';
import { normalizeDomainName } from '@/lib/core/domains/internal/normalize-domain-name';

const WEB_ADDRESS = /^https?:\/\/([^/?#]*)\/?$/i;

/**
 * A sub account's `website`: a domain name, normalised like every domain (lowercase, no trailing dot,
 * A-labels). `https://acme.example.com/`, as people copy it from the browser, is taken as its domain.
 */
export function normalizeWebsite(raw: string): string {
  const host = WEB_ADDRESS.exec(raw.trim())?.[1] ?? raw;
  const name = normalizeDomainName(host);
  if (!name.ok)
    throw invalidInput(`website: must be a domain name such as acme.example.com: it ${name.reason}`, 'website');
  return name.domain;
}
