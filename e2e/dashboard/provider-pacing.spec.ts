import { expect, test } from '../support/dashboard';
import { OWNER_PASSWORD, createAccountWithKey, uniqueEmail } from '../support/cli';
import { ApiClient } from '../support/client';
import { PHONE, capture, expectNoHorizontalOverflow, ownDashboardServer, signIn } from '../support/dashboard';
import { DnsControl } from '../support/dns-server';
import { verifiedDomain } from '../support/sending';
import { ThrottlingMx } from '../support/throttling-mx';

/** The Deliverability page while Gmail throttles: which provider is slowed, since when, how far. */
const stamp = Date.now().toString(36);
const rcptDomain = `pacing-page-${stamp}.example`;
let mx: ThrottlingMx;

test.beforeAll(async () => {
  mx = await new ThrottlingMx({ replyDelayMs: 20, throttleEvery: 2 }).start();
  mx.isThrottling = true;
  const dns = new DnsControl();
  const gmailMx = `mx-${stamp}.gmail-smtp-in.l.google.com`;
  await dns.setMx(rcptDomain, gmailMx);
  await dns.setA(gmailMx, '127.0.0.1');
});
test.afterAll(async () => mx?.stop());

const server = ownDashboardServer('pacing', () => ({
  ALLOW_PRIVATE_NETWORKS: 'true',
  SMTP_DELIVERY_PORT: String(mx.port),
  DELIVERY_POLL_MS: '100',
  DELIVERY_CONNECTIONS: '10',
  // Slowed down it stays for this test: recovery is 1,000 accepted messages per connection away.
  PACING_RAISE_AFTER_ACCEPTED: '1000',
  RETRY_SCHEDULE: '3600',
  // The operator's IP warm-up (the second test): Apple alone limited, so the pacing test is not held.
  IP_WARMUP_STARTED_AT: new Date().toISOString().slice(0, 10),
  IP_WARMUP_PLAN: '[{"apple":5},{"apple":10}]',
}));

test('Deliverability - a provider that throttles shows "Gmail: slowed down since HH:MM, N connections (normally 10)", at 1440 and 390 px', async ({
  page,
}, testInfo) => {
  test.setTimeout(180_000);
  const email = uniqueEmail('pacing');
  const created = await createAccountWithKey(server().env, 'Pacing page', email);
  const api = new ApiClient(server().baseUrl, server().dataDir, created.apiKey, created.accountId);
  const sender = `pacing-page-${stamp}.example.com`;
  await verifiedDomain(api, sender);
  const sent = await api.post(api.account('/messages'), {
    from: { email: `news@${sender}` },
    recipients: Array.from({ length: 40 }, (_, index) => ({ email: `r${index}@${rcptDomain}` })),
    subject: 'Pacing page',
    text_content: 'Hello',
  });
  expect(sent.status).toBe(202);
  await expect
    .poll(async () => (await api.get(api.account('/deliverability/pacing'))).body.data[0].state, { timeout: 30_000 })
    .toBe('slowed');

  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page, server().baseUrl, email, OWNER_PASSWORD);
  await page.goto(`${server().baseUrl}/${created.accountId}/deliverability`);
  const gmail = page.getByTestId('pacing-gmail');
  // The page's first load on a busy CI machine can take longer than the usual 10 s.
  await expect(gmail).toHaveText(/^Gmail: slowed down since \d{1,2}:\d{2}( [AP]M)?, \d connections? \(normally 10\)$/, {
    timeout: 30_000,
  });
  await expect(page.getByTestId('pacing-microsoft')).toHaveText('Microsoft: full speed, 10 connections');
  await expect(page.getByTestId('provider-pacing')).toContainText('1 slowed down');
  await capture(page, testInfo, 'deliverability-pacing-1440');

  // Still throttled at one connection, the messages are spaced out too: a few at a time, a second
  // apart (halving and spacing happen at most once a second), until the API shows the rate.
  for (let wave = 0; wave < 20; wave++) {
    const pacing = (await api.get(api.account('/deliverability/pacing'))).body.data[0];
    if (pacing.messages_per_minute !== null) break;
    const more = await api.post(api.account('/messages'), {
      from: { email: `news@${sender}` },
      recipients: Array.from({ length: 4 }, (_, index) => ({ email: `w${wave}-${index}@${rcptDomain}` })),
      subject: 'Pacing page, more',
      text_content: 'Hello',
    });
    expect(more.status).toBe(202);
    await new Promise((resolve) => setTimeout(resolve, 1100));
  }
  const spaced = (await api.get(api.account('/deliverability/pacing'))).body.data[0];
  expect(spaced).toMatchObject({ provider: 'gmail', connections: 1 });
  expect(spaced.messages_per_minute).toBeGreaterThan(0);
  expect(spaced.messages_per_minute).toBeLessThanOrEqual(60);
  await page.reload();
  await expect(gmail).toHaveText(
    /^Gmail: slowed down since \d{1,2}:\d{2}( [AP]M)?, 1 connection \(normally 10\), at most \d+(\.\d)? messages? a minute$/,
    { timeout: 30_000 },
  );
  await capture(page, testInfo, 'deliverability-pacing-spaced-1440');

  await page.setViewportSize(PHONE);
  await expect(gmail).toBeVisible();
  await expectNoHorizontalOverflow(page);
  await capture(page, testInfo, 'deliverability-pacing-390', { fullPage: true });
});

test("a domain's Warm-up panel shows the server's IP warm-up, which the operator set: day 1 of 2, Apple 0 of 5", async ({
  page,
}, testInfo) => {
  const email = uniqueEmail('ip-warmup');
  const created = await createAccountWithKey(server().env, 'IP warm-up page', email);
  const api = new ApiClient(server().baseUrl, server().dataDir, created.apiKey, created.accountId);
  const name = `ip-warmup-${stamp}.example.com`;
  expect((await api.post(api.account('/domains'), { domain: name })).status).toBe(201);
  const warmup = (await api.get(api.account(`/domains/${name}/warmup`))).body;
  expect(warmup).toMatchObject({ enabled: false, server_ip: { plan: 'custom', day: 1, plan_days: 2, is_over: false } });

  await page.setViewportSize(PHONE);
  await signIn(page, server().baseUrl, email, OWNER_PASSWORD);
  await page.goto(`${server().baseUrl}/${created.accountId}/domains/${name}`);
  const box = page.getByTestId('server-ip-warmup');
  await expect(box).toContainText("This server's IP address is warming up too: day 1 of 2");
  await expect(box).toContainText("every domain's together, is limited per mailbox provider today: Apple 0 of 5.");
  await expectNoHorizontalOverflow(page);
  await box.scrollIntoViewIfNeeded();
  await capture(page, testInfo, 'domain-server-ip-warmup-390', { fullPage: false });
});
