import { OWNER_PASSWORD, runCli, uniqueEmail } from '../support/cli';
import { capture, expect, signIn, test } from '../support/dashboard';
import { newAccount, sharedServer } from '../support/shared';

/**
 * A password reset on a server without SYSTEM_SENDER (the shared one): the sign-in page's "Forgot
 * password?" says how an operator makes a link, and the link the operator's command prints sets a
 * new password once, ends every session of the person and signs nobody in.
 */
const { baseUrl, cliEnv } = sharedServer();
const LINK = /https:\/\/127\.0\.0\.1:\d+\/reset-password\/[A-Za-z0-9_-]{43}/;

test("without a system sender, Forgot password? names the operator's command; its link works once and ends every session", async ({
  page,
  browser,
}, testInfo) => {
  const email = uniqueEmail('reset-operator');
  const account = await newAccount('Reset by operator', email);
  const elsewhere = await browser.newContext({ ignoreHTTPSErrors: true });
  const elsewherePage = await elsewhere.newPage();
  await signIn(elsewherePage, baseUrl, email, OWNER_PASSWORD);

  await page.goto(`${baseUrl}/sign-in`);
  await page.getByRole('link', { name: 'Forgot password?' }).click();
  await expect(page.getByRole('heading', { name: 'Forgot your password?' })).toBeVisible();
  await expect(page.getByText('npx mailstead users reset-password YOUR-EMAIL')).toBeVisible();
  await capture(page, testInfo, 'forgot-password-operator');

  // The operator types the address as the person said it, capitals and all.
  const made = await runCli(['users', 'reset-password', email.toUpperCase()], cliEnv);
  expect(made.code, made.stderr).toBe(0);
  expect(made.stdout).toContain(`reset link for ${email}`);
  const link = LINK.exec(made.stdout)?.[0];
  expect(link, made.stdout).toBeTruthy();

  await page.goto(link!);
  await expect(page.getByRole('heading', { name: 'Choose a new password' })).toBeVisible();
  await expect(page.getByText(email)).toBeVisible();
  await page.getByLabel('New password', { exact: true }).fill('reset by the operator');
  await page.getByLabel('New password again').fill('reset by the operator');
  await page.getByRole('button', { name: 'Set new password' }).click();
  await expect(page.getByRole('heading', { name: 'Password changed' })).toBeVisible();
  await capture(page, testInfo, 'reset-password-done');

  // Nobody was signed in by the link, and the other browser's session ended.
  await page.goto(`${baseUrl}/${account.accountId}`);
  await expect(page).toHaveURL(/\/sign-in/);
  await elsewherePage.goto(`${baseUrl}/${account.accountId}`);
  await expect(elsewherePage).toHaveURL(/\/sign-in/);
  await elsewhere.close();

  await page.goto(link!);
  await expect(page.getByRole('heading', { name: 'This reset link cannot be used' })).toBeVisible();
  await expect(page.getByText('this reset link has already been used')).toBeVisible();
  await signIn(page, baseUrl, email, 'reset by the operator');
});
