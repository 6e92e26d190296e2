import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { OWNER_PASSWORD } from '../support/cli';
import { ApiClient } from '../support/client';
import { DnsControl } from '../support/dns-server';
import type { TestMx } from '../support/mx-server';
import { startServerWithMx, type ServerWithMx } from '../support/mx-suite';
import { ROOT } from '../support/paths';
import { BACKGROUND_POLL_INTERVALS, routeDomainToLoopback } from '../support/sending';
import type { ServerHandle } from '../support/server';

/**
 * The pictures in README.md and docs/ are taken here, from a server that really delivers, so they
 * show the dashboard as it is today. Each run overwrites docs/images/*.png; commit them when they change.
 */
const IMAGES = path.join(ROOT, 'docs', 'images');
const VIEWPORT = { width: 1440, height: 900 } as const;

let server: ServerHandle;
let mx: TestMx;
let started: ServerWithMx;
// Fixed, readable names: the pictures show them. No other suite uses them.
const rcptDomain = 'customers.example';

test.beforeAll(async () => {
  started = await startServerWithMx({ name: 'docs' });
  ({ server, mx } = started);
  await routeDomainToLoopback(rcptDomain);
});

test.afterAll(async () => {
  await started?.stop();
});

async function shoot(page: Page, name: string) {
  mkdirSync(IMAGES, { recursive: true });
  // Let charts finish their entry animation so the picture is not caught half-drawn.
  await page.waitForTimeout(800);
  await page.screenshot({ path: path.join(IMAGES, `${name}.png`) });
}

/** A call to the API from the signed-in page, as the dashboard makes it (session cookie, same origin). */
async function fromPage(
  page: Page,
  method: string,
  url: string,
  body?: unknown,
): Promise<{ status: number; body: any }> {
  return page.evaluate(
    async ([method, url, body]) => {
      const response = await fetch(url as string, {
        method: method as string,
        headers: body ? { 'content-type': 'application/json' } : {},
        body: body ? JSON.stringify(body) : undefined,
      });
      return { status: response.status, body: await response.json().catch(() => null) };
    },
    [method, url, body] as const,
  );
}

/**
 * The README's quick start, step by step as a newcomer goes (setup with the logged token, a domain
 * and its records, a key made in the dashboard, a send trusting data/tls/cert.pem, the message),
 * then a campaign, taking the pictures on the way.
 */
