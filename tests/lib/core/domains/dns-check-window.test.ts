import { describe, expect, it } from 'vitest';
import { dnsCheckCacheSeconds, PERSON_DNS_CHECK_SECONDS } from '@/lib/core/domains/dns-check-window';

describe('dnsCheckCacheSeconds', () => {
  it.each([
    ['an API key keeps the configured window', 'api_key', 60, 60],
    ['a person in the dashboard waits only a few seconds', 'session', 60, PERSON_DNS_CHECK_SECONDS],
    ['a person never waits longer than configured', 'session', 0, 0],
    ['the operator keeps the configured window', 'system', 60, 60],
  ] as const)('%s', (_name, kind, configured, expected) => {
    expect(dnsCheckCacheSeconds(kind, configured)).toBe(expected);
  });
});
