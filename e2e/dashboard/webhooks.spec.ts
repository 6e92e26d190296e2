import { expect, test } from '../support/dashboard';
import { OWNER_PASSWORD, createAccountWithKey, runCli, uniqueEmail } from '../support/cli';
import { ApiClient } from '../support/client';
import { DESKTOP, PHONE, capture, expectNoHorizontalOverflow, ownDashboardServer, signIn } from '../support/dashboard';
import { verifiedDomain } from '../support/sending';
import { WebhookReceiver, hasValidSignature } from '../support/webhook-receiver';

/**
 * Webhook pages against a customer endpoint on loopback (so the server runs with
 * ALLOW_PRIVATE_NETWORKS), with retries fast and the automatic disable after two failures in a row.
 */
const stamp = Date.now().toString(36);
let receiver: WebhookReceiver;

test.beforeAll(async () => {
  receiver = await new WebhookReceiver().start();
});
test.afterAll(async () => receiver?.stop());

const server = ownDashboardServer('webhooks', () => ({
  ALLOW_PRIVATE_NETWORKS: 'true',
  DELIVERY_POLL_MS: '100',
  WEBHOOK_POLL_MS: '100',
  WEBHOOK_TIMEOUT_MS: '3000',
  WEBHOOK_RETRY_SCHEDULE: '1',
  WEBHOOK_DISABLE_AFTER_FAILURES: '2',
  WEBHOOK_DISABLE_AFTER_SECONDS: '0',
}));

async function account(name: string) {
  const email = uniqueEmail(name);
  const created = await createAccountWithKey(server().env, name, email);
  return {
    email,
    accountId: created.accountId,
    api: new ApiClient(server().baseUrl, server().dataDir, created.apiKey, created.accountId),
  };
}

