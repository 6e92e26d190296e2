import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { OWNER_PASSWORD, createAccountWithKey, uniqueEmail } from '../support/cli';
import { ApiClient } from '../support/client';
import { DESKTOP, PHONE, capture, expect, expectNoHorizontalOverflow, signIn, test } from '../support/dashboard';
import { DnsControl } from '../support/dns-server';
import type { TestMx } from '../support/mx-server';
import { startServerWithMx, type ServerWithMx } from '../support/mx-suite';
import { routeDomainToLoopback, verifiedDomain, waitForStatus } from '../support/sending';
import type { ServerHandle } from '../support/server';

/**
 * A server of its own that really delivers (to a loopback MX that can refuse on cue) and keeps the
 * default 60 s DNS cache for API keys, as production does.
 */
let server: ServerHandle;
let mx: TestMx;
let started: ServerWithMx;
const stamp = Date.now().toString(36);
const rcptDomain = `dash-rcpt-${stamp}.example`;

test.beforeAll(async () => {
  started = await startServerWithMx({ name: 'overview' });
  ({ server, mx } = started);
  await routeDomainToLoopback(rcptDomain);
});

test.afterAll(async () => {
  await started?.stop();
});

async function account(name: string) {
  const email = uniqueEmail(name);
  const created = await createAccountWithKey(server.env, name, email);
  return {
    email,
    accountId: created.accountId,
    api: new ApiClient(server.baseUrl, server.dataDir, created.apiKey, created.accountId),
  };
}

test('overview: setup steps until a domain is verified and a message sent, then live figures and recent activity', async ({
  page,
}, testInfo) => {
  const { email, accountId, api } = await account('overview');
  await signIn(page, server.baseUrl, email, OWNER_PASSWORD);
  await expect(page.getByRole('heading', { name: 'Get ready to send' })).toBeVisible();
  await expect(page.locator('[data-setup-step="todo"]')).toHaveCount(2); // the CLI made a key already
  await capture(page, testInfo, 'overview-setup-desktop');
  await page.setViewportSize(PHONE);
  await expectNoHorizontalOverflow(page);
  await capture(page, testInfo, 'overview-setup-390');

  const domain = `overview-${stamp}.example.com`;
  await verifiedDomain(api, domain);
  await page.reload();
  await expect(page.locator('[data-setup-step="todo"]')).toHaveCount(1);

  const delivered = `ok-${stamp}@${rcptDomain}`;
  const gone = `gone-${stamp}@${rcptDomain}`;
  mx.script(gone, { code: 550, message: '5.1.1 no such user here' });
  const sent = await api.post(api.account('/messages'), {
    from: { email: `hello@${domain}` },
    recipients: [{ email: delivered }, { email: gone }],
    subject: 'Figures',
    text_content: 'Counting.',
  });
  expect(sent.status).toBe(202);
  await waitForStatus(api, sent.body.data[0].id, 'Delivered');
  await waitForStatus(api, sent.body.data[1].id, 'Bounced');
  expect(mx.for(delivered)).toHaveLength(1);

  // The page refreshes its figures by itself; a reload just makes the test quicker.
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Get ready to send' })).toHaveCount(0);
  const figure = (name: string, period: 'today' | 'week') =>
    page.locator(`[data-figure="${name}"] [data-period="${period}"]`);
  await expect(figure('sent', 'today')).toHaveText('2');
  await expect(figure('delivered', 'today')).toHaveText('1');
  await expect(figure('bounced', 'today')).toHaveText('1');
  await expect(figure('sent', 'week')).toHaveText('2');
  await expect(page.locator('[data-recent-message]')).toHaveCount(2);
  await expect(page.locator(`[data-recent-message="${gone}"]`)).toContainText('Bounced');
  await expectNoHorizontalOverflow(page);
  await capture(page, testInfo, 'overview-figures-390');
  await page.setViewportSize(DESKTOP);
  await capture(page, testInfo, 'overview-figures-desktop');

  // The figures come from the statistics rollups: a key limited to another domain sees none of them.
  const internal = await page.request.get(`${server.baseUrl}/internal/accounts/${accountId}/overview`);
  expect(internal.status()).toBe(200);
  expect((await internal.json()).last_7_days).toMatchObject({ sent: 2, delivered: 1, bounced: 1 });
  const withApiKey = await api.get(`/internal/accounts/${accountId}/overview`, { checkContract: false });
  expect(withApiKey.status).toBe(401);
});

