import { OWNER_PASSWORD, runCli, uniqueEmail } from '../support/cli';
import { DESKTOP, PHONE, capture, expect, expectNoHorizontalOverflow, signIn, test } from '../support/dashboard';
import { newAccount, sharedServer } from '../support/shared';
import { codeFor, setUpTwoFactor, signInToCodeStep, signOut, submitCode } from '../support/two-factor';

/**
 * Two-factor sign-in as a person meets it: set up on the profile with a code computed from the
 * secret on the page, then sign-in asks for a code after the password; a code works once, a recovery
 * code works once; an account that requires it leads a member through setup before anything else.
 */
const WIDE = { width: 1440, height: 900 } as const;

test('set up, sign in with a code (not twice), with a recovery code (once), then turn it off', async ({
  page,
}, testInfo) => {
  const email = uniqueEmail('two-factor');
  const account = await newAccount('Two-factor people', email);
  const { baseUrl } = sharedServer();
  await signIn(page, baseUrl, email, OWNER_PASSWORD);
  await page.goto(`${baseUrl}/${account.accountId}/profile`);
  const section = page.getByRole('region', { name: 'Two-factor sign-in' });
  await expect(section.getByText('Off', { exact: true })).toBeVisible();

  // A wrong code does not turn it on.
  await page.getByRole('button', { name: 'Set up two-factor sign-in' }).click();
  await page.getByLabel('Code from the app').fill('000000');
  await page.getByRole('button', { name: 'Turn on' }).click();
  // The message beside the field, without the API's field name in front of it.
  await expect(section.getByText(/^that code is not valid; check the clock/)).toBeVisible();
  await expect(section.getByText(/code: that code/)).toHaveCount(0);
  await capture(page, testInfo, 'two-factor-setup');
  await page.getByRole('button', { name: 'Cancel' }).click();

  const { secret, codes } = await setUpTwoFactor(page);
  await expect(section.getByText('On', { exact: true })).toBeVisible();
  await expect(page.getByTestId('recovery-codes-remaining')).toHaveText('10');

  await signOut(page);
  await signInToCodeStep(page, baseUrl, email, OWNER_PASSWORD);
  const codeInput = page.locator('#code');
  await expect(codeInput).toHaveAttribute('autocomplete', 'one-time-code');
  await expect(codeInput).toHaveAttribute('inputmode', 'numeric');
  for (const viewport of [WIDE, PHONE]) {
    await page.setViewportSize(viewport);
    await capture(page, testInfo, `sign-in-code-step-${viewport.width}`);
    if (viewport === PHONE) await expectNoHorizontalOverflow(page);
  }
  await page.setViewportSize(DESKTOP);
  // The code of the next step (an app a little ahead); the one of setup is spent.
  const next = codeFor(secret, 30);
  await submitCode(page, next);
  await expect(page.getByTestId('signed-in-as')).toHaveText(email);

  // The same code again: refused, it was used.
  await signOut(page);
  await signInToCodeStep(page, baseUrl, email, OWNER_PASSWORD);
  await submitCode(page, next);
  await expect(page.getByText('That code is not valid, or was already used. Try the current code.')).toBeVisible();

  // A recovery code, once.
  await page.getByRole('button', { name: 'Use a recovery code instead' }).click();
  await expect(page.getByLabel('Recovery code')).toBeVisible();
  await capture(page, testInfo, 'sign-in-recovery-code');
  await submitCode(page, codes[0].toUpperCase());
  await expect(page.getByTestId('signed-in-as')).toHaveText(email);
  await signOut(page);
  await signInToCodeStep(page, baseUrl, email, OWNER_PASSWORD);
  await page.getByRole('button', { name: 'Use a recovery code instead' }).click();
  await submitCode(page, codes[0]);
  await expect(page.getByText('That code is not valid, or was already used. Try the current code.')).toBeVisible();
  await submitCode(page, codes[1]);
  await expect(page.getByTestId('signed-in-as')).toHaveText(email);

  // Turning it off: confirmed, with the password.
  await page.goto(`${baseUrl}/${account.accountId}/profile`);
  await expect(page.getByTestId('recovery-codes-remaining')).toHaveText('8');
  await page.getByRole('button', { name: 'Turn off' }).click();
  const dialog = page.getByRole('dialog', { name: 'Turn off two-factor sign-in' });
  await dialog.getByLabel('Your password').fill('not my password');
  await dialog.getByRole('button', { name: 'Turn off' }).click();
  await expect(dialog.getByText(/^that is not your current password/)).toBeVisible();
  await dialog.getByLabel('Your password').fill(OWNER_PASSWORD);
  await dialog.getByRole('button', { name: 'Turn off' }).click();
  await expect(dialog).toBeHidden();
  await expect(section.getByText('Off', { exact: true })).toBeVisible();
  await signOut(page);
  await signIn(page, baseUrl, email, OWNER_PASSWORD);
});

