import { expect, test } from '@playwright/test';
import { createAccountWithKey } from '../support/cli';
import { ApiClient } from '../support/client';
import { DnsControl } from '../support/dns-server';
import { TestMx } from '../support/mx-server';
import { createScratchDatabase, postgresAdminUrl } from '../support/postgres';
import { routeDomainToLoopback, verifiedDomain, waitForStatus } from '../support/sending';
import { freePort, startServer } from '../support/server';

/** Each test here runs its own server: one is killed, one relays, one may not reach private networks. */
const cleanups: (() => Promise<unknown>)[] = [];

test.afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
});

async function setup(env: Record<string, string>, label: string) {
  const adminUrl = postgresAdminUrl();
  if (adminUrl) {
    const scratch = await createScratchDatabase(adminUrl, `mailstead_${label}`);
    cleanups.push(scratch.drop);
    Object.assign(env, {
      DATABASE_URL: scratch.url,
      MAILSTEAD_SECRET: `${label}-secret-${label}-secret-0123456789abcdef`,
    });
  }
  const server = await startServer({ env: { RETRY_SCHEDULE: '1,1,1,1,1', DELIVERY_POLL_MS: '100', ...env } });
  cleanups.push(() => server.stop());
  const account = await createAccountWithKey(server.env, label);
  const api = new ApiClient(server.baseUrl, server.dataDir, account.apiKey, account.accountId);
  const stamp = `${label}-${Date.now().toString(36)}`;
  const sender = `${stamp}.example.com`;
  await verifiedDomain(api, sender);
  const rcptDomain = `to-${stamp}.example`;
  await routeDomainToLoopback(rcptDomain);
  return { server, api, sender, rcptDomain, env: server.env };
}

test('a worker killed while the MX holds the reply to DATA: after restart the message is delivered, nothing is lost', async () => {
  const mx = await new TestMx().start();
  cleanups.push(() => mx.stop());
  const { server, api, sender, rcptDomain } = await setup(
    { ALLOW_PRIVATE_NETWORKS: 'true', SMTP_DELIVERY_PORT: String(mx.port), DELIVERY_LEASE_SECONDS: '2' },
    'crash',
  );
  const to = `held@${rcptDomain}`;
  mx.script(to, 'stall');
  const sent = await api.post(api.account('/messages'), {
    from: { email: `a@${sender}` },
    recipients: [{ email: to }],
    subject: 'Survives',
    text_content: 'one copy at least',
  });
  expect(sent.status).toBe(202);
  // The data went out and the MX is sitting on its answer: kill the server there.
  await expect.poll(() => mx.stalled, { timeout: 20_000 }).toBe(1);
  server.process.kill('SIGKILL');
  await server.exited;

  const restarted = await startServer({
    dataDir: server.dataDir,
    env: { ...(server.env as Record<string, string>), PORT: String(await freePort()) },
  });
  cleanups.push(() => restarted.stop());
  const again = new ApiClient(restarted.baseUrl, restarted.dataDir, api.apiKey, api.accountId);
  const delivered = await waitForStatus(again, sent.body.data[0].id, 'Delivered');
  expect(mx.for(to).length).toBeGreaterThanOrEqual(1);
  expect(delivered.num_attempts).toBe(1);
  expect(mx.for(to)[0].parsed.subject).toBe('Survives');
});

