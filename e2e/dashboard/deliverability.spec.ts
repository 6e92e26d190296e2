import type { Page } from '@playwright/test';
import { expect, test } from '../support/dashboard';
import { fetch as undiciFetch } from 'undici';
import { OWNER_PASSWORD, createAccountWithKey, uniqueEmail } from '../support/cli';
import { ApiClient } from '../support/client';
import {
  DESKTOP,
  PHONE,
  capture,
  expectChartTicksApart,
  expectNoHorizontalOverflow,
  ownDashboardServer,
  signIn,
} from '../support/dashboard';
import { DnsControl } from '../support/dns-server';
import { TestMx } from '../support/mx-server';
import { routeDomainToLoopback, verifiedDomain, waitForStatus } from '../support/sending';
import { freePort } from '../support/server';

/**
 * The Deliverability page against a server of its own that really delivers (to a loopback MX that
 * refuses on cue) and serves tracking links on plain HTTP, so that opens and clicks are real too.
 */
const stamp = Date.now().toString(36);
const rcptDomain = `deliv-rcpt-${stamp}.example`;
let mx: TestMx;
let httpPort: number;

test.beforeAll(async () => {
  mx = await new TestMx().start();
  httpPort = await freePort();
  await routeDomainToLoopback(rcptDomain);
});
test.afterAll(async () => mx?.stop());

const server = ownDashboardServer('deliverability', () => ({
  ALLOW_PRIVATE_NETWORKS: 'true',
  SMTP_DELIVERY_PORT: String(mx.port),
  HTTP_PORT: String(httpPort),
  DELIVERY_POLL_MS: '100',
  // One deferral stays one: the retry is an hour away.
  RETRY_SCHEDULE: '3600',
}));

test.use({ timezoneId: 'Asia/Kolkata' });

async function account(name: string) {
  const email = uniqueEmail(name);
  const created = await createAccountWithKey(server().env, name, email);
  return {
    email,
    accountId: created.accountId,
    api: new ApiClient(server().baseUrl, server().dataDir, created.apiKey, created.accountId),
  };
}

/** Requests a tracking URL as a mail client would: the tracking host, resolved to 127.0.0.1. */
function visit(url: string) {
  const parsed = new URL(url);
  return undiciFetch(`http://127.0.0.1:${parsed.port}${parsed.pathname}`, {
    headers: { host: parsed.host, 'user-agent': 'Mozilla/5.0 Thunderbird/128.0' },
    redirect: 'manual',
  });
}

const figure = (page: Page, name: string) => page.locator(`[data-figure="${name}"] [data-value]`);

async function expectFigures(page: Page, expected: Record<string, string>) {
  for (const [name, value] of Object.entries(expected)) await expect(figure(page, name), name).toHaveText(value);
}