test('overview: the first-message command names the self-signed certificate, and runs as shown', async ({
  page,
}, testInfo) => {
  const { email, api } = await account('curl');
  await signIn(page, server.baseUrl, email, OWNER_PASSWORD);
  const shown = page.locator('[data-first-send-command]');
  await expect(shown).toContainText('--cacert');
  const command = (await shown.textContent())!;
  const certificate = path.join(server.dataDir, 'tls', 'cert.pem');
  expect(command.startsWith(`curl --cacert ${certificate} -X POST ${server.baseUrl}/v2/`)).toBe(true);
  expect(existsSync(certificate)).toBe(true);
  await page.setViewportSize({ width: 1440, height: 900 });
  await capture(page, testInfo, 'overview-first-send-1440');
  await page.setViewportSize(PHONE);
  await expectNoHorizontalOverflow(page);
  await capture(page, testInfo, 'overview-first-send-390');

  // Exactly as copied: TLS holds and the API answers (the placeholder sender is not a domain of the account).
  const key = { MAILSTEAD_API_KEY: api.apiKey! };
  const exact = runShell(command, key);
  expect(exact.status, exact.stderr).toBe(0);
  expect(JSON.parse(exact.stdout).message).toMatch(/^from\.email: /);
  // Without the certificate, curl refuses the connection (60: the peer's certificate is not trusted).
  expect(runShell(command.replace(/ --cacert \S+/, ''), key).status).toBe(60);
  // With a verified sender and a real recipient filled in, the message is accepted.
  const domain = `curl-${stamp}.example.com`;
  await verifiedDomain(api, domain);
  const recipient = `curl-${stamp}@${rcptDomain}`;
  const filled = runShell(
    command.replace('you@your-domain', `hello@${domain}`).replace('someone@example.org', recipient),
    key,
  );
  expect(filled.status, filled.stderr).toBe(0);
  const accepted = JSON.parse(filled.stdout);
  expect(accepted.data).toHaveLength(1);
  expect(accepted.data[0].recipient.email).toBe(recipient);
  await waitForStatus(api, accepted.data[0].id, 'Delivered');
});

function runShell(command: string, env: Record<string, string>) {
  return spawnSync('bash', ['-c', command], { env: { ...process.env, ...env }, encoding: 'utf8', timeout: 30_000 });
}

