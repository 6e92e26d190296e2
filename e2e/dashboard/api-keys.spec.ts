import { expect, test } from '../support/dashboard';
import { OWNER_PASSWORD, uniqueEmail } from '../support/cli';
import { capture, signIn } from '../support/dashboard';
import { verifiedDomain, waitForStatus } from '../support/sending';
import { newAccount, sharedServer } from '../support/shared';

test('API keys: create shows the secret once, edit and delete work, server errors sit next to their field', async ({
  page,
}, testInfo) => {
  const email = uniqueEmail('keys-owner');
  const account = await newAccount('Dashboard keys', email);
  const { baseUrl } = sharedServer();
  const stamp = Date.now().toString(36);
  const [ours, alsoOurs] = [`keys-a-${stamp}.example.com`, `keys-b-${stamp}.example.com`];
  for (const domain of [ours, alsoOurs])
    expect((await account.api.post(account.api.account('/domains'), { domain })).status).toBe(201);
  await signIn(page, baseUrl, email, OWNER_PASSWORD);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'API keys' }).click();
  await expect(page.getByRole('heading', { name: 'API keys' })).toBeVisible();
  await expect(page.locator('[data-api-key-row]')).toHaveCount(1); // the CLI's key
  await capture(page, testInfo, 'api-keys');

  await page.getByRole('button', { name: 'Create API key' }).click();
  const dialog = page.getByRole('dialog');
  // Focus starts in the first field, not on the dialog's close button.
  await expect(dialog.getByLabel('Label')).toBeFocused();
  expect(await dialog.getByLabel('Label').evaluate((element) => getComputedStyle(element).outlineStyle)).not.toBe(
    'none',
  );
  // A standard account is offered no sub-account scopes (only a partner has sub accounts).
  await expect(dialog.getByRole('group', { name: 'Scopes' })).toContainText('Templates');
  await expect(dialog.getByRole('group', { name: 'Scopes' })).not.toContainText('Sub accounts');
  await expect(dialog.getByRole('group', { name: 'Scopes' })).not.toContainText('Sub-account API keys');
  await dialog.getByLabel('Label').fill('billing service');
  await dialog.locator('[data-scope="domains:read"]').check();
  await dialog.locator('[data-scope-prefix="messages:send"]').selectOption('all');
  // A value only the server can judge: its 400 lands under the IP field.
  await dialog.getByLabel('IP allow list').fill('10.0.0.0/8\nnot-an-ip');
  await capture(page, testInfo, 'create-api-key');
  await dialog.getByRole('button', { name: 'Create key' }).click();
  await expect(dialog.locator('[data-field-error="api-key-ips"]')).toContainText('"not-an-ip" is not an IP address');
  await dialog.getByLabel('IP allow list').fill('10.0.0.0/8\n127.0.0.1');
  await dialog.getByRole('button', { name: 'Create key' }).click();

  const secretDialog = page.getByRole('dialog', { name: /created/ });
  const secret = (await secretDialog.getByTestId('api-key-secret').textContent())!.trim();
  expect(secret).toMatch(/^aha-sk-[A-Za-z0-9]{64}$/);
  await expect(secretDialog.getByText('This is the only time Mailstead shows it')).toBeVisible();
  await capture(page, testInfo, 'api-key-secret');
  // The secret is real: it authenticates.
  const ping = await page.request.get(`${baseUrl}/v2/ping`, { headers: { authorization: `Bearer ${secret}` } });
  expect(ping.status()).toBe(200);
  await secretDialog.getByRole('button', { name: 'I have stored the key' }).click();

  const row = page.locator('[data-api-key-row="billing service"]');
  await expect(row).toContainText('domains:read, messages:send:all');
  await expect(row).toContainText('10.0.0.0/8, 127.0.0.1/32');
  await page.reload();
  await expect(page.locator('[data-api-key-row="billing service"]')).toBeVisible();
  expect(await page.content()).not.toContain(secret);

  await page.getByRole('button', { name: 'Edit billing service' }).click();
  const edit = page.getByRole('dialog');
  await edit.getByLabel('Label').fill('billing service v2');
  await edit.locator('[data-scope="domains:write"]').check();
  await edit.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.locator('[data-api-key-row="billing service v2"]')).toContainText('+1 more');

  // "Some domains" is a pick of the account's own domains, not free text.
  await page.getByRole('button', { name: 'Edit billing service v2' }).click();
  await edit.locator('[data-scope-prefix="messages:read"]').selectOption('some');
  const picks = edit.getByRole('group', { name: 'Domains for messages:read' });
  await expect(picks.locator('[data-scope-domain]')).toHaveCount(2);
  await expect(picks.getByRole('textbox')).toHaveCount(0);
  // None ticked yet: the server says so under Scopes.
  await edit.getByRole('button', { name: 'Save changes' }).click();
  await expect(edit.locator('[data-field-error="scopes"]')).toBeVisible();
  await picks.getByLabel(ours).check();
  await picks.getByLabel(alsoOurs).check();
  await picks.getByLabel(alsoOurs).uncheck();
  await capture(page, testInfo, 'api-key-some-domains');
  await edit.getByRole('button', { name: 'Save changes' }).click();
  await expect(edit).toBeHidden();
  const saved = (await account.api.get(account.api.account('/api-keys'))).body.data.find(
    (key: { label: string }) => key.label === 'billing service v2',
  );
  const savedScopes = saved.scopes.map((scope: { scope: string }) => scope.scope);
  expect(savedScopes).toContain(`messages:read:{${ours}}`);
  expect(savedScopes).not.toContain(`messages:read:{${alsoOurs}}`);

  await page.getByRole('button', { name: 'Delete billing service v2' }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete API key' });
  await expect(confirm).toContainText('billing service v2');
  // A destructive question starts on its safe answer, with a ring that shows it (never on "✕").
  const cancel = confirm.getByRole('button', { name: 'Cancel' });
  await expect(cancel).toBeFocused();
  expect(await cancel.evaluate((element) => getComputedStyle(element).outlineStyle)).not.toBe('none');
  await capture(page, testInfo, 'delete-api-key');
  await confirm.getByRole('button', { name: 'Delete key' }).click();
  await expect(page.locator('[data-api-key-row="billing service v2"]')).toHaveCount(0);
  await expect(page.getByTestId('api-keys-notice')).toContainText('API key “billing service v2” deleted');
  const after = await page.request.get(`${baseUrl}/v2/ping`, { headers: { authorization: `Bearer ${secret}` } });
  expect(after.status()).toBe(401);
  expect(account.accountId).toBeTruthy();
});

