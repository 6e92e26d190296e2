import { expect, test } from '@playwright/test';
import { runCli } from '../support/cli';
import type { ApiClient } from '../support/client';
import { DnsControl } from '../support/dns-server';
import { newAccount, sharedServer } from '../support/shared';

/** Verification against real DNS: the shared server resolves through the run's loopback DNS server. */
let api: ApiClient;
let dns: DnsControl;
let counter = 0;

test.beforeAll(async () => {
  ({ api } = await newAccount('DNS'));
  dns = new DnsControl();
});

type Record = {
  label: string;
  type: string;
  host: string;
  content: string;
  propagated: boolean;
  found: string[] | null;
  error: string | null;
  priority?: number;
};

async function newDomain(client = api) {
  const name = `dns-${Date.now().toString(36)}-${counter++}.example.net`;
  const created = await client.post(client.account('/domains'), { domain: name });
  expect(created.status).toBe(201);
  return created.body as { domain: string; dns_records: Record[] };
}

const check = async (name: string, client = api) => {
  const response = await client.post(client.account(`/domains/${name}/check-dns`));
  expect(response.status).toBe(200);
  return response.body as {
    dns_valid: boolean;
    status: string;
    rotation_ready: boolean;
    last_dns_check_at: string | null;
    dns_records: Record[];
  };
};
const record = (domain: { dns_records: Record[] }, label: string) => domain.dns_records.find((r) => r.label === label)!;

test('nothing published: every record is red after a check, with the check time set', async () => {
  const domain = await newDomain();
  const checked = await check(domain.domain);
  expect(checked.last_dns_check_at).not.toBeNull();
  expect(checked.dns_valid).toBe(false);
  expect(checked.status).toBe('pending');
  for (const r of checked.dns_records) expect(r).toMatchObject({ propagated: false, found: null, error: null });
});

test('publishing the records as shown turns them green (DKIM split over several TXT strings)', async () => {
  const domain = await newDomain();
  expect(record(domain, 'DKIM').content.length).toBeGreaterThan(255);
  await dns.publish(domain.dns_records);
  const checked = await check(domain.domain);
  for (const r of checked.dns_records)
    expect({ label: r.label, propagated: r.propagated }).toEqual({ label: r.label, propagated: true });
  expect(checked.dns_valid).toBe(true);
  expect(checked.status).toBe('verified');
  expect(checked.rotation_ready).toBe(true);
  expect(
    (await api.get(api.account('/domains?dns_valid=true'))).body.data.map((d: { domain: string }) => d.domain),
  ).toContain(domain.domain);
});

test('a wrong DKIM key stays red and shows what was found', async () => {
  const domain = await newDomain();
  await dns.publish(domain.dns_records);
  const dkim = record(domain, 'DKIM');
  const wrong = 'v=DKIM1; k=rsa; p=MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAwrong';
  await dns.setTxt(dkim.host, wrong);
  const checked = await check(domain.domain);
  expect(record(checked, 'DKIM')).toMatchObject({ propagated: false, found: [wrong] });
  expect(checked.dns_valid).toBe(false);
});

test('no DMARC record keeps dns_valid false while the rest is green', async () => {
  const domain = await newDomain();
  await dns.publish(domain.dns_records.filter((r) => r.label !== 'DMARC'));
  const checked = await check(domain.domain);
  expect(record(checked, 'SPF').propagated).toBe(true);
  expect(record(checked, 'DKIM').propagated).toBe(true);
  expect(record(checked, 'DMARC').propagated).toBe(false);
  expect(checked.dns_valid).toBe(false);
  // A DMARC record without a policy does not count either.
  await dns.setTxt(`_dmarc.${domain.domain}`, 'v=DMARC1; rua=mailto:d@example.net');
  expect(record(await check(domain.domain), 'DMARC').propagated).toBe(false);
  await dns.setTxt(`_dmarc.${domain.domain}`, 'v=DMARC1; p=none');
  expect((await check(domain.domain)).dns_valid).toBe(true);
});

test("SPF counts when our mechanism is in the customer's own record; a CNAME to elsewhere stays red", async () => {
  const domain = await newDomain();
  await dns.publish(domain.dns_records);
  await dns.setTxt(
    domain.domain,
    'google-site-verification=abc',
    'v=spf1 include:_spf.google.com a:mx.mailstead.test -all',
  );
  await dns.setCname(`rp.${domain.domain}`, 'bounces.elsewhere.example');
  let checked = await check(domain.domain);
  expect(record(checked, 'SPF').propagated).toBe(true);
  expect(record(checked, 'Return path')).toMatchObject({ propagated: false, found: ['bounces.elsewhere.example'] });
  await dns.setTxt(domain.domain, 'v=spf1 include:_spf.google.com -all');
  checked = await check(domain.domain);
  expect(record(checked, 'SPF').propagated).toBe(false);
  expect(checked.dns_valid).toBe(false);
});

