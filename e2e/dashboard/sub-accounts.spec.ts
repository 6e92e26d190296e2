import { expect, test } from '../support/dashboard';
import { OWNER_PASSWORD, runCli, uniqueEmail } from '../support/cli';
import { DESKTOP, PHONE, capture, expectNoHorizontalOverflow, signIn } from '../support/dashboard';
import { newAccount, sharedServer } from '../support/shared';

/**
 * The Sub accounts page: a partner creates a sub account, suspends it with a reason, unsuspends and
 * deletes it, and sees the month's usage; a standard account is told it is a partner feature.
 */
test('a partner creates, suspends, unsuspends and deletes a sub account, at desktop and phone widths', async ({
  page,
}, testInfo) => {
  test.setTimeout(120_000);
  const ownerEmail = uniqueEmail('partner-owner');
  const account = await newAccount('Partner page', ownerEmail);
  const { baseUrl, cliEnv } = sharedServer();
  expect((await runCli(['accounts', 'set-tier', account.accountId, 'partner'], cliEnv)).code).toBe(0);
  await page.setViewportSize(DESKTOP);
  await signIn(page, baseUrl, ownerEmail, OWNER_PASSWORD);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Sub accounts' }).click();
  await expect(page).toHaveURL(new RegExp(`/${account.accountId}/sub-accounts$`));
  await expect(page.getByRole('heading', { name: 'Sub accounts', level: 1 })).toBeVisible();
  await expect(page.getByText('No sub accounts yet')).toBeVisible();

  // The API's own rules land on the form.
  await page.getByRole('button', { name: 'Create sub account' }).first().click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Name').fill('Acme');
  await dialog.getByLabel('Website').fill('not a domain');
  await dialog.getByRole('button', { name: 'Create sub account' }).click();
  await expect(dialog.getByText(/domain name/)).toBeVisible();
  // The same two forms as the account's Website: a domain or its web address; kept as the domain.
  await dialog.getByLabel('Website').fill('https://Acme.Example.com/');
  await dialog.getByLabel('Monthly credit').fill('5000');
  await dialog.getByRole('button', { name: 'Create sub account' }).click();
  await expect(page.getByText('Sub account Acme created.')).toBeVisible();
  const row = page.locator('[data-sub-account-row="Acme"]');
  await expect(row).toContainText('acme.example.com');
  await expect(row).toContainText('of 5,000 allowed');
  await expect(row.getByTestId('sub-account-status')).toHaveText('Active');
  await expect(page.getByTestId('usage-total')).toHaveText('0');
  await capture(page, testInfo, 'sub-accounts');

  await row.getByRole('button', { name: 'Suspend Acme' }).click();
  const suspend = page.getByRole('dialog', { name: 'Suspend sub account' });
  await expect(suspend.getByRole('button', { name: 'Suspend' })).toBeDisabled();
  await suspend.getByLabel('Reason').fill('Unpaid invoice');
  await suspend.getByRole('button', { name: 'Suspend' }).click();
  await expect(row.getByTestId('sub-account-status')).toHaveText('Suspended');
  await expect(row).toContainText('Unpaid invoice');
  const listed = await account.api.get(account.api.account('/sub-accounts'));
  expect(listed.body.data[0]).toMatchObject({ name: 'Acme', status: 'suspended', suspension_reason: 'Unpaid invoice' });

  await page.setViewportSize(PHONE);
  await expectNoHorizontalOverflow(page);
  await capture(page, testInfo, 'sub-accounts-phone');
  await page.setViewportSize(DESKTOP);

  await row.getByRole('button', { name: 'Unsuspend Acme' }).click();
  await page.getByRole('dialog', { name: 'Unsuspend sub account' }).getByRole('button', { name: 'Unsuspend' }).click();
  await expect(row.getByTestId('sub-account-status')).toHaveText('Active');

  await row.getByRole('button', { name: 'Delete Acme' }).click();
  await page
    .getByRole('dialog', { name: 'Delete sub account' })
    .getByRole('button', { name: 'Delete sub account' })
    .click();
  await expect(page.getByText('Acme was deleted.')).toBeVisible();
  await expect(row).toHaveCount(0);
  expect((await account.api.get(account.api.account('/sub-accounts'))).body.data).toEqual([]);
});

test('a standard account has no Sub accounts in its navigation, and the page (opened by address) says it is a partner feature', async ({
  page,
}, testInfo) => {
  const email = uniqueEmail('standard-owner');
  const account = await newAccount('Standard page', email);
  await signIn(page, sharedServer().baseUrl, email, OWNER_PASSWORD);
  const nav = page.getByRole('navigation', { name: 'Main' });
  await expect(nav.getByRole('link', { name: 'Settings' })).toBeVisible();
  await expect(nav.getByRole('link', { name: 'Sub accounts' })).toHaveCount(0);
  await page.goto(`${sharedServer().baseUrl}/${account.accountId}/sub-accounts`);
  await expect(page.getByText('Sub accounts are not available here')).toBeVisible();
  await expect(page.getByText(/partner-tier feature/)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Create sub account' })).toHaveCount(0);
  await capture(page, testInfo, 'sub-accounts-standard');
});