test('message page: hard bounce and suppression, next retry of deferred mail, cancel of scheduled mail, text-only on its tab, source labelled', async ({
  page,
}, testInfo) => {
  const { email, accountId, api } = await account('message-page');
  const domain = `msgpage-${stamp}.example.com`;
  await verifiedDomain(api, domain);
  const send = async (to: string, extra: Record<string, unknown> = {}) => {
    const sent = await api.post(api.account('/messages'), {
      from: { email: `hello@${domain}` },
      recipients: [{ email: to }],
      subject: `To ${to.split('@')[0]}`,
      text_content: 'Just text.',
      ...extra,
    });
    expect(sent.status).toBe(202);
    return sent.body.data[0].id as string;
  };
  const gone = `bounce-${stamp}@${rcptDomain}`;
  const later = `later-${stamp}@${rcptDomain}`;
  mx.script(gone, { code: 550, message: '5.1.1 mailbox unknown' });
  mx.script(later, { code: 451, message: '4.7.1 greylisted, try again later' });
  const bounced = await send(gone);
  const deferred = await send(later);
  const scheduled = await send(`someday-${stamp}@${rcptDomain}`, {
    schedule: { first_attempt: new Date(Date.now() + 3_600_000).toISOString() },
  });
  await waitForStatus(api, bounced, 'Bounced');
  await waitForStatus(api, deferred, 'Deferred');
  await signIn(page, server.baseUrl, email, OWNER_PASSWORD);
  const open = (id: string) => page.goto(`${server.baseUrl}/${accountId}/messages/${encodeURIComponent(id)}`);

  await open(bounced);
  await expect(page.getByText('Hard bounce (InvalidRecipient)', { exact: true })).toBeVisible();
  await expect(page.getByTestId('suppression')).toContainText(`${gone} is suppressed for ${domain}`);
  // Text-only mail opens on its text; the source says what it is.
  await expect(page.getByRole('tab', { name: 'Text' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('tabpanel')).toContainText('Just text.');
  await capture(page, testInfo, 'message-bounced-desktop');
  await page.getByRole('tab', { name: 'Source' }).click();
  await expect(page.getByText('A reconstruction, not the bytes that were sent')).toBeVisible();
  await expect(page.getByTestId('message-source')).toContainText(`Subject: To bounce-${stamp}`);
  await page.setViewportSize(PHONE);
  await expectNoHorizontalOverflow(page);
  await capture(page, testInfo, 'message-bounced-390');
  await page.setViewportSize(DESKTOP);

  await open(deferred);
  await expect(page.getByText('Delivery is being retried')).toBeVisible();
  const withApiKey = await api.get(`/internal/accounts/${accountId}/messages/${encodeURIComponent(deferred)}/details`, {
    checkContract: false,
  });
  expect(withApiKey.status).toBe(401); // session only
  await expect(page.getByTestId('next-attempt')).not.toBeEmpty();
  await expect(page.getByTestId('delivery-status')).toContainText('4.7.1 greylisted');
  await capture(page, testInfo, 'message-deferred-desktop');

  await open(scheduled);
  // Both the badge and the delivery status say Scheduled (never Received) for mail not yet due.
  await expect(page.getByText('Scheduled', { exact: true })).toHaveCount(2);
  await expect(page.getByTestId('delivery-status').getByText('Scheduled', { exact: true })).toBeVisible();
  await page.getByRole('button', { name: 'Cancel this message' }).click();
  const confirm = page.getByRole('dialog', { name: 'Cancel this message?' });
  await expect(confirm).toContainText('It will not be sent to');
  await capture(page, testInfo, 'message-cancel-confirm');
  await confirm.getByRole('button', { name: 'Cancel message' }).click();
  await expect(page.getByText('Cancelled: this message will not be sent')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Cancel this message' })).toHaveCount(0);
  expect((await api.get(api.account(`/messages/${encodeURIComponent(scheduled)}`))).body.status).toBe('Cancelled');
  await page.setViewportSize(PHONE);
  await expectNoHorizontalOverflow(page);
  await capture(page, testInfo, 'message-cancelled-390');
});

test('Check DNS now: a person gets a real check every few seconds and sees when; API keys keep the 60 s cache', async ({
  page,
}, testInfo) => {
  const { email, accountId, api } = await account('dns-now');
  const name = `dns-now-${stamp}.example.org`;
  const created = (await api.post(api.account('/domains'), { domain: name })).body;
  const first = (await api.post(api.account(`/domains/${name}/check-dns`))).body;
  expect(first.dns_valid).toBe(false);
  await new DnsControl().publish(created.dns_records);
  const cached = (await api.post(api.account(`/domains/${name}/check-dns`))).body;
  expect(cached.last_dns_check_at).toBe(first.last_dns_check_at);

  await signIn(page, server.baseUrl, email, OWNER_PASSWORD);
  await page.goto(`${server.baseUrl}/${accountId}/domains/${name}`);
  const lastCheck = page.getByTestId('last-dns-check');
  const shownFirst = await lastCheck.textContent();
  // A person's click is a real check once a few seconds have passed since the last one.
  await expect.poll(() => Date.now() - Date.parse(first.last_dns_check_at), { timeout: 10_000 }).toBeGreaterThan(5200);
  await page.getByRole('button', { name: 'Check DNS now' }).click();
  await expect(page.getByText('All required records are in place')).toBeVisible();
  await expect(page.getByTestId('dns-check-result')).toContainText('Checked at');
  await expect(lastCheck).not.toHaveText(shownFirst!);
  const shownFresh = await lastCheck.textContent();

  // Right after that check, another click is answered from it, and the page says which and until when.
  // (The click comes first: on a slow host a screenshot or an API call in between can outlast the 5 s window.)
  await page.getByRole('button', { name: 'Check DNS now' }).click();
  await expect(page.getByTestId('dns-check-result')).toContainText('The records below are from the check at');
  await expect(page.getByTestId('dns-check-result')).toContainText('The next real check is possible at');
  await expect(lastCheck).toHaveText(shownFresh!);
  const fresh = (await api.get(api.account(`/domains/${name}`))).body;
  expect(Date.parse(fresh.last_dns_check_at)).toBeGreaterThan(Date.parse(first.last_dns_check_at));
  expect(fresh.dns_valid).toBe(true);
  await capture(page, testInfo, 'dns-check-wait');
  // The API key still gets the 60 s cache.
  const again = (await api.post(api.account(`/domains/${name}/check-dns`))).body;
  expect(again.last_dns_check_at).toBe(fresh.last_dns_check_at);
});