test('docs screenshots: the quick start from setup to a delivered message, then a campaign, at 1440x900', async ({
  page,
}) => {
  test.setTimeout(180_000);
  await page.setViewportSize(VIEWPORT);

  // 1. A fresh server opens on /setup, which asks for the token it logged.
  const token = readFileSync(path.join(server.dataDir, 'setup-token'), 'utf8').trim();
  expect(readFileSync(server.logFile, 'utf8')).toContain(
    `first run: no account exists yet; open /setup and enter the setup token ${token}`,
  );
  await page.goto(server.baseUrl);
  await expect(page).toHaveURL(/\/setup$/);
  await expect(page.getByRole('heading', { name: 'Set up Mailstead' })).toBeVisible();
  await shoot(page, 'setup');
  await page.getByLabel('Setup token').fill(token);
  await page.getByLabel('Account name').fill('Acme');
  await page.getByLabel('Your email').fill('owner@acme.example');
  await page.getByLabel('Password').fill(OWNER_PASSWORD);
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page.getByRole('heading', { name: 'Overview' })).toBeVisible();
  const accountId = new URL(page.url()).pathname.split('/')[1];
  const base = `${server.baseUrl}/${accountId}`;

  // 2. A domain, its records published, checked until verified.
  const domain = 'acme.example.com';
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Domains' }).click();
  await page.getByLabel('Domain', { exact: true }).fill(domain);
  await page.getByRole('button', { name: 'Add domain' }).click();
  await expect(page.getByRole('heading', { level: 1, name: domain })).toBeVisible();
  const records = (await fromPage(page, 'GET', `/v2/accounts/${accountId}/domains/${domain}`)).body.dns_records;
  await new DnsControl().publish(records);
  await page.getByRole('button', { name: 'Check DNS now' }).click();
  await expect(page.getByText('All required records are in place')).toBeVisible();
  await shoot(page, 'domains');

  // 3. A key with messages:send:all, made in the dashboard; its secret is shown once.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'API keys' }).click();
  await page.getByRole('button', { name: 'Create API key' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Label').fill('quick start');
  await dialog.locator('[data-scope-prefix="messages:send"]').selectOption('all');
  await dialog.getByRole('button', { name: 'Create key' }).click();
  const secret = (await page
    .getByRole('dialog', { name: /created/ })
    .getByTestId('api-key-secret')
    .textContent())!.trim();
  await page
    .getByRole('dialog', { name: /created/ })
    .getByRole('button', { name: 'I have stored the key' })
    .click();

  // 4. The send, trusting only the server's own certificate (curl --cacert data/tls/cert.pem).
  const api = new ApiClient(server.baseUrl, server.dataDir, secret, accountId);
  const readers = ['ann', 'ben', 'cat', 'dan', 'eve'].map((name) => `${name}@${rcptDomain}`);
  const gone = `nobody@${rcptDomain}`;
  mx.script(gone, { code: 550, message: '5.1.1 no such user here' });
  const sent = await api.post(api.account('/messages'), {
    from: { email: `hello@${domain}`, name: 'Acme' },
    recipients: [...readers, gone].map((email) => ({ email })),
    subject: 'Your receipt',
    html_content: '<p>Thanks for your order.</p>',
    text_content: 'Thanks for your order.',
  });
  expect(sent.status, sent.text).toBe(202);
  // The key may only send, as the quick start's; the page reads the outcome with the session.
  const statusOf = async (id: string) =>
    (await fromPage(page, 'GET', `/v2/accounts/${accountId}/messages/${id}`)).body?.status;
  for (const [index, message] of sent.body.data.entries()) {
    await expect
      .poll(() => statusOf(message.id), { timeout: 30_000, intervals: BACKGROUND_POLL_INTERVALS })
      .toBe(index < readers.length ? 'Delivered' : 'Bounced');
  }

  // 5. The message, delivered, in the dashboard.
  await page.goto(`${base}/messages`);
  await expect(page.getByRole('heading', { level: 1, name: 'Messages' })).toBeVisible();
  await expect(page.getByText(gone).first()).toBeVisible();
  await page.goto(`${base}/messages/${sent.body.data[0].id}`);
  await expect(page.getByText(readers[0]).first()).toBeVisible();
  await shoot(page, 'message');

  // A campaign to a list of the same readers, sent in full, through the session as the dashboard does.
  expect(
    (await fromPage(page, 'PUT', `/v2/accounts/${accountId}/domains/${domain}`, { sending_type: 'marketing' })).status,
  ).toBe(200);
  const list = await fromPage(page, 'POST', `/v2/accounts/${accountId}/lists`, { name: 'Newsletter' });
  for (const [index, email] of readers.entries()) {
    expect(
      (await fromPage(page, 'POST', `/v2/accounts/${accountId}/contacts`, { email, first_name: `Reader ${index + 1}` }))
        .status,
    ).toBe(201);
  }
  expect(
    (await fromPage(page, 'POST', `/v2/accounts/${accountId}/lists/${list.body.id}/members`, { contacts: readers }))
      .status,
  ).toBeLessThan(300);
  const campaign = await fromPage(page, 'POST', `/v2/accounts/${accountId}/campaigns`, {
    name: 'Spring news',
    from: { email: `news@${domain}`, name: 'Acme news' },
    subject: 'Spring news from Acme',
    html_content: '<h1>Spring news</h1><p>Hi {{ first_name }}, <a href="https://example.org/spring">read on</a>.</p>',
    list_ids: [list.body.id],
  });
  expect(campaign.status).toBe(201);
  expect(
    (await fromPage(page, 'POST', `/v2/accounts/${accountId}/campaigns/${campaign.body.id}/send`, {})).status,
  ).toBe(200);
  await expect
    .poll(
      async () => (await fromPage(page, 'GET', `/v2/accounts/${accountId}/campaigns/${campaign.body.id}`)).body.status,
      { timeout: 30_000 },
    )
    .toBe('sent');
  await expect.poll(() => readers.every((email) => mx.for(email).length === 2), { timeout: 30_000 }).toBe(true);

  await page.goto(`${base}/campaigns/${campaign.body.id}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Spring news' })).toBeVisible();
  await shoot(page, 'campaign');

  await page.goto(`${base}/messages`);
  await expect(page.getByText('Spring news from Acme').first()).toBeVisible();
  await shoot(page, 'messages');

  await page.goto(base);
  await expect(page.getByRole('heading', { name: 'Overview' })).toBeVisible();
  await expect(page.locator('[data-recent-message]').first()).toBeVisible();
  await shoot(page, 'overview');
});
