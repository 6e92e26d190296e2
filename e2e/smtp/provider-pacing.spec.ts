import { expect, test } from '@playwright/test';
import { fetch } from 'undici';
import { createAccountWithKey } from '../support/cli';
import { ApiClient } from '../support/client';
import { DnsControl } from '../support/dns-server';
import { startServerWithMx, type ServerWithMx } from '../support/mx-suite';
import { verifiedDomain } from '../support/sending';
import { freePort, startServer, type ServerHandle } from '../support/server';
import { ThrottlingMx } from '../support/throttling-mx';

/**
 * Provider pacing against a Gmail-like MX on loopback: the recipient domain's MX is named
 * `*.gmail-smtp-in.l.google.com`, so Mailstead paces it as Gmail; the MX answers `421 4.7.28` to a
 * share of mail for a while, and the connections it sees fall, then recover once it accepts again.
 */
test.describe.configure({ mode: 'serial' });

const CONNECTIONS = 8;
const stamp = Date.now().toString(36);
const sender = `pacing-${stamp}.example.com`;
const rcptDomain = `pacing-rcpt-${stamp}.example`;
const token = `pacing-token-${stamp}-0123456789`;
let suite: ServerWithMx<ThrottlingMx>;
let server: ServerHandle;
let api: ApiClient;
let metricsPort: number;

test.beforeAll(async () => {
  test.setTimeout(180_000);
  metricsPort = await freePort();
  const mx = await new ThrottlingMx({ replyDelayMs: 40, throttleEvery: 3 }).start();
  suite = await startServerWithMx({
    name: 'Pacing',
    mx,
    env: {
      DELIVERY_CONNECTIONS: String(CONNECTIONS),
      PACING_RAISE_AFTER_ACCEPTED: '5',
      RETRY_SCHEDULE: '1',
      DNS_CHECK_CACHE_SECONDS: '0',
      METRICS_PORT: String(metricsPort),
      METRICS_TOKEN: token,
    },
  });
  server = suite.server;
  const account = await createAccountWithKey(server.env, 'Pacing');
  api = new ApiClient(server.baseUrl, server.dataDir, account.apiKey, account.accountId);
  await verifiedDomain(api, sender);
  const dns = new DnsControl();
  const gmailMx = `mx-${stamp}.gmail-smtp-in.l.google.com`;
  await dns.setMx(rcptDomain, gmailMx);
  await dns.setA(gmailMx, '127.0.0.1');
});

test.afterAll(async () => {
  await suite?.stop();
});

async function send(count: number, label: string) {
  for (let offset = 0; offset < count; offset += 100) {
    const recipients = Array.from({ length: Math.min(100, count - offset) }, (_, index) => ({
      email: `${label}-${offset + index}@${rcptDomain}`,
    }));
    const sent = await api.post(api.account('/messages'), {
      from: { email: `news@${sender}` },
      recipients,
      subject: `Pacing ${label}`,
      text_content: 'Hello',
    });
    expect(sent.status).toBe(202);
  }
}

const gmailPacing = async () => {
  const response = await api.get(api.account('/deliverability/pacing'));
  expect(response.status).toBe(200);
  return response.body.data.find((row: { provider: string }) => row.provider === 'gmail');
};

async function gmailMetrics() {
  const response = await fetch(`http://127.0.0.1:${metricsPort}/metrics`, {
    headers: { authorization: `Bearer ${token}` },
  });
  const text = await response.text();
  const value = (name: string) => Number(new RegExp(`^${name}\\{provider="gmail"\\} (\\S+)$`, 'm').exec(text)?.[1]);
  return {
    concurrency: value('mailstead_provider_concurrency'),
    throttled: value('mailstead_provider_throttled'),
  };
}

test('421 4.7.28 from Gmail: connections fall, the API and /metrics show it slowed, then they recover; all mail delivered once', async () => {
  test.setTimeout(180_000);
  const mx = suite.mx;
  const total = 500;
  const started = Date.now();
  expect((await gmailPacing()).state).toBe('normal');
  await send(total, 'wave');
  await expect.poll(() => mx.accepted.size, { timeout: 60_000, intervals: [50] }).toBeGreaterThanOrEqual(60);
  const maxBefore = mx.maxOpen(started);

  mx.isThrottling = true;
  const throttleStart = Date.now();
  const slowed = await expect
    .poll(async () => (await gmailPacing()).state, { timeout: 15_000, intervals: [200] })
    .toBe('slowed')
    .then(gmailPacing);
  expect(slowed.connections).toBeLessThan(CONNECTIONS);
  expect(slowed.normal_connections).toBe(CONNECTIONS);
  expect(slowed.slowed_since).not.toBeNull();
  const metricsSlowed = await gmailMetrics();
  expect(metricsSlowed.throttled).toBe(1);
  expect(metricsSlowed.concurrency).toBeLessThan(CONNECTIONS);
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, throttleStart + 4000 - Date.now())));
  mx.isThrottling = false;
  const throttleEnd = Date.now();
  const maxDuring = mx.maxOpen(throttleStart + 2000, throttleEnd);

  await expect.poll(() => mx.accepted.size, { timeout: 120_000, intervals: [200] }).toBe(total);
  const maxAfter = mx.maxOpen(throttleEnd);
  console.log(
    `connections seen by the MX: before ${maxBefore}, while throttled ${maxDuring}, after ${maxAfter}; ${mx.throttled} replies 421 4.7.28`,
  );
  expect(mx.throttled).toBeGreaterThan(0);
  expect(maxBefore).toBeGreaterThanOrEqual(CONNECTIONS - 1);
  expect(maxDuring).toBeLessThanOrEqual(CONNECTIONS / 2);
  expect(maxAfter).toBeGreaterThan(maxDuring);
  expect([...mx.accepted.values()].every((copies) => copies === 1)).toBe(true);

  await expect.poll(async () => (await gmailPacing()).state, { timeout: 15_000, intervals: [250] }).toBe('normal');
  const recovered = await gmailPacing();
  expect(recovered.connections).toBe(CONNECTIONS);
  expect(recovered.throttled_replies).toBeGreaterThan(0);
  await expect.poll(gmailMetrics, { timeout: 5000 }).toEqual({ concurrency: CONNECTIONS, throttled: 0 });
});

test('SIGKILL while Gmail throttles: after the restart every message arrives, duplicates at most one per open connection', async () => {
  test.setTimeout(240_000);
  const mx = suite.mx;
  const before = mx.accepted.size;
  const total = 300;
  mx.isThrottling = true;
  await send(total, 'crash');
  await expect.poll(() => mx.accepted.size - before, { timeout: 60_000, intervals: [50] }).toBeGreaterThanOrEqual(40);
  await expect.poll(async () => (await gmailPacing()).state, { timeout: 15_000, intervals: [200] }).toBe('slowed');
  await server.stop('SIGKILL');
  mx.isThrottling = false;
  server = await startServer({ env: server.env, dataDir: server.dataDir });
  suite.server = server;
  await expect.poll(() => [...mx.accepted.keys()].length - before, { timeout: 120_000, intervals: [250] }).toBe(total);
  const copies = [...mx.accepted.values()].slice(before);
  const duplicates = copies.reduce((sum, count) => sum + count - 1, 0);
  expect(duplicates).toBeLessThanOrEqual(CONNECTIONS);
  // The killed process's pacing went with it: the restarted one starts at full speed.
  await expect.poll(async () => (await gmailPacing()).state, { timeout: 15_000, intervals: [250] }).toBe('normal');
});