test('a real send shows in the charts; filters update the URL and the charts; a shared URL restores the view', async ({
  page,
  context,
}, testInfo) => {
  test.setTimeout(120_000);
  const { email, accountId, api } = await account('deliverability');
  const first = `deliv-a-${stamp}.example.com`;
  const second = `deliv-b-${stamp}.example.com`;
  await verifiedDomain(api, first);
  await verifiedDomain(api, second);
  // The first domain's tracking host points here, so opens and clicks reach the server.
  await new DnsControl().setA(`t.${first}`, '127.0.0.1');
  await api.post(api.account(`/domains/${first}/check-dns`));

  const reader = `reader-${stamp}@${rcptDomain}`;
  const quiet = `quiet-${stamp}@${rcptDomain}`;
  const gone = `gone-${stamp}@${rcptDomain}`;
  const buyer = `buyer-${stamp}@${rcptDomain}`;
  const later = `later-${stamp}@${rcptDomain}`;
  mx.script(gone, { code: 550, message: '5.1.1 no such user here' });
  mx.script(later, { code: 451, message: '4.7.1 greylisted, try again later' });
  const welcome = await api.post(api.account('/messages'), {
    from: { email: `hello@${first}` },
    recipients: [{ email: reader }, { email: quiet }, { email: gone }],
    subject: 'Welcome',
    html_content: '<p>Hello. <a href="https://shop.example/start">Start here</a></p>',
    tags: ['welcome'],
    tracking: { open: true, click: true },
  });
  expect(welcome.status).toBe(202);
  const receipt = await api.post(api.account('/messages'), {
    from: { email: `billing@${second}` },
    recipients: [{ email: buyer }, { email: later }],
    subject: 'Receipt',
    text_content: 'Paid.',
    tags: ['receipt'],
  });
  expect(receipt.status).toBe(202);
  const [readerId, quietId, goneId] = welcome.body.data.map((item: { id: string }) => item.id);
  const [buyerId, laterId] = receipt.body.data.map((item: { id: string }) => item.id);
  for (const id of [readerId, quietId, buyerId]) await waitForStatus(api, id, 'Delivered');
  await waitForStatus(api, goneId, 'Bounced');
  await waitForStatus(api, laterId, 'Deferred');
  // The bounced address is suppressed now: the next message to it is not sent.
  const again = await api.post(api.account('/messages'), {
    from: { email: `hello@${first}` },
    recipients: [{ email: gone }],
    subject: 'Welcome again',
    text_content: 'Hi.',
    tags: ['welcome'],
  });
  await waitForStatus(api, again.body.data[0].id, 'Suppressed');
  // The reader opens the mail and clicks its link.
  const html = String(mx.for(reader)[0].parsed.html);
  const openUrl = html.match(/<img src="([^"]+\/t\/o\/[^"]+)"/)?.[1];
  const clickUrl = html.match(/href="([^"]+\/t\/c\/[^"]+)"/)?.[1];
  expect((await visit(openUrl!)).status).toBe(200);
  expect((await visit(clickUrl!)).status).toBe(302);

  await signIn(page, server().baseUrl, email, OWNER_PASSWORD);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Deliverability' }).click();
  // This server's first visit to the page loads its chunks; under a loaded CI machine that took over 10 s once.
  await expect(page).toHaveURL(/\/deliverability/, { timeout: 30_000 });
  await expect(page.getByRole('heading', { level: 1, name: 'Deliverability' })).toBeVisible({ timeout: 30_000 });
  await expect(page.getByRole('button', { name: 'Last 7 days' })).toHaveAttribute('aria-pressed', 'true');
  // Every outcome of the send, in figures a person reads, and in the tables behind the charts.
  await expectFigures(page, {
    accepted: '6',
    delivered: '3',
    deferred: '1',
    bounced: '1',
    failed: '0',
    suppressed: '1',
    'bounce-rate': '25.0%',
    'open-rate': '33.3%',
    'click-rate': '33.3%',
    'complaint-rate': '—',
  });
  // Complaints are processed (suppression, webhook) but not counted here: the page says both, never "not received".
  await expect(page.locator('[data-figure="complaint-rate"]')).toContainText(
    'Complaints are received, not counted here yet',
  );
  await expect(page.locator('[data-chart="complaint-rate"]')).not.toContainText('does not receive');
  await expect(page.getByText(/Mailstead receives spam complaints \(ARF feedback-loop reports/)).toBeVisible();
  // Chromium's ICU still names Kolkata by its old name.
  await expect(page.getByTestId('statistics-scope')).toContainText(/Asia\/(Kolkata|Calcutta)/);
  // The default limit (10%) is below this account's 25%: the page warns, and draws the limit.
  await expect(page.getByText('Bounce rate 25.0% is above the pause limit of 10.0%')).toBeVisible();
  // recharts draws a reference line's label in a layer of its own, above the lines.
  for (const [chart, label] of [
    ['bounce-rate', 'Pause above 10.0%'],
    ['complaint-rate', 'Keep under 0.1%'],
  ]) {
    // A horizontal line has no height, so Playwright never calls it visible: it is there.
    await expect(page.locator(`[data-chart="${chart}"] .recharts-reference-line-line`)).toHaveCount(1);
    await expect(page.locator(`[data-chart="${chart}"] .recharts-label`, { hasText: label })).toBeVisible();
  }
  await expect(page.locator('[data-chart="outcomes"] .recharts-bar-rectangle').first()).toBeVisible();
  const today = page
    .locator('[data-table="outcomes"] tbody tr')
    .filter({ has: page.locator('[data-column="accepted"]', { hasText: /^6$/ }) });
  await expect(today).toHaveCount(1);
  await expect(today.locator('[data-column="delivered"]')).toHaveText('3');
  await expect(
    page.locator('[data-table="bounce-classes"] [data-row="InvalidRecipient"] [data-column="count"]'),
  ).toHaveText('1');
  await expect(
    page.locator(`[data-table="delivery-time"] [data-row="${rcptDomain}"] [data-column="count"]`),
  ).toHaveText('3');
  await expect(
    page.locator(`[data-table="delivery-time"] [data-row="${rcptDomain}"] [data-column="seconds"]`),
  ).toHaveText(/\d+(\.\d)? s$|ms$/);
  await page.getByText('Show the numbers').first().click();
  await expect(page.locator('[data-table="outcomes"]')).toBeVisible();
  await capture(page, testInfo, 'deliverability-desktop');
  for (const chart of ['outcomes', 'bounce-rate', 'complaint-rate', 'engagement', 'bounce-classes', 'delivery-time'])
    await expectChartTicksApart(page, chart);

  // A sender domain: the URL says so, and every figure is that domain's.
  await page.getByLabel('Sender domain').selectOption(second);
  await expect(page).toHaveURL(new RegExp(`[?&]domain=${second.replace(/\./g, '\\.')}`));
  await expectFigures(page, {
    accepted: '2',
    delivered: '1',
    deferred: '1',
    bounced: '0',
    suppressed: '0',
    'bounce-rate': '0.0%',
    'open-rate': '0.0%',
  });
  await expect(page.getByText(/above the pause limit/)).toHaveCount(0);

  // A tag this domain never used: nothing to show, and the page says why.
  await page.getByLabel('Tags (comma-separated)').fill('welcome');
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page).toHaveURL(/[?&]tags=welcome/);
  await expect(page.getByText('No mail in the last 7 days')).toBeVisible();
  await expect(page.getByText(`Nothing was sent from ${second} with the tag welcome in this period.`)).toBeVisible();
  await capture(page, testInfo, 'deliverability-empty-filtered');

  // Back to every domain, keeping the tag; then the last 24 hours.
  await page.getByLabel('Sender domain').selectOption('');
  await expectFigures(page, {
    accepted: '4',
    delivered: '2',
    bounced: '1',
    suppressed: '1',
    'bounce-rate': '33.3%',
    'open-rate': '50.0%',
    'click-rate': '50.0%',
  });
  await page.getByRole('button', { name: 'Last 24 hours' }).click();
  await expect(page).toHaveURL(/[?&]range=24h/);
  await expect(page.getByRole('button', { name: 'Last 24 hours' })).toHaveAttribute('aria-pressed', 'true');
  await expectFigures(page, { accepted: '4', delivered: '2' });
  await expect(page.getByTestId('statistics-scope')).toContainText('per hour');

  // The view as a link: another tab opens on the same period, domain and tag.
  const shared = `${server().baseUrl}/${accountId}/deliverability?range=24h&domain=${first}&tags=welcome`;
  const other = await context.newPage();
  await other.goto(shared);
  await expect(other.getByRole('button', { name: 'Last 24 hours' })).toHaveAttribute('aria-pressed', 'true');
  await expect(other.getByLabel('Sender domain')).toHaveValue(first);
  await expect(other.getByLabel('Tags (comma-separated)')).toHaveValue('welcome');
  await expectFigures(other, { accepted: '4', delivered: '2', bounced: '1', 'bounce-rate': '33.3%' });
  await other.close();

  // Custom dates long before the send: an empty period.
  await page.getByRole('button', { name: 'Custom dates' }).click();
  await page.getByLabel('First day').fill('2026-01-01');
  await page.getByLabel('Last day').fill('2026-01-31');
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page).toHaveURL(/range=custom&from=2026-01-01&to=2026-01-31/);
  await expect(
    page.getByText(/No mail in 1 Jan 2026 – 31 Jan 2026|No mail in Jan 1, 2026 – Jan 31, 2026/),
  ).toBeVisible();
  await page.getByRole('button', { name: 'Clear filters' }).click();
  await expect(page).toHaveURL(/range=custom&from=2026-01-01&to=2026-01-31$/);
  await page.getByRole('button', { name: 'Last 30 days' }).click();
  await expectFigures(page, { accepted: '6', delivered: '3' });

  // At a phone's width: the page fits, the legends wrap, the 30 daily ticks do not collide.
  await page.setViewportSize(PHONE);
  await expect(figure(page, 'accepted')).toHaveText('6');
  await expectNoHorizontalOverflow(page);
  for (const chart of ['outcomes', 'bounce-rate', 'complaint-rate', 'engagement', 'bounce-classes', 'delivery-time'])
    await expectChartTicksApart(page, chart);
  await capture(page, testInfo, 'deliverability-390');
  await page.setViewportSize(DESKTOP);
});

