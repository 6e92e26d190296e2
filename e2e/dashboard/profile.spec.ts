import type { Browser, BrowserContext, Page } from '@playwright/test';
import { OWNER_PASSWORD, runCli, uniqueEmail } from '../support/cli';
import { PHONE, capture, expect, expectNoHorizontalOverflow, signIn, test } from '../support/dashboard';
import { newAccount, sharedServer } from '../support/shared';

/**
 * The Profile page: a person's sessions (this device marked) and their password. An ended session
 * stops at its next page load and its next /internal or /v2 call; a changed password ends the
 * others and keeps this one; an administrator signs a member out from the members page.
 */
const { baseUrl } = sharedServer();

async function browserSignedIn(browser: Browser, email: string, password = OWNER_PASSWORD) {
  const context = await browser.newContext({ ignoreHTTPSErrors: true });
  const page = await context.newPage();
  await signIn(page, baseUrl, email, password);
  return { context, page };
}

/** The context's session cookie, replayed outside the browser as a stolen copy would be. */
async function cookieOf(context: BrowserContext): Promise<string> {
  const cookies = await context.cookies(baseUrl);
  return cookies
    .filter((cookie) => cookie.name.includes('next-auth.session-token'))
    .map((cookie) => `${cookie.name}=${cookie.value}`)
    .join('; ');
}

/** An ended session: its next page load goes to sign-in, and its cookie opens neither /internal nor /v2. */
async function expectSignedOut(page: Page, cookie: string, accountId: string) {
  await page.goto(`${baseUrl}/${accountId}/settings`);
  await expect(page).toHaveURL(/\/sign-in/);
  for (const path of ['/internal/me', `/v2/accounts/${accountId}`]) {
    const replayed = await page.request.get(`${baseUrl}${path}`, { headers: { cookie } });
    expect(replayed.status(), path).toBe(401);
  }
}

async function openProfile(page: Page, accountId: string) {
  await page.goto(`${baseUrl}/${accountId}/profile`);
  await expect(page.getByRole('heading', { name: 'Profile', level: 1 })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Sessions' })).toBeVisible();
}

/** The page's four sections, in order, each in the same box (background, corners, shadow, padding). */
async function expectSectionsBoxedAlike(page: Page) {
  const sections = page.locator('section[aria-labelledby]');
  await expect(sections.locator('h2')).toHaveText([
    'Password',
    'Two-factor sign-in',
    'Sessions',
    'Email notifications',
  ]);
  const looks = await sections.evaluateAll((elements) =>
    elements.map((element) => {
      const style = getComputedStyle(element);
      return [style.backgroundColor, style.borderRadius, style.boxShadow, style.paddingLeft].join(' | ');
    }),
  );
  expect(new Set(looks).size, looks.join('\n')).toBe(1);
  expect(looks[0]).toContain('rgb(255, 255, 255)');
}

test('ending a session from the Profile page signs that browser out at once; this one stays', async ({
  page,
  browser,
}, testInfo) => {
  const email = uniqueEmail('profile-sessions');
  const account = await newAccount('Profile sessions', email);
  const other = await browserSignedIn(browser, email);
  const otherCookie = await cookieOf(other.context);
  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page, baseUrl, email, OWNER_PASSWORD);

  await page.getByTestId('signed-in-as').click();
  await expect(page).toHaveURL(new RegExp(`/${account.accountId}/profile$`));
  await openProfile(page, account.accountId);
  const rows = page.locator('[data-session-row]');
  await expect(rows).toHaveCount(2);
  await expect(page.locator('[data-session-row="current"]')).toContainText('This device');
  await expect(page.locator('[data-session-row="current"]')).toContainText('Chrome on Linux');
  await expectSectionsBoxedAlike(page);
  await capture(page, testInfo, 'profile-desktop', { fullPage: true });

  await page
    .locator('[data-session-row="other"]')
    .getByRole('button', { name: /^End the session/ })
    .click();
  const dialog = page.getByRole('dialog', { name: 'End session' });
  await dialog.getByRole('button', { name: 'End session' }).click();
  await expect(page.getByText(/is signed out\.$/)).toBeVisible();
  await expect(rows).toHaveCount(1);
  await expect(page.getByText('You are signed in on this device only.')).toBeVisible();

  await expectSignedOut(other.page, otherCookie, account.accountId);
  // This browser carries on.
  await page.reload();
  await expect(page.locator('[data-session-row="current"]')).toBeVisible();
  await other.context.close();

  await page.setViewportSize(PHONE);
  await openProfile(page, account.accountId);
  await expect(page.locator('[data-session-row="current"]')).toBeVisible();
  await expectNoHorizontalOverflow(page);
  await expectSectionsBoxedAlike(page);
  await capture(page, testInfo, 'profile-phone', { fullPage: true });
});