test('create shows the secret once; a test event arrives signed; the log shows the attempt; send again delivers it', async ({
  page,
}, testInfo) => {
  test.setTimeout(120_000);
  const { email, accountId, api } = await account('webhooks');
  const domain = `hooks-${stamp}.example.com`;
  await api.post(api.account('/domains'), { domain });
  const path = `/orders-${stamp}`;
  receiver.answer(path, { status: 500, body: 'the order service is down' }, { status: 200, body: '{"ok":true}' });

  await signIn(page, server().baseUrl, email, OWNER_PASSWORD);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Webhooks' }).click();
  await expect(page.getByText('No webhooks yet')).toBeVisible();
  await capture(page, testInfo, 'webhooks-empty');

  await page.getByRole('button', { name: 'Create webhook' }).click();
  const dialog = page.getByRole('dialog', { name: 'Create webhook' });
  await dialog.getByLabel('Name').fill('Order service');
  // A URL the API refuses: its message lands under the field.
  await dialog.getByLabel('URL').fill('ftp://example.com/hook');
  await dialog.getByRole('button', { name: 'Create webhook' }).click();
  await expect(dialog.locator('[data-field-error="webhook-url"]')).toContainText('https://');
  await dialog.getByLabel('URL').fill(receiver.url(path));
  await dialog.getByLabel('Opened').check();
  await capture(page, testInfo, 'webhook-create');
  await dialog.getByRole('button', { name: 'Create webhook' }).click();

  const secretDialog = page.getByRole('dialog', { name: /created/ });
  const secret = (await secretDialog.getByTestId('webhook-secret').textContent())!.trim();
  expect(secret.length).toBeGreaterThanOrEqual(32);
  await expect(secretDialog.getByText('This is the only time Mailstead shows it')).toBeVisible();
  await expect(secretDialog.getByRole('button', { name: 'Copy webhook secret' })).toBeVisible();
  await capture(page, testInfo, 'webhook-secret');
  await secretDialog.getByRole('button', { name: 'I have stored the secret' }).click();
  const row = page.locator('[data-webhook-row="Order service"]');
  await expect(row).toContainText('Active');
  await expect(row).toContainText('message.delivered, message.failed, message.bounced, message.opened');
  await expect(row).toContainText('All domains');
  await page.reload();
  await expect(page.locator('[data-webhook-row="Order service"]')).toBeVisible();
  expect(await page.content()).not.toContain(secret);
  const listed = (await api.get(api.account('/webhooks'))).body.data[0];
  expect(listed.secret).toBeUndefined();

  // A test event: signed with the secret shown once; this endpoint answers 500 the first time.
  await page.getByRole('button', { name: 'Send a test event to Order service' }).click();
  const testDialog = page.getByRole('dialog', { name: /Send a test event/ });
  for (const type of ['message.failed', 'message.bounced', 'message.opened'])
    await testDialog.getByLabel(type).uncheck();
  await expect(testDialog.getByLabel('message.delivered')).toBeChecked();
  await testDialog.getByRole('button', { name: 'Send test event' }).click();
  // A failure is red (role=alert) and says what failed; never a green "sent".
  const failure = page.getByTestId('test-outcome');
  await expect(failure).toHaveAttribute('data-tone', 'error');
  await expect(failure.getByRole('alert')).toContainText('Test to “Order service” failed');
  await expect(failure.getByRole('alert')).toContainText('message.delivered: HTTP 500 from the endpoint');
  await expect(failure.getByRole('alert')).toHaveClass(/bg-red-50/);
  await capture(page, testInfo, 'webhook-test-failed');
  await page.setViewportSize(PHONE);
  await capture(page, testInfo, 'webhook-test-failed-390');
  await page.setViewportSize(DESKTOP);
  expect(receiver.to(path)).toHaveLength(1);
  const arrived = receiver.to(path)[0];
  expect(arrived.json).toMatchObject({ type: 'message.delivered', webhook_id: listed.id });
  expect(hasValidSignature(arrived, secret)).toBe(true);

  // The webhook's page: its delivery log shows the attempt, with the endpoint's answer.
  await failure.getByRole('link', { name: 'Open the delivery log' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Order service' })).toBeVisible();
  const logRow = page.locator('[data-delivery-row="message.delivered"]');
  await expect(logRow).toHaveCount(1);
  await expect(logRow).toHaveAttribute('data-delivery-status', 'failed');
  await expect(logRow.getByTestId('delivery-answer')).toContainText(/500 in [\d,]+ ms/);
  await expect(logRow).toContainText('the order service is down');
  await expect(logRow).toContainText('Test');
  await capture(page, testInfo, 'webhook-log-desktop');

  await logRow.getByRole('button', { name: /^Details of message.delivered/ }).click();
  const detail = page.getByRole('dialog', { name: /message\.delivered/ });
  await expect(detail.locator('[data-attempt="1"]')).toContainText('500 in');
  await expect(detail.locator('[data-attempt="1"]')).toContainText('the order service is down');
  await expect(detail.getByTestId('delivery-payload')).toContainText('"type": "message.delivered"');
  await capture(page, testInfo, 'webhook-delivery-detail');
  // Send again: the same event (same webhook-id), and this time the endpoint says yes.
  await detail.getByRole('button', { name: 'Send again' }).click();
  await expect(page.getByTestId('webhook-notice')).toContainText('Sent again');
  await expect.poll(() => receiver.to(path).length, { timeout: 15_000 }).toBe(2);
  expect(receiver.to(path)[1].headers['webhook-id']).toBe(arrived.headers['webhook-id']);
  expect(hasValidSignature(receiver.to(path)[1], secret)).toBe(true);
  await expect(logRow).toHaveAttribute('data-delivery-status', 'delivered', { timeout: 15_000 });
  await expect(logRow.getByTestId('delivery-answer')).toContainText('200 in');
  await logRow.getByRole('button', { name: /^Details of message.delivered/ }).click();
  await expect(detail.locator('[data-attempt="2"]')).toContainText('200 in');
  await expect(detail.locator('[data-attempt="2"]')).toContainText('{"ok":true}');
  await detail.getByRole('button', { name: 'Close' }).first().click();
  // A test the endpoint accepts: green (role=status), with its answer.
  await page.getByRole('button', { name: 'Send test event', exact: true }).click();
  await page
    .getByRole('dialog', { name: /Send a test event/ })
    .getByRole('button', { name: 'Send test event' })
    .click();
  const success = page.getByTestId('test-outcome');
  await expect(success).toHaveAttribute('data-tone', 'success');
  await expect(success.getByRole('status')).toContainText('message.delivered: delivered (HTTP 200)');
  await expect(success.getByRole('status')).toHaveClass(/bg-green-50/);
  await expect(success.getByRole('alert')).toHaveCount(0);
  await capture(page, testInfo, 'webhook-test-delivered');
  await page.setViewportSize(PHONE);
  await expectNoHorizontalOverflow(page);
  await capture(page, testInfo, 'webhook-log-390');
  await page.setViewportSize(DESKTOP);

  // Edit: only some domains, one more event, then off.
  await page.getByRole('button', { name: 'Edit', exact: true }).click();
  const edit = page.getByRole('dialog', { name: /^Edit/ });
  await edit.getByLabel('Only some domains').check();
  await edit.getByLabel(domain, { exact: true }).check();
  await edit.getByLabel('Clicked').check();
  await edit.getByLabel('Enabled').uncheck();
  await edit.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByTestId('webhook-notice')).toContainText('Webhook saved.');
  await expect(page.getByText('This webhook is disabled: events are not sent to it.')).toBeVisible();
  const saved = (await api.get(api.account(`/webhooks/${listed.id}`))).body;
  expect(saved).toMatchObject({ scope: 'scoped', domains: [domain], on_clicked: true, enabled: false });

  // Delete, after saying what goes with it.
  await page.getByRole('button', { name: 'Delete', exact: true }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete webhook' });
  await expect(confirm).toContainText(receiver.url(path));
  await confirm.getByRole('button', { name: 'Delete webhook' }).click();
  await expect(page).toHaveURL(new RegExp(`/${accountId}/webhooks$`));
  await expect(page.getByText('No webhooks yet')).toBeVisible();
});

test('a webhook that keeps failing is turned off by Mailstead, and the pages say so and why; an Analyst only reads', async ({
  page,
}, testInfo) => {
  const { email, accountId, api } = await account('webhooks-failing');
  const domain = `hooks-fail-${stamp}.example.com`;
  await verifiedDomain(api, domain);
  const path = `/flaky-${stamp}`;
  receiver.answer(path, { status: 503, body: 'maintenance' });
  const created = await api.post(api.account('/webhooks'), {
    name: 'Flaky endpoint',
    url: receiver.url(path),
    scope: 'global',
    on_reception: true,
  });
  expect(created.status).toBe(201);
  // A real event: a sandbox message is accepted (message.reception) without leaving the host.
  const sent = await api.post(api.account('/messages'), {
    from: { email: `hello@${domain}` },
    recipients: [{ email: `someone-${stamp}@example.org` }],
    subject: 'Hi',
    text_content: 'Hi',
    sandbox: true,
  });
  expect(sent.status).toBe(202);
  await expect
    .poll(async () => (await api.get(api.account(`/webhooks/${created.body.id}`))).body.enabled, { timeout: 20_000 })
    .toBe(false);

  await signIn(page, server().baseUrl, email, OWNER_PASSWORD);
  await page.goto(`${server().baseUrl}/${accountId}/webhooks`);
  const row = page.locator('[data-webhook-row="Flaky endpoint"]');
  await expect(row).toContainText('Disabled by Mailstead');
  await expect(row.getByTestId('disabled-reason')).not.toBeEmpty();
  await expect(page.getByText(/turned off after failing again and again/)).toBeVisible();
  await capture(page, testInfo, 'webhooks-auto-disabled-desktop');
  await page.setViewportSize(PHONE);
  await expectNoHorizontalOverflow(page);
  await capture(page, testInfo, 'webhooks-auto-disabled-390');
  await page.setViewportSize(DESKTOP);
  await row.getByRole('link', { name: 'Flaky endpoint' }).click();
  await expect(page.getByText(/^Mailstead turned this webhook off/)).toBeVisible();
  await expect(page.locator('[data-delivery-row="message.reception"]').first()).toContainText('503 in');
  await capture(page, testInfo, 'webhook-auto-disabled-page');
  // Enabling it again clears why and when, and the failure run starts over.
  await page.getByRole('button', { name: 'Enable', exact: true }).click();
  await expect(page.getByTestId('webhook-notice')).toContainText('Webhook enabled');
  await expect(page.getByText(/^Mailstead turned this webhook off/)).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Disable', exact: true })).toBeVisible();
  expect((await api.get(api.account(`/webhooks/${created.body.id}`))).body).toMatchObject({
    enabled: true,
    errors_since_last_success: 0,
    disabled_reason: null,
  });

  // An Analyst reads the same pages without the buttons that would change anything.
  const analystEmail = uniqueEmail('hooks-analyst');
  expect(
    (
      await runCli(
        [
          'accounts',
          'add-member',
          accountId,
          '--email',
          analystEmail,
          '--password',
          'analyst password',
          '--role',
          'Analyst',
        ],
        server().env,
      )
    ).code,
  ).toBe(0);
  await page.context().clearCookies();
  await signIn(page, server().baseUrl, analystEmail, 'analyst password');
  await page.goto(`${server().baseUrl}/${accountId}/webhooks`);
  await expect(page.locator('[data-webhook-row="Flaky endpoint"]')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Create webhook' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: /^(Edit|Delete|Send a test event to) Flaky endpoint$/ })).toHaveCount(
    0,
  );
  await page.locator('[data-webhook-row="Flaky endpoint"]').getByRole('link', { name: 'Flaky endpoint' }).click();
  await expect(page.getByRole('button', { name: 'Send test event' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Send again' })).toHaveCount(0);
  // The API refuses the write all the same, with its own message.
  const refused = await page.evaluate(
    async ({ accountId, webhookId }) =>
      (
        await fetch(`/v2/accounts/${accountId}/webhooks/${webhookId}/trigger`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ events: ['message.delivered'] }),
        })
      ).status,
    { accountId, webhookId: created.body.id },
  );
  expect(refused).toBe(403);
});
