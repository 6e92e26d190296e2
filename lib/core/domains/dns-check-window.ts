import type { PrincipalKind } from '@/lib/auth/principal';

/** A person pressing "Check DNS now" gets a real check this often at most. */
export const PERSON_DNS_CHECK_SECONDS = 5;

/**
 * How long a domain's last DNS check answers a new request. API clients keep the configured window
 * (the contract's cache); a person who asks wants DNS asked again, but not at every click.
 */
export function dnsCheckCacheSeconds(kind: PrincipalKind, configuredSeconds: number): number {
  return kind === 'session' ? Math.min(configuredSeconds, PERSON_DNS_CHECK_SECONDS) : configuredSeconds;
}