test('"Sign out everywhere else" ends every other session after a confirmation', async ({ page, browser }) => {
  const email = uniqueEmail('profile-everywhere');
  const account = await newAccount('Profile everywhere', email);
  const others = [await browserSignedIn(browser, email), await browserSignedIn(browser, email)];
  const cookies = await Promise.all(others.map((other) => cookieOf(other.context)));
  await signIn(page, baseUrl, email, OWNER_PASSWORD);
  await openProfile(page, account.accountId);
  await expect(page.locator('[data-session-row]')).toHaveCount(3);
  await page.getByRole('button', { name: 'Sign out everywhere else' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'End 2 other sessions' }).click();
  await expect(page.getByText('2 other sessions signed out.')).toBeVisible();
  await expect(page.locator('[data-session-row]')).toHaveCount(1);
  for (const [index, other] of others.entries()) {
    await expectSignedOut(other.page, cookies[index], account.accountId);
    await other.context.close();
  }
});

test('changing the password: wrong current or mismatched new are refused; a change signs the other browser out and keeps this one', async ({
  page,
  browser,
}, testInfo) => {
  const email = uniqueEmail('profile-password');
  const account = await newAccount('Profile password', email);
  const other = await browserSignedIn(browser, email);
  const otherCookie = await cookieOf(other.context);
  await signIn(page, baseUrl, email, OWNER_PASSWORD);
  await openProfile(page, account.accountId);

  const form = {
    current: page.getByLabel('Current password'),
    next: page.getByLabel('New password', { exact: true }),
    again: page.getByLabel('New password again'),
    submit: page.getByRole('button', { name: 'Change password' }),
  };
  await form.current.fill(OWNER_PASSWORD);
  await form.next.fill('a brand new password');
  await form.again.fill('a different new password');
  await form.submit.click();
  await expect(page.getByText('does not match the new password')).toBeVisible();

  await form.current.fill('not my password at all');
  await form.again.fill('a brand new password');
  await form.submit.click();
  await expect(page.getByText('is not your current password')).toBeVisible();
  await capture(page, testInfo, 'profile-password-wrong');

  await form.current.fill(OWNER_PASSWORD);
  await form.submit.click();
  await expect(page.getByText('Password changed. 1 other session signed out; this one stays signed in.')).toBeVisible();
  await expectSignedOut(other.page, otherCookie, account.accountId);
  await page.reload();
  await expect(page.locator('[data-session-row="current"]')).toBeVisible();

  // The old password no longer signs in; the new one does.
  await other.page.getByLabel('Email').fill(email);
  await other.page.getByLabel('Password').fill(OWNER_PASSWORD);
  await other.page.getByRole('button', { name: 'Sign in' }).click();
  await expect(other.page.getByText('Wrong email or password.')).toBeVisible();
  await signIn(other.page, baseUrl, email, 'a brand new password');
  await other.context.close();
});

test("an administrator ends a member's sessions from the members page, after a confirmation", async ({
  page,
  browser,
}, testInfo) => {
  const ownerEmail = uniqueEmail('profile-admin');
  const account = await newAccount('Profile admin', ownerEmail);
  const memberEmail = uniqueEmail('profile-member');
  const added = await runCli(
    [
      'accounts',
      'add-member',
      account.accountId,
      '--email',
      memberEmail,
      '--password',
      'member password 1',
      '--role',
      'Developer',
    ],
    sharedServer().cliEnv,
  );
  expect(added.code, added.stderr).toBe(0);
  const member = await browserSignedIn(browser, memberEmail, 'member password 1');
  const memberCookie = await cookieOf(member.context);
  // A Developer has no such button, for others or for the owner.
  await member.page.goto(`${baseUrl}/${account.accountId}/members`);
  await expect(member.page.locator(`[data-member-row="${ownerEmail}"]`)).toBeVisible();
  await expect(member.page.getByRole('button', { name: /^End the sessions of/ })).toHaveCount(0);

  await signIn(page, baseUrl, ownerEmail, OWNER_PASSWORD);
  await page.goto(`${baseUrl}/${account.accountId}/members`);
  const row = page.locator(`[data-member-row="${memberEmail}"]`);
  await row.getByRole('button', { name: `End the sessions of ${memberEmail}` }).click();
  const dialog = page.getByRole('dialog', { name: "End member's sessions" });
  await expect(dialog).toContainText(memberEmail);
  await capture(page, testInfo, 'members-end-sessions');
  await dialog.getByRole('button', { name: 'End all their sessions' }).click();
  await expect(page.getByText(`${memberEmail} is signed out everywhere (1 session(s) ended).`)).toBeVisible();
  await expectSignedOut(member.page, memberCookie, account.accountId);
  await member.context.close();
});
