import { expect, test } from '../support/dashboard';
import { OWNER_PASSWORD, createAccountWithKey, uniqueEmail } from '../support/cli';
import { ApiClient } from '../support/client';
import { DESKTOP, PHONE, capture, expectNoHorizontalOverflow, ownDashboardServer, signIn } from '../support/dashboard';
import { verifiedDomain } from '../support/sending';
import { newAccount, sharedServer } from '../support/shared';
import { WebhookReceiver, hasValidSignature } from '../support/webhook-receiver';

/**
 * Route pages against a customer endpoint on loopback (so this server runs with
 * ALLOW_PRIVATE_NETWORKS, and the shared one, without it, refuses such URLs).
 */
const stamp = Date.now().toString(36);
let receiver: WebhookReceiver;

test.beforeAll(async () => {
  receiver = await new WebhookReceiver().start();
});
test.afterAll(async () => receiver?.stop());

const server = ownDashboardServer('routes', () => ({
  ALLOW_PRIVATE_NETWORKS: 'true',
  WEBHOOK_POLL_MS: '100',
  WEBHOOK_TIMEOUT_MS: '3000',
  ROUTE_RETRY_SCHEDULE: '1',
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

test('create shows the secret once; edit, disable and enable; a test arrives signed and shows in the deliveries; send again; the domain page lists the route; delete', async ({
  page,
}, testInfo) => {
  test.setTimeout(120_000);
  const { email, accountId, api } = await account('routes');
  const domain = `inbound-${stamp}.example.com`;
  await verifiedDomain(api, domain);
  const path = `/inbound-${stamp}`;
  receiver.answer(path, { status: 500, body: 'the helpdesk is down' }, { status: 200, body: '{"ok":true}' });

  await signIn(page, server().baseUrl, email, OWNER_PASSWORD);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Routes', exact: true }).click();
  await expect(page.getByText('No routes yet')).toBeVisible();
  await expect(page.getByText(/MX record pointing at this server/)).toBeVisible();
  await capture(page, testInfo, 'routes-empty');
  await page.setViewportSize(PHONE);
  await expectNoHorizontalOverflow(page);
  await capture(page, testInfo, 'routes-empty-390');
  await page.setViewportSize(DESKTOP);

  await page.getByRole('button', { name: 'Create route', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Create route' });
  await dialog.getByLabel('Name').fill('Support inbox');
  await dialog.getByLabel('Recipient').fill(`support@${domain}`);
  await dialog.getByLabel('URL').fill(receiver.url(path));
  await dialog.getByLabel('Attachments').check();
  await capture(page, testInfo, 'route-create');
  await dialog.getByRole('button', { name: 'Create route', exact: true }).click();

  const secretDialog = page.getByRole('dialog', { name: /created/ });
  const secret = (await secretDialog.getByTestId('route-secret').textContent())!.trim();
  expect(secret.length).toBeGreaterThanOrEqual(32);
  await expect(secretDialog.getByText('This is the only time Mailstead shows it')).toBeVisible();
  await expect(secretDialog.getByRole('button', { name: 'Copy route secret', exact: true })).toBeVisible();
  await capture(page, testInfo, 'route-secret');
  await page.setViewportSize(PHONE);
  await expectNoHorizontalOverflow(page);
  await capture(page, testInfo, 'route-secret-390', { fullPage: false });
  await page.setViewportSize(DESKTOP);
  await secretDialog.getByRole('button', { name: 'I have stored the secret', exact: true }).click();
  const row = page.locator('[data-route-row="Support inbox"]');
  await expect(row).toContainText('Active');
  await expect(row).toContainText(`support@${domain}`);
  await expect(row).toContainText('No requests yet');
  await page.reload();
  await expect(page.locator('[data-route-row="Support inbox"]')).toBeVisible();
  expect(await page.content()).not.toContain(secret);
  const listed = (await api.get(api.account('/routes'))).body.data[0];
  expect(listed).toMatchObject({
    object: 'route',
    name: 'Support inbox',
    recipient: `support@${domain}`,
    attachments: true,
    enabled: true,
  });
  expect(listed.secret).toBeUndefined();

  // Edit from the list: a wildcard pattern and one more payload option; only what changed is sent.
  await row.getByRole('button', { name: 'Edit Support inbox', exact: true }).click();
  const edit = page.getByRole('dialog', { name: /^Edit/ });
  await expect(edit.getByLabel('Recipient')).toHaveValue(`support@${domain}`);
  await edit.getByLabel('Recipient').fill(`help-*@${domain}`);
  await edit.getByLabel('Strip quoted replies').check();
  await edit.getByRole('button', { name: 'Save changes', exact: true }).click();
  await expect(page.getByTestId('routes-notice')).toContainText('Route “Support inbox” saved.');
  await expect(row).toContainText(`help-*@${domain}`);
  expect((await api.get(api.account(`/routes/${listed.id}`))).body).toMatchObject({
    recipient: `help-*@${domain}`,
    strip_replies: true,
    attachments: true,
  });

  // Disable from the list; the route's page enables it again.
  await row.getByRole('button', { name: 'Disable Support inbox', exact: true }).click();
  await expect(page.getByTestId('routes-notice')).toContainText('Route “Support inbox” disabled.');
  await expect(row).toContainText('Disabled');
  expect((await api.get(api.account(`/routes/${listed.id}`))).body.enabled).toBe(false);
  await capture(page, testInfo, 'routes-list');
  await page.setViewportSize(PHONE);
  await expectNoHorizontalOverflow(page);
  await capture(page, testInfo, 'routes-list-390');
  await page.setViewportSize(DESKTOP);

  await row.getByRole('link', { name: 'Support inbox', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Support inbox' })).toBeVisible();
  await expect(page.getByText('This route is disabled: mail is not sent to it.')).toBeVisible();
  await expect(page.getByText('No deliveries yet')).toBeVisible();
  await page.getByRole('button', { name: 'Enable', exact: true }).click();
  await expect(page.getByTestId('route-notice')).toContainText('Route enabled');
  await expect(page.getByRole('button', { name: 'Disable', exact: true })).toBeVisible();

  // A test: a sample message.routing, signed with the secret shown once; this endpoint answers 500 the first time.
  await page.getByRole('button', { name: 'Send a test', exact: true }).click();
  const testDialog = page.getByRole('dialog', { name: /^Send a test to/ });
  await testDialog.getByRole('button', { name: 'Send test message', exact: true }).click();
  await expect(page.getByTestId('test-outcome').getByRole('alert')).toContainText(
    'message.routing: HTTP 500 from the endpoint',
  );
  expect(receiver.to(path)).toHaveLength(1);
  const arrived = receiver.to(path)[0];
  expect(arrived.json).toMatchObject({ type: 'message.routing', route_id: listed.id });
  expect(hasValidSignature(arrived, secret)).toBe(true);

  const logRow = page.locator('[data-delivery-row="message.routing"]');
  await expect(logRow).toHaveCount(1);
  await expect(logRow).toHaveAttribute('data-delivery-status', 'failed');
  await expect(logRow.getByTestId('delivery-answer')).toContainText(/500 in [\d,]+ ms/);
  await expect(logRow).toContainText('the helpdesk is down');
  await expect(logRow).toContainText('Test');
  await capture(page, testInfo, 'route-detail-desktop');

  await logRow.getByRole('button', { name: /^Details of message\.routing/ }).click();
  const detail = page.getByRole('dialog', { name: /message\.routing/ });
  await expect(detail.locator('[data-attempt="1"]')).toContainText('500 in');
  await expect(detail.locator('[data-attempt="1"]')).toContainText('the helpdesk is down');
  await expect(detail.getByTestId('delivery-payload')).toContainText('"type": "message.routing"');
  await capture(page, testInfo, 'route-delivery-detail');
  await page.setViewportSize(PHONE);
  await expectNoHorizontalOverflow(page);
  await capture(page, testInfo, 'route-delivery-detail-390', { fullPage: false });
  await page.setViewportSize(DESKTOP);
  // Send again: the same delivery (same webhook-id), and this time the endpoint says yes.
  await detail.getByRole('button', { name: 'Send again', exact: true }).click();
  await expect(page.getByTestId('route-notice')).toContainText('Sent again');
  await expect.poll(() => receiver.to(path).length, { timeout: 15_000 }).toBe(2);
  expect(receiver.to(path)[1].headers['webhook-id']).toBe(arrived.headers['webhook-id']);
  expect(hasValidSignature(receiver.to(path)[1], secret)).toBe(true);
  await expect(logRow).toHaveAttribute('data-delivery-status', 'delivered', { timeout: 15_000 });
  await expect(logRow.getByTestId('delivery-answer')).toContainText('200 in');
  await page.setViewportSize(PHONE);
  await expectNoHorizontalOverflow(page);
  await capture(page, testInfo, 'route-detail-390');
  await page.setViewportSize(DESKTOP);

  // The domain's page: Inbound lists the route and the MX record the domain needs.
  await page.goto(`${server().baseUrl}/${accountId}/domains/${domain}`);
  const inbound = page.getByTestId('domain-inbound');
  await expect(inbound.getByRole('heading', { name: 'Inbound', exact: true })).toBeVisible();
  await expect(inbound.locator('[data-inbound-route="Support inbox"]')).toContainText(`help-*@${domain}`);
  await expect(inbound.getByTestId('inbound-mx-value')).toHaveText(/^10 \S+$/);
  const mailHost = (await api.get(api.account(`/domains/${domain}`))).body.dns_records.find(
    (record: { label: string }) => record.label === 'Return path',
  ).content;
  await expect(inbound.getByTestId('inbound-mx-value')).toHaveText(`10 ${mailHost}`);
  await inbound.scrollIntoViewIfNeeded();
  await capture(page, testInfo, 'domain-inbound-desktop');
  await page.setViewportSize(PHONE);
  await expectNoHorizontalOverflow(page);
  await inbound.scrollIntoViewIfNeeded();
  await capture(page, testInfo, 'domain-inbound-390', { fullPage: false });
  await page.setViewportSize(DESKTOP);
  await inbound.getByRole('link', { name: 'Support inbox', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Support inbox' })).toBeVisible();

  // Delete, after saying what goes with it.
  await page.getByRole('button', { name: 'Delete', exact: true }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete route' });
  await expect(confirm).toContainText(receiver.url(path));
  await confirm.getByRole('button', { name: 'Delete route', exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/${accountId}/routes$`));
  await expect(page.getByText('No routes yet')).toBeVisible();
  expect((await api.get(api.account('/routes'))).body.data).toEqual([]);
});

test('bad input: the form says what is missing, and shows the server refusing http:// and private URLs', async ({
  page,
}, testInfo) => {
  const email = uniqueEmail('routes-bad');
  const created = await newAccount('Routes bad input', email);
  const domain = `inbound-bad-${stamp}.example.com`;
  expect((await created.api.post(created.api.account('/domains'), { domain })).status).toBe(201);
  const { baseUrl } = sharedServer();
  await signIn(page, baseUrl, email, OWNER_PASSWORD);
  await page.goto(`${baseUrl}/${created.accountId}/routes`);
  await page.getByRole('button', { name: 'Create route', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Create route' });
  const submit = dialog.getByRole('button', { name: 'Create route', exact: true });

  // No name: the schema the API uses says so before anything is sent.
  await dialog.getByLabel('Recipient').fill(`support@${domain}`);
  await dialog.getByLabel('URL').fill('https://example.com/inbound');
  await submit.click();
  await expect(dialog.locator('[data-field-error="route-name"]')).toHaveText('must not be empty');

  // Refused by this server (no ALLOW_PRIVATE_NETWORKS): each message under the URL, as the server wrote it.
  await dialog.getByLabel('Name').fill('Bad input');
  const cases = [
    { url: 'http://example.com/inbound', message: /https:\/\// },
    { url: 'https://10.1.2.3/inbound', message: /10\.1\.2\.3 is not a public address/ },
    { url: 'https://localhost/inbound', message: /localhost is this machine/ },
  ];
  for (const { url, message } of cases) {
    await dialog.getByLabel('URL').fill(url);
    await submit.click();
    await expect(dialog.locator('[data-field-error="route-url"]')).toHaveText(message);
  }
  await capture(page, testInfo, 'route-create-refused');

  // A recipient at a domain the account does not have: the server's message under the recipient.
  await dialog.getByLabel('URL').fill('https://example.com/inbound');
  await dialog.getByLabel('Recipient').fill('support@not-ours.example.net');
  await submit.click();
  await expect(dialog.locator('[data-field-error="route-recipient"]')).toContainText(
    'not-ours.example.net is not a domain of this account',
  );
  expect((await created.api.get(created.api.account('/routes'))).body.data).toEqual([]);
});