test('settings: the account fields save through PUT /v2/accounts/{id}', async ({ page }, testInfo) => {
  const email = uniqueEmail('settings-owner');
  const account = await newAccount('Dashboard settings', email);
  await signIn(page, sharedServer().baseUrl, email, OWNER_PASSWORD);
  await page.goto(`${sharedServer().baseUrl}/${account.accountId}/settings`);
  await page.getByLabel('Name').fill('Renamed in the dashboard');
  await page.getByLabel('Track opens').check();
  // A bare domain, as the sub-account form takes it, is kept as its web address.
  await page.getByLabel('Website').fill('Acme.Example.com');
  await page.getByLabel('Message content (days)').fill('31');
  await page.getByRole('button', { name: 'Save settings' }).click();
  await expect(page.locator('[data-field-error="data"]')).toContainText('between 0 and 30');
  await page.getByLabel('Message content (days)').fill('3');
  await page.getByRole('button', { name: 'Save settings' }).click();
  await expect(page.getByText('Settings saved.')).toBeVisible();
  await capture(page, testInfo, 'settings');
  const saved = await account.api.get(account.api.account());
  expect(saved.body).toMatchObject({
    name: 'Renamed in the dashboard',
    website: 'https://acme.example.com',
    track_opens: true,
    message_data_retention: 3,
  });
});

test('sandbox mode: a key switched to sandbox in the dashboard sends nothing out', async ({ page }, testInfo) => {
  const email = uniqueEmail('sandbox-owner');
  const account = await newAccount('Dashboard sandbox', email);
  const domain = `sandbox-${Date.now().toString(36)}.example.com`;
  await verifiedDomain(account.api, domain);
  await signIn(page, sharedServer().baseUrl, email, OWNER_PASSWORD);
  await page.goto(`${sharedServer().baseUrl}/${account.accountId}/api-keys`);
  await page.getByRole('button', { name: 'Use sandbox for Created by mailstead accounts create' }).click();
  // It changes what happens to the key's mail at once: the dialog says so before anything changes.
  const confirm = page.getByRole('dialog', { name: /Use sandbox for/ });
  await expect(confirm).toContainText('Messages sent with this key will not be delivered');
  await capture(page, testInfo, 'sandbox-confirm');
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(page.locator('[data-api-key-row="Created by mailstead accounts create"]')).toContainText('Live');
  await page.getByRole('button', { name: 'Use sandbox for Created by mailstead accounts create' }).click();
  await confirm.getByRole('button', { name: 'Use sandbox' }).click();
  await expect(page.getByTestId('api-keys-notice')).toContainText(
    'is in sandbox mode: mail sent with it is no longer delivered',
  );
  await expect(page.locator('[data-api-key-row="Created by mailstead accounts create"]')).toContainText('Sandbox');
  await capture(page, testInfo, 'sandbox-key');
  const sent = await account.api.post(account.api.account('/messages'), {
    from: { email: `a@${domain}` },
    recipients: [{ email: 'someone@example.org' }],
    subject: 's',
    text_content: 't',
  });
  expect(sent.status).toBe(202);
  await waitForStatus(account.api, sent.body.data[0].id, 'Sandbox Delivered');
  await page.getByRole('button', { name: 'Go live with Created by mailstead accounts create' }).click();
  await page
    .getByRole('dialog', { name: /Go live with/ })
    .getByRole('button', { name: 'Go live' })
    .click();
  await expect(page.getByTestId('api-keys-notice')).toContainText(
    'is live: mail sent with it is delivered from now on',
  );
  await expect(page.locator('[data-api-key-row="Created by mailstead accounts create"]')).toContainText('Live');
});