test('SERVFAIL and timeouts keep the last known state and report the error on the record', async () => {
  const domain = await newDomain();
  await dns.publish(domain.dns_records);
  expect((await check(domain.domain)).dns_valid).toBe(true);
  await dns.fail(`_dmarc.${domain.domain}`, 'servfail');
  await dns.fail(`rp.${domain.domain}`, 'timeout');
  const checked = await check(domain.domain);
  expect(record(checked, 'DMARC')).toMatchObject({ propagated: true, error: expect.stringMatching(/SERVFAIL/) });
  expect(record(checked, 'Return path')).toMatchObject({ propagated: true, error: expect.stringMatching(/timed out/) });
  expect(checked.dns_valid).toBe(true);
  // A failing lookup never makes a red record green either.
  const red = await newDomain();
  await dns.fail(`_dmarc.${red.domain}`, 'servfail');
  expect(record(await check(red.domain), 'DMARC')).toMatchObject({
    propagated: false,
    error: expect.stringMatching(/SERVFAIL/),
  });
  await dns.fail(`_dmarc.${domain.domain}`, null);
  await dns.fail(`rp.${domain.domain}`, null);
  expect(record(await check(domain.domain), 'DMARC').error).toBeNull();
});

test('a verified subdomain is locked; an unverified one can change', async () => {
  const domain = await newDomain();
  await dns.publish(domain.dns_records.filter((r) => r.label !== 'Click and open tracking'));
  await check(domain.domain);
  const path = api.account(`/domains/${domain.domain}`);
  const locked = await api.put(path, { return_path_subdomain: 'bounces' });
  expect(locked.status).toBe(400);
  expect(locked.body.message).toMatch(/return_path_subdomain.*locked/);
  const same = await api.put(path, { return_path_subdomain: 'rp' });
  expect(same.status).toBe(200);
  const free = await api.put(path, { tracking_subdomain: 'links' });
  expect(free.status).toBe(200);
  expect(record(free.body, 'Click and open tracking').host).toBe(`links.${domain.domain}`);
});

test('the DKIM selector locks once DKIM verifies (partner account)', async () => {
  const partner = await newAccount('DNS partner');
  expect((await runCli(['accounts', 'set-tier', partner.accountId, 'partner'], sharedServer().cliEnv)).code).toBe(0);
  const domain = await newDomain(partner.api);
  const path = partner.api.account(`/domains/${domain.domain}`);
  const renamed = await partner.api.put(path, { dkim_selector: 'brand' });
  expect(renamed.status).toBe(200);
  expect(record(renamed.body, 'DKIM').host).toBe(`brand._domainkey.${domain.domain}`);
  await dns.publish(renamed.body.dns_records);
  expect((await check(domain.domain, partner.api)).dns_valid).toBe(true);
  const locked = await partner.api.put(path, { dkim_selector: 'other' });
  expect(locked.status).toBe(400);
  expect(locked.body.message).toMatch(/dkim_selector.*locked/);
  expect((await partner.api.put(path, { dkim_selector: '' })).status).toBe(400);
  expect((await partner.api.put(path, { dkim_selector: null })).status).toBe(200);
});

test('rotation: when the standby record is published, rotate makes it active and offers a new standby', async () => {
  const domain = await newDomain();
  const standby = record(domain, 'DKIM standby (for rotation)');
  await dns.publish(domain.dns_records.filter((r) => r.label !== 'DKIM standby (for rotation)'));
  const notReady = await check(domain.domain);
  expect(notReady.rotation_ready).toBe(false);
  const refused = await api.post(api.account(`/domains/${domain.domain}/rotate-dkim`));
  expect(refused.status).toBe(409);
  await dns.setTxt(standby.host, standby.content);
  expect((await check(domain.domain)).rotation_ready).toBe(true);
  const rotated = await api.post(api.account(`/domains/${domain.domain}/rotate-dkim`));
  expect(rotated.status).toBe(200);
  expect(record(rotated.body, 'DKIM')).toMatchObject({
    host: standby.host,
    content: standby.content,
    propagated: true,
  });
  expect(rotated.body.dns_valid).toBe(true);
  const next = record(rotated.body, 'DKIM standby (for rotation)');
  expect(next.host).not.toBe(standby.host);
  expect(next.host).not.toBe(record(domain, 'DKIM').host);
  expect(rotated.body.rotation_ready).toBe(false);
});