test('relay mode: everything leaves through SMTP_RELAY_URL with its credentials', async () => {
  const relay = await new TestMx({ auth: { user: 'relay-user', pass: 'relay pass' } }).start();
  cleanups.push(() => relay.stop());
  const { api, sender } = await setup(
    {
      SMTP_RELAY_URL: `smtp://relay-user:${encodeURIComponent('relay pass')}@127.0.0.1:${relay.port}`,
      // An IP warm-up that would hold all Gmail mail: relayed mail is not the server's IP's to count.
      IP_WARMUP_STARTED_AT: new Date().toISOString().slice(0, 10),
      IP_WARMUP_PLAN: '[{"gmail":0}]',
    },
    'relay',
  );
  // No MX exists for this domain: in relay mode none is looked up.
  const to = `someone@nowhere-${Date.now()}.example`;
  const sent = await api.post(api.account('/messages'), {
    from: { email: `a@${sender}` },
    recipients: [{ email: to }],
    subject: 'Via relay',
    text_content: 'relayed',
  });
  await waitForStatus(api, sent.body.data[0].id, 'Delivered');
  const [mail] = relay.for(to);
  expect(mail.user).toBe('relay-user');
  expect(mail.parsed.subject).toBe('Via relay');
  expect(mail.raw.toString()).toMatch(/^DKIM-Signature:/m);

  // A warming domain through the relay: the recipient domain's MX (Google's) is looked up for the
  // warm-up alone, so the domain's Gmail limit of 1 holds the second message; the IP's 0 does not.
  const workspace = `ws-${Date.now().toString(36)}.example`;
  await new DnsControl().setMx(workspace, `alt1.${workspace}.gmail-smtp-in.l.google.com`);
  const warming = await api.put(api.account(`/domains/${sender}`), { warmup: { enabled: true, plan: [{ gmail: 1 }] } });
  expect(warming.status, warming.text).toBe(200);
  const two = await api.post(api.account('/messages'), {
    from: { email: `a@${sender}` },
    recipients: [{ email: `one@${workspace}` }, { email: `two@${workspace}` }],
    subject: 'Warming via relay',
    text_content: 'relayed',
  });
  expect(two.status, two.text).toBe(202);
  const warmup = async () => (await api.get(api.account(`/domains/${sender}/warmup`))).body;
  await expect.poll(async () => (await warmup()).held, { timeout: 30_000 }).toBe(1);
  await expect.poll(() => relay.received.filter((got) => got.to[0].endsWith(`@${workspace}`)).length).toBe(1);
  const today = await warmup();
  expect(today.providers.find((row: { provider: string }) => row.provider === 'gmail')).toMatchObject({
    limit: 1,
    sent: 1,
    held: 1,
  });
  expect(today.server_ip.providers.find((row: { provider: string }) => row.provider === 'gmail')).toMatchObject({
    limit: 0,
    sent: 0,
    held: 0,
  });
});

test('relay mode with wrong credentials defers instead of losing the message', async () => {
  const relay = await new TestMx({ auth: { user: 'relay-user', pass: 'right' } }).start();
  cleanups.push(() => relay.stop());
  const { api, sender } = await setup(
    { SMTP_RELAY_URL: `smtp://relay-user:wrong@127.0.0.1:${relay.port}` },
    'badrelay',
  );
  const sent = await api.post(api.account('/messages'), {
    from: { email: `a@${sender}` },
    recipients: [{ email: 'x@elsewhere.example' }],
    subject: 'x',
    text_content: 'x',
  });
  const deferred = await waitForStatus(api, sent.body.data[0].id, 'Deferred');
  expect(deferred.delivery_attempts[0].log).toMatch(/could not connect|auth|535/i);
  expect(relay.received).toHaveLength(0);
});

test('an MX that resolves to a private address is refused unless ALLOW_PRIVATE_NETWORKS', async () => {
  const mx = await new TestMx().start();
  cleanups.push(() => mx.stop());
  const { api, sender, rcptDomain } = await setup(
    { ALLOW_PRIVATE_NETWORKS: 'false', SMTP_DELIVERY_PORT: String(mx.port) },
    'private',
  );
  const sent = await api.post(api.account('/messages'), {
    from: { email: `a@${sender}` },
    recipients: [{ email: `x@${rcptDomain}` }],
    subject: 'x',
    text_content: 'x',
  });
  const deferred = await waitForStatus(api, sent.body.data[0].id, 'Deferred');
  expect(deferred.delivery_attempts[0].log).toMatch(/private addresses/);
  expect(mx.connections).toHaveLength(0);
});