test('an account that requires it: the owner must have it first; a member is led through setup and refused elsewhere until done', async ({
  page,
  browser,
}, testInfo) => {
  const email = uniqueEmail('two-factor-owner');
  const account = await newAccount('Strict team', email);
  const { baseUrl } = sharedServer();
  await signIn(page, baseUrl, email, OWNER_PASSWORD);
  await page.goto(`${baseUrl}/${account.accountId}/settings`);
  const rule = page.getByLabel('Require two-factor sign-in for members');
  await rule.check();
  await page.getByRole('region', { name: 'Two-factor sign-in' }).getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText(/set up two-factor sign-in for yourself first/)).toBeVisible();

  await page.goto(`${baseUrl}/${account.accountId}/profile`);
  await setUpTwoFactor(page);
  await page.goto(`${baseUrl}/${account.accountId}/settings`);
  await rule.check();
  await page.getByRole('region', { name: 'Two-factor sign-in' }).getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Saved.')).toBeVisible();
  await capture(page, testInfo, 'settings-require-two-factor');

  const memberEmail = uniqueEmail('two-factor-member');
  const added = await runCli(
    [
      'accounts',
      'add-member',
      account.accountId,
      '--email',
      memberEmail,
      '--password',
      'member password',
      '--role',
      'Developer',
    ],
    sharedServer().cliEnv,
  );
  expect(added.code, added.stderr).toBe(0);

  const context = await browser.newContext({ ignoreHTTPSErrors: true, viewport: PHONE });
  const memberPage = await context.newPage();
  await memberPage.goto(`${baseUrl}/sign-in`);
  await memberPage.getByLabel('Email').fill(memberEmail);
  await memberPage.getByLabel('Password').fill('member password');
  await memberPage.getByRole('button', { name: 'Sign in' }).click();
  await expect(memberPage).toHaveURL(new RegExp(`/two-factor-setup\\?account=${account.accountId}`));
  await expect(memberPage.getByText('The account “Strict team” requires two-factor sign-in')).toBeVisible();
  await capture(memberPage, testInfo, 'two-factor-required-setup-390');
  await expectNoHorizontalOverflow(memberPage);

  // Nothing else opens meanwhile: another page leads back here, and /v2 refuses the cookie.
  await memberPage.goto(`${baseUrl}/${account.accountId}/domains`);
  await expect(memberPage).toHaveURL(/\/two-factor-setup/);
  const refused = await memberPage.evaluate(async (accountId) => {
    const response = await fetch(`/v2/accounts/${accountId}/domains`);
    return { status: response.status, body: await response.json() };
  }, account.accountId);
  expect(refused.status).toBe(403);
  expect(refused.body.message).toMatch(/requires two-factor sign-in/);
  // API keys are unaffected.
  expect((await account.api.get(account.api.account('/domains'))).status).toBe(200);

  await setUpTwoFactor(memberPage);
  await expect(memberPage).toHaveURL(new RegExp(`/${account.accountId}$`));
  await expect(memberPage.getByTestId('signed-in-as')).toBeAttached();
  const allowed = await memberPage.evaluate(
    async (accountId) => (await fetch(`/v2/accounts/${accountId}/domains`)).status,
    account.accountId,
  );
  expect(allowed).toBe(200);
  await context.close();
});
