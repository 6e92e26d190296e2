import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkDomainDns } from '@/lib/core/domains/check-domain-dns';
import { createDomain } from '@/lib/core/domains/create-domain';
import { unsafeReadDatabaseFacts } from '@/lib/core/system/read-database-facts';
import { domains } from '@/lib/db/schema';
import {
  checkClockSkew,
  checkDmarcReportAuthorization,
  checkDomainRecords,
  checkMasterKey,
  checkMigrations,
} from '@/lib/server/doctor/check-database-facts';
import {
  as,
  keyPrincipal,
  memoryServices,
  newAccount,
  TestDns,
  type TestServices,
} from '../../../support/memory-services';

/** The database's side of doctor, read from a real (in-memory) database and judged. */
let services: TestServices;
let accountId: string;

beforeAll(async () => {
  services = await memoryServices();
  ({ accountId } = await newAccount(services));
}, 60_000);

afterAll(() => services?.close());

describe('unsafeReadDatabaseFacts and the checks on them', () => {
  it('a migrated database: every migration applied, the clock read between the local readings', async () => {
    const facts = await unsafeReadDatabaseFacts(services);
    expect(checkMigrations(facts).status).toBe('ok');
    expect(facts.databaseNowMs).toBeGreaterThan(Date.now() - 60_000);
    expect(checkClockSkew(facts).status).toBe('ok');
  });

  it('a verified domain whose records DNS no longer shows fails, and its stored verdict is left alone', async () => {
    const key = keyPrincipal(accountId, ['domains:write', 'domains:read']);
    const domain = await createDomain(as(services, key), { domain: 'doctor.example' });
    services.dns.publishRecords(domain.dns_records);
    expect((await checkDomainDns(as(services, key), { domain: 'doctor.example' })).dns_valid).toBe(true);

    expect(checkDomainRecords(await unsafeReadDatabaseFacts(services))).toEqual([
      expect.objectContaining({ status: 'ok', message: expect.stringMatching(/^doctor\.example:/) }),
    ]);

    const [before] = await services.db.select().from(domains).where(eq(domains.domain, 'doctor.example'));
    const gone = await unsafeReadDatabaseFacts({ ...services, dns: new TestDns() });
    const [check] = checkDomainRecords(gone);
    expect(check.status).toBe('fail');
    expect(check.message).toMatch(
      /^doctor\.example: DNS no longer shows SPF \(TXT doctor\.example\), DKIM .*DMARC \(TXT _dmarc\.doctor\.example\)$/,
    );
    const [after] = await services.db.select().from(domains).where(eq(domains.domain, 'doctor.example'));
    expect(after.dnsValid).toBe(true);
    expect(after.lastDnsCheckAt).toEqual(before.lastDnsCheckAt);
    expect(after.dnsChecks).toEqual(before.dnsChecks);

    const failing = new TestDns();
    failing.publishRecords(domain.dns_records);
    failing.failName('_dmarc.doctor.example');
    expect(checkDomainRecords(await unsafeReadDatabaseFacts({ ...services, dns: failing }))[0].status).toBe('warn');
  });
});

describe('checkDmarcReportAuthorization', () => {
  it("skips with no domain receiving reports; warns naming the wildcard record until MAIL_HOSTNAME's zone has it; then ok", async () => {
    const host = services.config.mailHostname;
    expect(checkDmarcReportAuthorization(await unsafeReadDatabaseFacts(services), host).status).toBe('skip');
    const key = keyPrincipal(accountId, ['domains:write', 'domains:read']);
    const domain = await createDomain(as(services, key), { domain: 'reports.example' });
    await services.db.update(domains).set({ reportsEnabled: true }).where(eq(domains.domain, 'reports.example'));

    const missing = checkDmarcReportAuthorization(await unsafeReadDatabaseFacts(services), host);
    expect(missing).toMatchObject({
      status: 'warn',
      message: `reports.example._report._dmarc.${host} has no "v=DMARC1" TXT record: reporters will not send reports.example's DMARC reports to ${host}`,
      fix: expect.stringContaining(`*._report._dmarc.${host} TXT "v=DMARC1"`),
    });

    // Something else published there is not an authorisation.
    const dns = new TestDns();
    dns.publishRecords([{ type: 'TXT', host: `reports.example._report._dmarc.${host}`, content: 'v=spf1 -all' }]);
    expect(checkDmarcReportAuthorization(await unsafeReadDatabaseFacts({ ...services, dns }), host).status).toBe(
      'warn',
    );
    dns.publishRecords([{ type: 'TXT', host: `reports.example._report._dmarc.${host}`, content: 'v=DMARC1' }]);
    expect(checkDmarcReportAuthorization(await unsafeReadDatabaseFacts({ ...services, dns }), host)).toMatchObject({
      status: 'ok',
      message: expect.stringContaining('says v=DMARC1'),
    });

    const failing = new TestDns();
    failing.failName(`reports.example._report._dmarc.${host}`);
    expect(
      checkDmarcReportAuthorization(await unsafeReadDatabaseFacts({ ...services, dns: failing }), host).status,
    ).toBe('warn');
    expect(domain.domain).toBe('reports.example');
  });
});

describe('checkClockSkew', () => {
  const at = 1_800_000_000_000;
  it.each([
    ['within the round trip', at + 50, 'ok'],
    ['4 s ahead', at + 100 + 4000, 'ok'],
    ['6 s behind', at - 6000, 'warn'],
    ['2 minutes ahead', at + 100 + 120_000, 'fail'],
  ])('%s is %s', (_name, databaseNowMs, status) => {
    expect(checkClockSkew({ databaseNowMs, localBeforeMs: at, localAfterMs: at + 100 }).status).toBe(status);
  });
});

describe('checkMigrations', () => {
  it('pending migrations are a warning that names the command', () => {
    const check = checkMigrations({ appliedMigrations: [1, 2] }, [1, 2, 3]);
    expect(check).toMatchObject({ status: 'warn', message: '1 of 3 migrations are not applied yet' });
    expect(check.fix).toMatch(/npx mailstead migrate/);
  });
});

describe('checkMasterKey', () => {
  it.each([
    ['the same key', 'abc', 'abc', 'ok'],
    ['another key', 'abc', 'def', 'fail'],
    ['no key here', 'abc', null, 'fail'],
    ['no fingerprint stored yet', null, 'abc', 'skip'],
  ])('%s is %s', (_name, stored, local, status) => {
    expect(checkMasterKey({ masterKeyFingerprint: stored }, local, 'MAILSTEAD_SECRET').status).toBe(status);
  });
});
