import { expect, test } from '../support/dashboard';
import { OWNER_PASSWORD, runCli, uniqueEmail } from '../support/cli';
import {
  DESKTOP,
  PHONE,
  capture,
  expectChartTicksApart,
  expectNoHorizontalOverflow,
  signIn,
} from '../support/dashboard';
import { verifiedDomain } from '../support/sending';
import { newAccount, sharedServer } from '../support/shared';

/**
 * A partner's people in its sub accounts: the switcher lists them under the partner, the sub account
 * page charts its usage per month, a partner's Analyst is an Analyst in the child, and Settings
 * holds the Reputation Shield switches and the automatic pause limits.
 */
async function partnerWithChild(ownerEmail: string) {
  const partner = await newAccount('Switch partner', ownerEmail);
  const { cliEnv } = sharedServer();
  expect((await runCli(['accounts', 'set-tier', partner.accountId, 'partner'], cliEnv)).code).toBe(0);
  const created = await partner.api.post(partner.api.account('/sub-accounts'), {
    name: 'Switch child',
    website: 'switch-child.example.com',
    monthly_credit: 10,
  });
  expect(created.status, created.text).toBe(201);
  return { partner, childId: created.body.id as string };
}

test("a partner's owner finds the sub account under the partner, charts its months and opens it", async ({
  page,
}, testInfo) => {
  test.setTimeout(120_000);
  const ownerEmail = uniqueEmail('switch-owner');
  const { partner, childId } = await partnerWithChild(ownerEmail);
  // Two messages accepted this month by the child.
  const key = await partner.api.post(partner.api.account(`/sub-accounts/${childId}/api-keys`), {
    label: 'child',
    scopes: ['*'],
  });
  const child = partner.api.with(key.body.secret_key, childId);
  const domain = `switch-${Date.now().toString(36)}.example.com`;
  await verifiedDomain(child, domain);
  const sent = await child.post(child.account('/messages'), {
    from: { email: `app@${domain}` },
    recipients: [{ email: 'a@example.org' }, { email: 'b@example.org' }],
    subject: 's',
    text_content: 'x',
    sandbox: true,
  });
  expect(sent.status, sent.text).toBe(202);

  const { baseUrl } = sharedServer();
  await page.setViewportSize(DESKTOP);
  await signIn(page, baseUrl, ownerEmail, OWNER_PASSWORD);
  await page.goto(`${baseUrl}/${partner.accountId}/sub-accounts`);
  const switcher = page.getByLabel('Switch account');
  await expect(switcher.locator('optgroup[label="Switch partner and its sub accounts"] option')).toHaveText([
    'Switch partner (Administrator)',
    '↳ Switch child (sub account, Administrator)',
  ]);

  await page
    .locator('[data-sub-account-row="Switch child"]')
    .getByRole('link', { name: 'Switch child', exact: true })
    .click();
  await expect(page).toHaveURL(new RegExp(`/${partner.accountId}/sub-accounts/${childId}$`));
  await expect(page.getByRole('heading', { name: 'Switch child', exact: true, level: 1 })).toBeVisible();
  await expect(page.locator('[data-figure="monthly-credit"] [data-value]')).toHaveText('10');
  const chart = page.locator('[data-chart="sub-account-usage"]');
  await expect(chart.getByRole('heading', { name: 'Usage per month', exact: true })).toBeVisible();
  await expect(chart.locator('.recharts-bar-rectangle').first()).toBeAttached();
  await expectChartTicksApart(page, 'sub-account-usage');
  await chart.getByText('Show the numbers', { exact: true }).click();
  const rows = chart.locator('[data-table="sub-account-usage"] tbody tr');
  await expect(rows).toHaveCount(12);
  await expect(rows.last().locator('[data-column="accepted"]')).toHaveText('2');
  await capture(page, testInfo, 'sub-account-detail');

  await page.setViewportSize(PHONE);
  await expectChartTicksApart(page, 'sub-account-usage');
  await expectNoHorizontalOverflow(page);
  await capture(page, testInfo, 'sub-account-detail-phone');
  await page.setViewportSize(DESKTOP);

  await page.getByRole('link', { name: 'Open sub account', exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/${childId}$`));
  await expect(page.getByTestId('sub-account-of')).toHaveText('Sub account of Switch partner');
  await page.goto(`${baseUrl}/${childId}/domains`);
  await expect(page.getByText(domain, { exact: true }).first()).toBeVisible();
  await capture(page, testInfo, 'sub-account-opened');
  await switcher.selectOption(partner.accountId);
  await expect(page).toHaveURL(new RegExp(`/${partner.accountId}/domains$`));
});

test("a partner's Analyst is an Analyst in its sub accounts; a child's member sees only the child", async ({
  page,
}, testInfo) => {
  // Two people sign in, each made with the CLI.
  test.setTimeout(120_000);
  const { partner, childId } = await partnerWithChild(uniqueEmail('switch-owner2'));
  const { baseUrl, cliEnv } = sharedServer();
  const analystEmail = uniqueEmail('switch-analyst');
  expect(
    (
      await runCli(
        [
          'accounts',
          'add-member',
          partner.accountId,
          '--email',
          analystEmail,
          '--password',
          'analyst password',
          '--role',
          'Analyst',
        ],
        cliEnv,
      )
    ).code,
  ).toBe(0);
  await signIn(page, baseUrl, analystEmail, 'analyst password');
  await page.goto(`${baseUrl}/${partner.accountId}/settings`);
  await page.getByLabel('Switch account').selectOption(childId);
  await expect(page).toHaveURL(new RegExp(`/${childId}/settings$`));
  await expect(page.getByLabel('Name', { exact: true })).toHaveValue('Switch child');
  await expect(page.getByText('Your role can view these settings but not change them.')).toBeVisible();
  await capture(page, testInfo, 'sub-account-analyst-settings');
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/sign-in/);

  const memberEmail = uniqueEmail('switch-child-member');
  expect(
    (
      await runCli(
        [
          'accounts',
          'add-member',
          childId,
          '--email',
          memberEmail,
          '--password',
          'child member password',
          '--role',
          'Administrator',
        ],
        cliEnv,
      )
    ).code,
  ).toBe(0);
  await signIn(page, baseUrl, memberEmail, 'child member password');
  await expect(page).toHaveURL(new RegExp(`/${childId}`));
  await expect(page.getByLabel('Switch account')).toHaveCount(0);
  const response = await page.goto(`${baseUrl}/${partner.accountId}`);
  expect(response?.status()).toBe(404);
});

test('Settings: the Reputation Shield switches save, and the automatic pause limits are shown', async ({
  page,
}, testInfo) => {
  const email = uniqueEmail('shield-owner');
  const account = await newAccount('Shield settings', email);
  const { baseUrl } = sharedServer();
  await page.setViewportSize(DESKTOP);
  await signIn(page, baseUrl, email, OWNER_PASSWORD);
  await page.goto(`${baseUrl}/${account.accountId}/settings`);
  await expect(page.getByRole('heading', { name: 'Reputation Shield', exact: true })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Automatic pauses', exact: true })).toBeVisible();
  await expect(page.getByTestId('pause-bounce-rate')).toContainText('A sending domain pauses when more than');
  await page.getByLabel('Reject mistyped recipients').check();
  await page.getByRole('button', { name: 'Save settings', exact: true }).click();
  await expect(page.getByText('Settings saved.')).toBeVisible();
  expect((await account.api.get(account.api.account())).body).toMatchObject({
    reject_mistyped_recipients: true,
    reject_bad_recipients: false,
  });
  await capture(page, testInfo, 'settings-reputation');
  await page.setViewportSize(PHONE);
  await expectNoHorizontalOverflow(page);
  await capture(page, testInfo, 'settings-reputation-phone');
});
