import { expect, test } from '../support/dashboard';
import { OWNER_PASSWORD, createAccountWithKey, uniqueEmail } from '../support/cli';
import { ApiClient } from '../support/client';
import { PHONE, capture, expectNoHorizontalOverflow, ownDashboardServer, signIn } from '../support/dashboard';
import { DnsControl } from '../support/dns-server';
import { TestMx } from '../support/mx-server';
import { routeDomainToLoopback, verifiedDomain, waitForStatus } from '../support/sending';

/**
 * The Deliverability page's table by mailbox provider and its provider filter, and the domain page's
 * measured checklist, against a server that delivers to recipient domains whose MX host names are
 * Gmail's and Yahoo's (in the test DNS, resolving to a loopback MX).
 */
const stamp = Date.now().toString(36);
const gmailDomain = `gm-dash-${stamp}.example`;
const yahooDomain = `yh-dash-${stamp}.example`;
const otherDomain = `ot-dash-${stamp}.example`;
let mx: TestMx;

test.beforeAll(async () => {
  mx = await new TestMx().start();
  const dns = new DnsControl();
  for (const [domain, host] of [
    [gmailDomain, `gmail-smtp-in-${stamp}.l.google.com`],
    [yahooDomain, `mta5-${stamp}.am0.yahoodns.net`],
  ]) {
    await dns.setMx(domain, host);
    await dns.setA(host, '127.0.0.1');
  }
  await routeDomainToLoopback(otherDomain);
});
test.afterAll(async () => mx?.stop());

const server = ownDashboardServer('mailbox-providers', () => ({
  ALLOW_PRIVATE_NETWORKS: 'true',
  SMTP_DELIVERY_PORT: String(mx.port),
  DELIVERY_POLL_MS: '100',
  RETRY_SCHEDULE: '3600',
}));

// Not run yet (no build slot before the deadline): enable once it has passed against a fresh `next build`.
test('the Deliverability page counts mail per mailbox provider and filters by one; the domain page shows the measured rules', async ({
  page,
}, testInfo) => {
  test.setTimeout(120_000);
  const email = uniqueEmail('providers');
  const created = await createAccountWithKey(server().env, 'Providers', email);
  const api = new ApiClient(server().baseUrl, server().dataDir, created.apiKey, created.accountId);
  const sender = `providers-${stamp}.example.com`;
  await verifiedDomain(api, sender);
  const later = `later@${yahooDomain}`;
  mx.script(later, { code: 451, message: '4.7.1 try again later' });
  mx.script(`gone@${gmailDomain}`, { code: 550, message: '5.1.1 no such user' });
  const sent = await api.post(api.account('/messages'), {
    from: { email: `hello@${sender}` },
    recipients: [`a@${gmailDomain}`, `b@${gmailDomain}`, `gone@${gmailDomain}`, later, `c@${otherDomain}`].map(
      (address) => ({ email: address }),
    ),
    subject: 'Hello',
    text_content: 'Hello.',
  });
  expect(sent.status, sent.text).toBe(202);
  const ids: string[] = sent.body.data.map((item: { id: string }) => item.id);
  await waitForStatus(api, ids[0], 'Delivered');
  await waitForStatus(api, ids[1], 'Delivered');
  await waitForStatus(api, ids[2], 'Bounced');
  await waitForStatus(api, ids[3], 'Deferred');
  await waitForStatus(api, ids[4], 'Delivered');

  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page, server().baseUrl, email, OWNER_PASSWORD);
  await page.goto(`${server().baseUrl}/${created.accountId}/deliverability`);
  const table = page.locator('[data-table="providers"]');
  await expect(table).toBeVisible({ timeout: 30_000 });
  const row = (provider: string) => table.locator(`[data-provider="${provider}"]`);
  await expect(row('gmail')).toContainText('Gmail');
  // Accepted 3, delivered 2 (67% of those that ended), deferred 0, bounced 1 (33%).
  await expect(row('gmail').locator('td').nth(0)).toHaveText('3');
  await expect(row('gmail').locator('td').nth(1)).toHaveText(/^2\s*66\.7%$/);
  await expect(row('gmail').locator('td').nth(3)).toHaveText(/^1\s*33\.3%$/);
  // The upper bound of the median's bin: a loaded machine can take more than a second.
  await expect(row('gmail').locator('td').nth(5)).toHaveText(/≤ (1|5|30) s/);
  await expect(row('yahoo').locator('td').nth(2)).toHaveText('1');
  await expect(row('yahoo').locator('td').nth(5)).toHaveText('—');
  await expect(row('other').locator('td').nth(1)).toHaveText(/^1\s*100\.0%$/);
  await capture(page, testInfo, 'providers-deliverability-1440');

  // The filter narrows every figure on the page to one provider, and lives in the URL.
  await page.getByLabel('Mailbox provider', { exact: true }).selectOption('gmail');
  await expect(page).toHaveURL(/provider=gmail/);
  await expect(page.getByTestId('statistics-scope')).toContainText('to Gmail recipients');
  await expect(page.locator('[data-figure="accepted"] [data-value]')).toHaveText('3');
  await expect(page.locator('[data-figure="bounced"] [data-value]')).toHaveText('1');
  await expect(table.locator('tbody tr')).toHaveCount(1);

  await page.setViewportSize(PHONE);
  await page.goto(`${server().baseUrl}/${created.accountId}/deliverability`);
  await expect(table).toBeVisible({ timeout: 30_000 });
  await expectNoHorizontalOverflow(page);
  await table.scrollIntoViewIfNeeded();
  await capture(page, testInfo, 'providers-deliverability-390', { fullPage: false });

  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(`${server().baseUrl}/${created.accountId}/domains/${sender}`);
  const measured = page.getByTestId('measured-checklist');
  await expect(measured).toBeVisible({ timeout: 30_000 });
  await expect(page.locator('[data-measured="tls"]')).toContainText('100.0% (3 of 3 delivered)');
  await expect(page.locator('[data-measured="complaint_rate"]')).toContainText('0.0% (0 of 3 delivered');
  await expect(page.locator('[data-measured="one_click_unsubscribe"]')).toContainText('No campaign messages');
  await expect(measured.locator('[data-status="pass"]')).toHaveCount(2);
  await measured.scrollIntoViewIfNeeded();
  await capture(page, testInfo, 'providers-checklist-1440', { fullPage: false });
  await page.setViewportSize(PHONE);
  await expectNoHorizontalOverflow(page);
  await measured.scrollIntoViewIfNeeded();
  await capture(page, testInfo, 'providers-checklist-390', { fullPage: false });
});