test('empty, loading and error states; statistics are session-checked like the API', async ({ page }, testInfo) => {
  const { email, accountId, api } = await account('deliverability-empty');
  await signIn(page, server().baseUrl, email, OWNER_PASSWORD);
  await page.goto(`${server().baseUrl}/${accountId}/deliverability`);
  await expect(page.getByText('No mail in the last 7 days')).toBeVisible();
  await expect(page.getByText('Nothing was sent in this period.')).toBeVisible();
  await capture(page, testInfo, 'deliverability-empty');
  await page.setViewportSize(PHONE);
  await expectNoHorizontalOverflow(page);
  await capture(page, testInfo, 'deliverability-empty-390');
  await page.setViewportSize(DESKTOP);

  // A slow answer shows the loading state; a failing one, the error and a way to try again.
  let isFailing = true;
  await page.route('**/statistics/transactional/deliverability?**', async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 800));
    if (isFailing)
      return route.fulfill({
        status: 500,
        contentType: 'application/json',
        body: JSON.stringify({ message: 'statistics are resting' }),
      });
    return route.continue();
  });
  await page.goto(`${server().baseUrl}/${accountId}/deliverability?range=30d`);
  await expect(page.getByText('Loading statistics…')).toBeVisible();
  await expect(page.getByText('Statistics could not be loaded')).toBeVisible({ timeout: 15_000 });
  await expect(page.getByRole('alert').filter({ hasText: 'Statistics could not be loaded' })).toContainText(
    'statistics are resting',
  );
  await capture(page, testInfo, 'deliverability-error');
  isFailing = false;
  await page.getByRole('button', { name: 'Try again' }).click();
  await expect(page.getByText('No mail in the last 30 days')).toBeVisible();

  // The limits come from a session-only route; an API key cannot read it.
  const settings = await page.request.get(`${server().baseUrl}/internal/accounts/${accountId}/deliverability-settings`);
  expect(settings.status()).toBe(200);
  expect(await settings.json()).toMatchObject({
    bounce_rate: { pause_above: 0.1, min_volume: 50, window_hours: 24 },
    complaint_rate: { is_measured: false },
  });
  expect(
    (await api.get(`/internal/accounts/${accountId}/deliverability-settings`, { checkContract: false })).status,
  ).toBe(401);
});
