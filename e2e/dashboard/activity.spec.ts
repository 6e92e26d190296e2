import { expect, test } from '../support/dashboard';
import { OWNER_PASSWORD, runCli, uniqueEmail } from '../support/cli';
import { PHONE, capture, expectNoHorizontalOverflow, signIn } from '../support/dashboard';
import { newAccount, sharedServer } from '../support/shared';

const DESKTOP_WIDE = { width: 1440, height: 900 } as const;

test('Activity: who changed what, filtered by who, action family, resource and day in the URL; rows link to their resource', async ({
  page,
}, testInfo) => {
  const email = uniqueEmail('activity-owner');
  const account = await newAccount('Dashboard activity', email);
  const { api } = account;
  const { baseUrl, cliEnv } = sharedServer();
  const stamp = Date.now().toString(36);
  const domain = `activity-${stamp}.example.com`;
  expect((await api.post(api.account('/domains'), { domain })).status).toBe(201);
  const list = await api.post(api.account('/lists'), { name: 'Readers' });
  expect((await api.put(api.account(`/lists/${list.body.id}`), { name: 'Weekly readers' })).status).toBe(200);
  expect((await runCli(['accounts', 'set-tier', account.accountId, 'partner'], cliEnv)).code).toBe(0);

  await page.setViewportSize(DESKTOP_WIDE);
  await signIn(page, baseUrl, email, OWNER_PASSWORD);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Activity' }).click();
  await expect(page.getByRole('heading', { name: 'Activity' })).toBeVisible();
  const rows = page.getByTestId('audit-event');
  // Newest first: this sign-in, the operator's tier change, the list's rename and creation, the
  // domain; the account's creation.
  await expect(rows).toHaveCount(6);
  await expect(rows.first()).toContainText('Signed in');
  await expect(rows.first()).toContainText(email);
  await expect(rows.nth(1)).toContainText('Account changed');
  await expect(rows.nth(1)).toContainText('Operator (CLI)');
  await expect(rows.nth(2)).toContainText('List changed');
  await expect(rows.nth(2)).toContainText('Fields: name');
  await expect(rows.nth(2)).toContainText('Created by mailstead accounts create');
  await expect(rows.nth(2)).toContainText('API key');
  await capture(page, testInfo, 'activity');

  // An action family narrows the list, and the URL keeps it.
  await page.getByLabel('Action').fill('list.*');
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page).toHaveURL(/action=list\.\*/);
  await expect(rows).toHaveCount(2);
  await page.reload();
  await expect(rows).toHaveCount(2);
  await expect(page.getByLabel('Action')).toHaveValue('list.*');

  // The resource links to its page.
  await rows.first().getByRole('link', { name: list.body.id }).click();
  await expect(page).toHaveURL(new RegExp(`/lists/${list.body.id}$`));
  await expect(page.getByRole('heading', { name: 'Weekly readers' })).toBeVisible();
  await page.goBack();

  // Who: only the operator.
  await page.goto(`${baseUrl}/${account.accountId}/activity?actor_type=operator`);
  await expect(rows).toHaveCount(2);
  await expect(page.getByLabel('Who')).toHaveValue('operator');

  // A day with nothing in it says so.
  await page.goto(`${baseUrl}/${account.accountId}/activity?from=2001-01-01&to=2001-01-02`);
  await expect(page.getByText('No activity matches')).toBeVisible();
  await capture(page, testInfo, 'activity-empty');

  await page.setViewportSize(PHONE);
  await page.goto(`${baseUrl}/${account.accountId}/activity`);
  await expect(rows).toHaveCount(6);
  await expectNoHorizontalOverflow(page);
  await capture(page, testInfo, 'activity-phone');
});

test('Activity: a bad filter is explained, not a crash', async ({ page }) => {
  const email = uniqueEmail('activity-bad');
  const account = await newAccount('Dashboard activity filters', email);
  await signIn(page, sharedServer().baseUrl, email, OWNER_PASSWORD);
  await page.goto(`${sharedServer().baseUrl}/${account.accountId}/activity?action=not%20an%20action`);
  const alert = page.getByRole('alert').filter({ hasText: 'Activity could not be loaded' });
  await expect(alert).toContainText('action: must be an action such as domain.create');
});
