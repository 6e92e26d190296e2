import { expect, test } from '../support/dashboard';
import { OWNER_PASSWORD, uniqueEmail } from '../support/cli';
import { DESKTOP, PHONE, capture, expectNoHorizontalOverflow, signIn } from '../support/dashboard';
import { verifiedDomain, waitForStatus } from '../support/sending';
import { newAccount, sharedServer } from '../support/shared';

test('messages: the log filters, and a message page shows its timeline, a safe preview, the text and the source', async ({
  page,
}, testInfo) => {
  const email = uniqueEmail('messages-owner');
  const account = await newAccount('Dashboard messages', email);
  const domain = `dash-msg-${Date.now().toString(36)}.example.com`;
  await verifiedDomain(account.api, domain);
  const send = (body: Record<string, unknown>) =>
    account.api.post(account.api.account('/messages'), { from: { email: `hi@${domain}` }, sandbox: true, ...body });
  const receipt = await send({
    recipients: [{ email: 'carol@example.org' }],
    subject: 'Your receipt',
    text_content: 'Thanks for your order.',
    html_content: '<h1>Thanks</h1><img src="https://tracker.example/pixel.gif"><script>document.title="pwned"</script>',
    tags: ['receipts'],
  });
  await send({
    recipients: [{ email: 'dave@example.org' }],
    subject: 'Newsletter',
    text_content: 'News',
    sandbox_result: 'bounce',
  });
  await waitForStatus(account.api, receipt.body.data[0].id, 'Sandbox Delivered');

  await signIn(page, sharedServer().baseUrl, email, OWNER_PASSWORD);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Messages' }).click();
  await expect(page.locator('[data-message-row]')).toHaveCount(2);
  await expect(page.locator('[data-message-row="carol@example.org"]')).toContainText('Sandbox');
  await capture(page, testInfo, 'messages-log');

  await page.getByLabel('Status').selectOption('Sandbox Bounced');
  await page.getByRole('button', { name: 'Filter' }).click();
  await expect(page).toHaveURL(/status=Sandbox/);
  await expect(page.locator('[data-message-row]')).toHaveCount(1);
  await expect(page.locator('[data-message-row="dave@example.org"]')).toBeVisible();
  await page.getByRole('button', { name: 'Clear' }).click();
  await expect(page).toHaveURL(/\/messages$/);
  await expect(page.locator('[data-message-row]')).toHaveCount(2);
  await page.getByLabel('Subject contains').fill('receipt');
  await page.getByRole('button', { name: 'Filter' }).click();
  await expect(page.locator('[data-message-row]')).toHaveCount(1);

  // On a phone the filters fold behind one button that counts the active ones, so rows come first.
  await page.setViewportSize(PHONE);
  const filters = page.getByRole('button', { name: /^Filters/ });
  await expect(filters).toHaveText(/1 active/);
  await expect(filters).toHaveAttribute('aria-expanded', 'false');
  await expect(page.getByRole('search', { name: 'Filter messages' })).toBeHidden();
  await expect(page.locator('[data-message-row="carol@example.org"]')).toBeInViewport();
  await capture(page, testInfo, 'messages-filters-closed-390', { fullPage: false });
  await filters.click();
  await expect(page.getByRole('search', { name: 'Filter messages' }).getByLabel('Subject contains')).toHaveValue(
    'receipt',
  );
  await capture(page, testInfo, 'messages-filters-open-390', { fullPage: false });
  await filters.click();
  await expect(page.getByRole('search', { name: 'Filter messages' })).toBeHidden();
  await expectNoHorizontalOverflow(page);
  await page.setViewportSize(DESKTOP);
  await expect(page.getByRole('search', { name: 'Filter messages' })).toBeVisible();
  await expect(filters).toBeHidden();

  // The preview never fetches remote content nor runs scripts.
  const remoteRequests: string[] = [];
  const blockedRequests: string[] = [];
  page.on('request', (request) => {
    if (request.url().includes('tracker.example')) remoteRequests.push(request.url());
  });
  page.on('requestfailed', (request) => {
    if (request.url().includes('tracker.example')) blockedRequests.push(request.failure()?.errorText ?? '');
  });
  page.on('response', (response) => {
    if (response.url().includes('tracker.example')) throw new Error(`the preview fetched ${response.url()}`);
  });
  await page.getByRole('link', { name: 'Your receipt' }).click();
  await expect(page.getByRole('heading', { name: 'Your receipt' })).toBeVisible();
  await expect(page.getByTestId('message-timeline')).toContainText('reception');
  await expect(page.getByTestId('message-timeline')).toContainText('delivered');
  const frame = page.frameLocator('iframe[title="HTML preview"]');
  await expect(frame.getByRole('heading', { name: 'Thanks' })).toBeVisible();
  expect(await page.title()).not.toBe('pwned');
  expect(await page.locator('iframe[title="HTML preview"]').getAttribute('sandbox')).toBe('');
  await capture(page, testInfo, 'message-preview');
  // Chromium reports the image request, then refuses it under the policy: nothing leaves.
  await expect.poll(() => blockedRequests.length).toBe(remoteRequests.length);
  expect(blockedRequests.every((failure) => /csp|blocked/i.test(failure))).toBe(true);
  const previewSrc = await page.locator('iframe[title="HTML preview"]').getAttribute('src');
  const preview = await page.request.get(`${sharedServer().baseUrl}${previewSrc}`);
  expect(preview.headers()['content-security-policy']).toBe(
    "default-src 'none'; style-src 'unsafe-inline'; img-src data:; sandbox",
  );
  await page.getByRole('tab', { name: 'text' }).click();
  await expect(page.getByText('Thanks for your order.')).toBeVisible();
  await page.getByRole('tab', { name: 'source' }).click();
  await expect(page.locator('pre')).toContainText('Subject: Your receipt');
  await page.getByRole('tab', { name: 'headers' }).click();
  await expect(page.getByRole('tabpanel').getByText('Message-ID', { exact: true })).toBeVisible();
  await capture(page, testInfo, 'message-headers');
});

