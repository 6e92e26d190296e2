import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '@/lib/server/config';
import { checkDnsResolver } from '@/lib/server/doctor/check-dns-resolver';
import { TestDnsServer } from '../../../../e2e/support/dns-server';

/** A real DNS server on loopback, and a port where none answers. */
const dns = new TestDnsServer();
beforeAll(() => dns.start());
afterAll(() => dns.stop());

const configWith = (servers: string) =>
  loadConfig({
    DNS_SERVERS: servers,
    DNS_TIMEOUT_MS: '300',
    MAIL_HOSTNAME: 'mx.doctor.test',
    PUBLIC_URL: 'https://127.0.0.1:3000',
  });

describe('checkDnsResolver', () => {
  it("a resolver that answers with MAIL_HOSTNAME's address is ok", async () => {
    dns.set('mx.doctor.test', 'A', ['192.0.2.25']);
    const check = await checkDnsResolver(configWith(`127.0.0.1:${dns.port}`));
    expect(check).toMatchObject({
      status: 'ok',
      message: `DNS_SERVERS (127.0.0.1:${dns.port}) answers: mx.doctor.test is 192.0.2.25`,
    });
  });

  it('a resolver that answers that MAIL_HOSTNAME has no address is a warning to publish one', async () => {
    const check = await checkDnsResolver(
      loadConfig({ DNS_SERVERS: `127.0.0.1:${dns.port}`, DNS_TIMEOUT_MS: '300', MAIL_HOSTNAME: 'nothing.doctor.test' }),
    );
    expect(check.status).toBe('warn');
    expect(check.fix).toMatch(/publish an A \(or AAAA\) record for nothing\.doctor\.test/);
  });

  it('no resolver answering is a warning naming DNS_SERVERS', async () => {
    const check = await checkDnsResolver(configWith('127.0.0.1:9'));
    expect(check.status).toBe('warn');
    expect(check.message).toMatch(/^DNS_SERVERS \(127\.0\.0\.1:9\) did not answer for mx\.doctor\.test/);
  });
});
