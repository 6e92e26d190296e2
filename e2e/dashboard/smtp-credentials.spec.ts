import { expect, test } from '../support/dashboard';
import { OWNER_PASSWORD, uniqueEmail } from '../support/cli';
import { DESKTOP, PHONE, capture, expectNoHorizontalOverflow, signIn } from '../support/dashboard';
import { newAccount, sharedServer } from '../support/shared';

/** The SMTP credentials page: connection settings, create (password shown once), list, delete with confirmation; desktop and phone. */
test('create shows the password once with the connection settings; the list shows the credential; delete asks first', async ({
  page,
}, testInfo) => {
  const email = uniqueEmail('smtp-owner');
  const account = await newAccount('Dashboard SMTP', email);
  const domain = `smtp-dash-${Date.now().toString(36)}.example.com`;
  expect((await account.api.post(account.api.account('/domains'), { domain })).status).toBe(201);
  const { baseUrl } = sharedServer();

  await page.setViewportSize(DESKTOP);
  await signIn(page, baseUrl, email, OWNER_PASSWORD);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'SMTP credentials' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'SMTP credentials' })).toBeVisible();
  await expect(page.getByText('No SMTP credentials yet')).toBeVisible();
  await expect(page.getByTestId('settings-host')).toHaveText(new URL(baseUrl).hostname);
  await expect(page.getByTestId('settings-port')).toHaveText(/^\d+$/);
  await expect(page.getByTestId('settings-security')).toContainText('STARTTLS');
  await expect(page.getByTestId('settings-tls-port')).toHaveText(/^\d+$/);
  await capture(page, testInfo, 'smtp-credentials-empty');

  await page.getByRole('button', { name: 'Create SMTP credential' }).click();
  const dialog = page.getByRole('dialog', { name: 'Create SMTP credential' });
  await dialog.getByLabel('Name').fill('Billing app');
  await dialog.getByLabel(/Only some domains/).check();
  // Scoped with no domain: the schema's message lands under the domains.
  await dialog.getByRole('button', { name: 'Create credential' }).click();
  await expect(dialog.locator('[data-field-error="domains"]')).toBeVisible();
  await dialog.getByLabel(domain).check();
  await capture(page, testInfo, 'smtp-credential-create');
  await dialog.getByRole('button', { name: 'Create credential' }).click();

  const created = page.getByRole('dialog', { name: /created/ });
  const password = (await created.getByTestId('smtp-password').textContent())!.trim();
  const username = (await created.getByTestId('smtp-username').textContent())!.trim();
  expect(password).toMatch(/^[A-Za-z0-9]{40}$/);
  expect(username).toMatch(/^smtp-/);
  await expect(created.getByTestId('smtp-host')).toHaveText(new URL(baseUrl).hostname);
  await expect(created.getByText('This is the only time Mailstead shows it')).toBeVisible();
  await expect(created.getByRole('button', { name: 'Copy password' })).toBeVisible();
  await capture(page, testInfo, 'smtp-credential-password');
  await created.getByRole('button', { name: 'I have stored the password' }).click();

  const row = page.locator('[data-smtp-credential-row="Billing app"]');
  await expect(row).toContainText(username);
  await expect(row).toContainText(domain);
  await page.reload();
  await expect(page.locator('[data-smtp-credential-row="Billing app"]')).toBeVisible();
  expect(await page.content()).not.toContain(password);
  const listed = (await account.api.get(account.api.account('/smtp-credentials'))).body.data;
  expect(listed).toEqual([
    expect.objectContaining({ name: 'Billing app', username, scope: 'scoped', domains: [domain] }),
  ]);
  await capture(page, testInfo, 'smtp-credentials-desktop');

  await page.setViewportSize(PHONE);
  await expect(page.locator('[data-smtp-credential-row="Billing app"]')).toBeVisible();
  await expectNoHorizontalOverflow(page);
  await capture(page, testInfo, 'smtp-credentials-phone');
  await page.setViewportSize(DESKTOP);

  await page.getByRole('button', { name: 'Delete Billing app' }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete SMTP credential' });
  await expect(confirm).toContainText(username);
  await capture(page, testInfo, 'smtp-credential-delete');
  await confirm.getByRole('button', { name: 'Delete credential' }).click();
  await expect(page.getByText('SMTP credential “Billing app” deleted.')).toBeVisible();
  await expect(page.locator('[data-smtp-credential-row="Billing app"]')).toHaveCount(0);
  expect((await account.api.get(account.api.account(`/smtp-credentials/${listed[0].id}`))).status).toBe(404);
});
