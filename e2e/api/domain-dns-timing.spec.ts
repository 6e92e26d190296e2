import { expect, test } from '@playwright/test';
import { createAccountWithKey, runCli } from '../support/cli';
import { ApiClient } from '../support/client';
import { DnsControl } from '../support/dns-server';
import { createScratchDatabase, postgresAdminUrl } from '../support/postgres';
import { startServer, type ServerHandle } from '../support/server';

/** Servers of their own, with the DNS cache window and the re-check interval set for the test. */
const servers: ServerHandle[] = [];
// Each test starts a server and makes an account through the CLI first: on a loaded machine that
// alone has taken 50 s of the default minute.
test.describe.configure({ timeout: 150_000 });
const drops: (() => Promise<void>)[] = [];

async function serverWith(env: Record<string, string>) {
  const adminUrl = postgresAdminUrl();
  if (adminUrl) {
    const scratch = await createScratchDatabase(adminUrl, 'mailstead_dns');
    drops.push(scratch.drop);
    Object.assign(env, { DATABASE_URL: scratch.url, MAILSTEAD_SECRET: 'dns-timing-secret-dns-timing-secret-00001' });
  }
  const server = await startServer({ env });
  servers.push(server);
  const account = await createAccountWithKey(server.env);
  return { server, account, api: new ApiClient(server.baseUrl, server.dataDir, account.apiKey, account.accountId) };
}

test.afterAll(async () => {
  await Promise.all(servers.map((server) => server.stop()));
  for (const drop of drops) await drop();
});

test('check-dns within the cache window answers the last result; after it, DNS is asked again', async () => {
  const { api } = await serverWith({ DNS_CHECK_CACHE_SECONDS: '3' });
  const dns = new DnsControl();
  const name = `cache-${Date.now().toString(36)}.example.org`;
  const created = (await api.post(api.account('/domains'), { domain: name })).body;
  const first = (await api.post(api.account(`/domains/${name}/check-dns`))).body;
  expect(first.dns_valid).toBe(false);
  await dns.publish(created.dns_records);
  const cached = (await api.post(api.account(`/domains/${name}/check-dns`))).body;
  expect(cached.last_dns_check_at).toBe(first.last_dns_check_at);
  expect(cached.dns_valid).toBe(false);
  await new Promise((resolve) => setTimeout(resolve, 3100));
  const fresh = (await api.post(api.account(`/domains/${name}/check-dns`))).body;
  expect(fresh.last_dns_check_at).not.toBe(first.last_dns_check_at);
  expect(fresh.dns_valid).toBe(true);
});

test('the periodic re-check records domain.dns_error when a required record that was valid breaks', async () => {
  const { server, account, api } = await serverWith({
    DNS_RECHECK_INTERVAL_SECONDS: '1',
    JOB_POLL_MS: '200',
    DNS_CHECK_CACHE_SECONDS: '0',
  });
  const dns = new DnsControl();
  const name = `recheck-${Date.now().toString(36)}.example.org`;
  const created = (await api.post(api.account('/domains'), { domain: name })).body;
  await dns.publish(created.dns_records);
  // The worker alone verifies it, without anyone pressing "check".
  await expect
    .poll(async () => (await api.get(api.account(`/domains/${name}`))).body.dns_valid, { timeout: 20_000 })
    .toBe(true);

  await dns.remove(`_dmarc.${name}`);
  await expect
    .poll(async () => (await api.get(api.account(`/domains/${name}`))).body.status, { timeout: 20_000 })
    .toBe('failing');
  const listed = await runCli(
    ['events', 'list', account.accountId, '--type', 'domain.dns_error', '--json'],
    server.env,
  );
  expect(listed.code).toBe(0);
  const events = JSON.parse(listed.stdout);
  expect(events).toHaveLength(1);
  expect(events[0].payload).toMatchObject({
    domain: name,
    account_id: account.accountId,
    spf_valid: true,
    dkim_valid: true,
    dmarc_valid: false,
  });
  expect(Date.parse(events[0].payload.dns_last_checked_at)).not.toBeNaN();

  // Staying broken does not repeat the event; a SERVFAIL is not a break.
  await new Promise((resolve) => setTimeout(resolve, 2500));
  await dns.publish(created.dns_records);
  await expect
    .poll(async () => (await api.get(api.account(`/domains/${name}`))).body.dns_valid, { timeout: 20_000 })
    .toBe(true);
  await dns.fail(`_dmarc.${name}`, 'servfail');
  await new Promise((resolve) => setTimeout(resolve, 2500));
  const after = JSON.parse(
    (await runCli(['events', 'list', account.accountId, '--type', 'domain.dns_error', '--json'], server.env)).stdout,
  );
  expect(after).toHaveLength(1);
  expect((await api.get(api.account(`/domains/${name}`))).body.dns_valid).toBe(true);
  await dns.fail(`_dmarc.${name}`, null);
});