test('a domain paused for its bounce rate shows why and when, and unpauses', async ({ page }, testInfo) => {
  const email = uniqueEmail('pause-owner');
  const account = await newAccount('Dashboard pause', email);
  const domain = `dash-pause-${Date.now().toString(36)}.example.com`;
  await verifiedDomain(account.api, domain);
  // Four real sends to a domain with no mail server at all: four permanent bounces.
  const sent = await account.api.post(account.api.account('/messages'), {
    from: { email: `hi@${domain}` },
    recipients: Array.from({ length: 4 }, (_, i) => ({ email: `x${i}@no-mx-${Date.now()}.example` })),
    subject: 'x',
    text_content: 'x',
  });
  for (const item of sent.body.data) await waitForStatus(account.api, item.id, 'Bounced');
  await expect
    .poll(async () => (await account.api.get(account.api.account(`/domains/${domain}`))).body.paused, {
      timeout: 20_000,
    })
    .toBe(true);

  await signIn(page, sharedServer().baseUrl, email, OWNER_PASSWORD);
  await page.goto(`${sharedServer().baseUrl}/${account.accountId}/domains/${domain}`);
  await expect(page.getByText('Sending is paused')).toBeVisible();
  await expect(page.getByText('too many recent emails bounced')).toBeVisible();
  await capture(page, testInfo, 'domain-paused');
  await page.getByRole('button', { name: `Unpause ${domain}` }).click();
  await expect(page.getByText('Sending is paused')).toHaveCount(0);
  expect((await account.api.get(account.api.account(`/domains/${domain}`))).body.paused).toBe(false);
});

