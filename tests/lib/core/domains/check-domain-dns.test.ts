import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkDomainDns } from '@/lib/core/domains/check-domain-dns';
import { createDomain } from '@/lib/core/domains/create-domain';
import { as, keyPrincipal, memoryServices, newAccount, type TestServices } from '../../../support/memory-services';

/** DNS checks against the test's resolver, with the cache window measured on the test's clock. */
let services: TestServices;
let accountId: string;

beforeAll(async () => {
  services = await memoryServices();
  ({ accountId } = await newAccount(services));
}, 60_000);

afterAll(() => services?.close());

describe('checkDomainDns', () => {
  it('answers from the last check within the cache window for an API key, and asks DNS again after it', async () => {
    const key = keyPrincipal(accountId, ['domains:write', 'domains:read']);
    const domain = await createDomain(as(services, key), { domain: 'cache.example' });
    const first = await checkDomainDns(as(services, key), { domain: 'cache.example' });
    expect(first.dns_valid).toBe(false);
    services.dns.publishRecords(domain.dns_records);
    services.clock.advance(30_000);
    const cached = await checkDomainDns(as(services, key), { domain: 'cache.example' });
    expect(cached.dns_valid).toBe(false);
    expect(cached.last_dns_check_at).toBe(first.last_dns_check_at);
    services.clock.advance(31_000);
    const fresh = await checkDomainDns(as(services, key), { domain: 'cache.example' });
    expect(fresh.dns_valid).toBe(true);
    expect(fresh.last_dns_check_at).not.toBe(first.last_dns_check_at);
  });

  it('keeps a verified record verified when DNS cannot answer (SERVFAIL), and says so', async () => {
    const key = keyPrincipal(accountId, ['domains:write']);
    const domain = await createDomain(as(services, key), { domain: 'flaky.example' });
    services.dns.publishRecords(domain.dns_records);
    expect((await checkDomainDns(as(services, key), { domain: 'flaky.example' })).dns_valid).toBe(true);
    services.dns.failName('_dmarc.flaky.example');
    services.clock.advance(61_000);
    const after = await checkDomainDns(as(services, key), { domain: 'flaky.example' });
    expect(after.dns_valid).toBe(true);
    const dmarc = after.dns_records.find((record) => record.host === '_dmarc.flaky.example');
    expect(dmarc?.error).toContain('SERVFAIL');
  });

  it("does not find another account's domain", async () => {
    const other = await newAccount(services, 'Other');
    await createDomain(as(services, keyPrincipal(accountId, ['domains:write'])), { domain: 'mine.example' });
    const error = await checkDomainDns(as(services, keyPrincipal(other.accountId, ['domains:write'])), {
      domain: 'mine.example',
    }).catch((caught) => caught);
    expect(error.kind).toBe('not_found');
  });
});