test('settings: v1 keys are created (shown once), work on /v1/email/send, and are deleted', async ({
  page,
}, testInfo) => {
  const email = uniqueEmail('v1-owner');
  const account = await newAccount('Dashboard v1', email);
  const domain = `dash-v1-${Date.now().toString(36)}.example.com`;
  await verifiedDomain(account.api, domain);
  await signIn(page, sharedServer().baseUrl, email, OWNER_PASSWORD);
  await page.goto(`${sharedServer().baseUrl}/${account.accountId}/settings`);
  await page.getByLabel('New v1 key label').fill('old shop');
  await page.getByRole('button', { name: 'Create v1 key' }).click();
  const secret = (await page.getByTestId('v1-key-secret').textContent())!.trim();
  await capture(page, testInfo, 'v1-keys');
  const v1 = await account.api.request('POST', '/v1/email/send', {
    apiKey: null,
    headers: { 'X-Api-Key': secret },
    body: {
      from: { email: `a@${domain}` },
      recipients: [{ email: 'z@example.org' }],
      content: { subject: 's', text_body: 't', headers: { 'AhaSend-Sandbox': 'true' } },
    },
  });
  expect(v1.status).toBe(201);
  expect(v1.body.success_count).toBe(1);
  await page.reload();
  await expect(page.getByTestId('v1-key-secret')).toHaveCount(0);
  await page.getByRole('button', { name: 'Delete v1 key old shop' }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete v1 key' });
  await expect(confirm).toContainText('Apps using this v1 key will get 403');
  await capture(page, testInfo, 'v1-key-delete-confirm');
  await confirm.getByRole('button', { name: 'Delete v1 key' }).click();
  await expect(page.locator('[data-v1-key="old shop"]')).toHaveCount(0);
  await expect(page.getByText('v1 key “old shop” deleted: requests with it now get 403.')).toBeVisible();
  const refused = await account.api.request('POST', '/v1/email/send', {
    apiKey: null,
    headers: { 'X-Api-Key': secret },
    body: {
      from: { email: `a@${domain}` },
      recipients: [{ email: 'z@example.org' }],
      content: { subject: 's', text_body: 't' },
    },
  });
  expect(refused.status).toBe(403);
});

test('a message page names the sender and lists the attachments; a scheduled message says Scheduled, in the log and on its page', async ({
  page,
}, testInfo) => {
  const email = uniqueEmail('messages-details');
  const account = await newAccount('Dashboard message details', email);
  const domain = `dash-att-${Date.now().toString(36)}.example.com`;
  await verifiedDomain(account.api, domain);
  const send = (body: Record<string, unknown>) =>
    account.api.post(account.api.account('/messages'), {
      from: { email: `billing@${domain}`, name: 'Acme Billing' },
      sandbox: true,
      ...body,
    });
  const invoice = await send({
    recipients: [{ email: 'erin@example.org' }],
    subject: 'Your invoice',
    text_content: 'Attached.',
    attachments: [
      {
        data: Buffer.from('%PDF-1.4 '.repeat(200)).toString('base64'),
        base64: true,
        file_name: 'invoice-42.pdf',
        content_type: 'application/pdf',
      },
      { data: 'a,b\n1,2\n', file_name: 'lines.csv', content_type: 'text/csv' },
    ],
  });
  expect(invoice.status, invoice.text).toBe(202);
  const later = await send({
    recipients: [{ email: 'frank@example.org' }],
    subject: 'Tomorrow',
    text_content: 'Soon',
    schedule: { first_attempt: new Date(Date.now() + 86_400_000).toISOString() },
  });
  expect(later.status, later.text).toBe(202);
  await waitForStatus(account.api, invoice.body.data[0].id, 'Sandbox Delivered');

  await signIn(page, sharedServer().baseUrl, email, OWNER_PASSWORD);
  await page.goto(`${sharedServer().baseUrl}/${account.accountId}/messages`);
  await expect(page.locator('[data-message-row="frank@example.org"]')).toContainText('Scheduled');
  await expect(page.locator('[data-message-row="frank@example.org"]')).not.toContainText('Received');

  await page.getByRole('link', { name: 'Your invoice' }).click();
  await expect(page.getByRole('heading', { name: 'Your invoice' })).toBeVisible();
  const facts = page.getByRole('region', { name: 'Message facts' });
  await expect(facts).toContainText('Acme Billing');
  await expect(facts).toContainText(`billing@${domain}`);
  const attachments = page.getByTestId('message-attachments');
  await expect(attachments.locator('[data-attachment="invoice-42.pdf"]')).toContainText('application/pdf · 1.8 KB');
  await expect(attachments.locator('[data-attachment="lines.csv"]')).toContainText(/text\/csv · \d+ B/);
  await capture(page, testInfo, 'message-attachments');

  await page.goto(`${sharedServer().baseUrl}/${account.accountId}/messages/${later.body.data[0].id}`);
  await expect(page.getByRole('heading', { name: 'Tomorrow' })).toBeVisible();
  await expect(page.locator('main')).toContainText('Scheduled for');
  await expect(page.getByRole('heading', { name: 'Attachments (0)' })).toBeVisible();
  await capture(page, testInfo, 'message-scheduled');
});
