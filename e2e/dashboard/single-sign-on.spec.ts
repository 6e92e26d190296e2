import type { Page } from '@playwright/test';
import { createAccountWithKey, uniqueEmail } from '../support/cli';
import { ApiClient } from '../support/client';
import {
  DESKTOP,
  PHONE,
  capture,
  expect,
  expectNoHorizontalOverflow,
  ownDashboardServer,
  test,
} from '../support/dashboard';
import { startOidcProvider, type OidcPerson, type OidcProviderHandle } from '../support/oidc-provider';
import { freePort } from '../support/server';

/**
 * Single sign-on against a real OpenID provider on loopback (e2e/support/oidc-provider.ts): the
 * browser goes through the provider's own sign-in and consent screens and back to the dashboard.
 * Who gets in: a proven user by their verified address (any case), or an invited address, which
 * accepts its invitation; refused: unknown and unverified addresses, and tokens for another client.
 */
const BUTTON = 'Sign in with Example ID';
let provider: OidcProviderHandle;
let port: number;

test.beforeAll(async () => {
  port = await freePort();
  provider = await startOidcProvider(`https://127.0.0.1:${port}`);
});
test.afterAll(async () => provider?.stop());

const server = ownDashboardServer('single_sign_on', () => ({
  PORT: String(port),
  OIDC_ISSUER: provider.issuer,
  OIDC_CLIENT_ID: provider.clientId,
  OIDC_CLIENT_SECRET: provider.clientSecret,
  OIDC_BUTTON_LABEL: BUTTON,
}));

async function newAccount(name: string) {
  const ownerEmail = uniqueEmail(name);
  const created = await createAccountWithKey(server().env, name, ownerEmail);
  const api = new ApiClient(server().baseUrl, server().dataDir, created.apiKey, created.accountId);
  return { ...created, api };
}

let logins = 0;

/** From the sign-in page through the provider's screens as `person`; back on a Mailstead page. */
async function signInThroughProvider(page: Page, person: OidcPerson) {
  const login = `person-${process.pid}-${logins++}`;
  provider.addPerson(login, person);
  await page.goto(`${server().baseUrl}/sign-in`);
  await page.getByRole('button', { name: BUTTON }).click();
  await page.waitForURL(`${provider.issuer}/**`);
  await page.locator('input[name="login"]').fill(login);
  await page.locator('input[name="password"]').fill('any password at the provider');
  await page.getByRole('button', { name: 'Sign-in' }).click();
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.waitForURL(`${server().baseUrl}/**`);
}

test('a known user signs in through the provider and lands in their account; the button sits above the password form at desktop and phone widths', async ({
  page,
}, testInfo) => {
  const account = await newAccount('sso-known');
  for (const [name, size] of [
    ['desktop', { width: 1440, height: 900 }],
    ['phone', PHONE],
  ] as const) {
    await page.setViewportSize(size);
    await page.goto(`${server().baseUrl}/sign-in`);
    const button = page.getByRole('button', { name: BUTTON });
    await expect(button).toBeVisible();
    const passwordBox = await page.getByLabel('Password').boundingBox();
    expect((await button.boundingBox())!.y).toBeLessThan(passwordBox!.y);
    await expectNoHorizontalOverflow(page);
    await capture(page, testInfo, `sign-in-single-sign-on-${name}`);
  }
  await page.setViewportSize(DESKTOP);
  await signInThroughProvider(page, { email: account.ownerEmail, emailVerified: true, name: 'Known Person' });
  await expect(page).toHaveURL(new RegExp(`/${account.accountId}$`));
  await expect(page.getByTestId('signed-in-as')).toHaveText(account.ownerEmail);
  await capture(page, testInfo, 'single-sign-on-landed');
});

test('an address that differs only in case signs in as the same user', async ({ page }) => {
  const account = await newAccount('sso-case');
  const [local, domain] = account.ownerEmail.split('@');
  await signInThroughProvider(page, { email: `${local.toUpperCase()}@${domain.toUpperCase()}`, emailVerified: true });
  await expect(page).toHaveURL(new RegExp(`/${account.accountId}$`));
  await expect(page.getByTestId('signed-in-as')).toHaveText(account.ownerEmail);
});

test('an unknown address is refused with a message saying to ask for an invitation', async ({ page }, testInfo) => {
  await page.setViewportSize(PHONE);
  await signInThroughProvider(page, { email: uniqueEmail('sso-stranger'), emailVerified: true });
  await expect(page).toHaveURL(/\/sign-in\?error=SingleSignOnUnknownEmail$/);
  await expect(page.locator('form').getByRole('alert')).toHaveText(
    'No Mailstead user has this address; ask an administrator to invite you.',
  );
  await expect(page.getByTestId('signed-in-as')).toHaveCount(0);
  await expectNoHorizontalOverflow(page);
  await capture(page, testInfo, 'single-sign-on-unknown-email-phone');
});

test("an address the provider has not verified is refused, even a known user's", async ({ page }) => {
  const account = await newAccount('sso-unverified');
  await signInThroughProvider(page, { email: account.ownerEmail, emailVerified: false });
  await expect(page).toHaveURL(/\/sign-in\?error=SingleSignOnUnverifiedEmail$/);
  await expect(page.locator('form').getByRole('alert')).toContainText('has not verified your email address');
  await page.goto(`${server().baseUrl}/${account.accountId}`);
  await expect(page).toHaveURL(/\/sign-in/);
});

test('an invited address signs in, accepting the invitation: it lands in the inviting account with the invited role', async ({
  page,
}) => {
  const account = await newAccount('sso-inviter');
  const inviteeEmail = uniqueEmail('sso-invitee');
  const invited = await account.api.request('POST', account.api.account('/members'), {
    body: { email: inviteeEmail, role: 'Analyst' },
  });
  expect(invited.status).toBe(201);
  expect(invited.body.status).toBe('invited');

  await signInThroughProvider(page, { email: inviteeEmail, emailVerified: true, name: 'Invited Person' });
  await expect(page).toHaveURL(new RegExp(`/${account.accountId}$`));
  await expect(page.getByTestId('signed-in-as')).toHaveText(inviteeEmail);
  // An Analyst's sidebar: Settings, but no API keys.
  const nav = page.getByRole('navigation', { name: 'Main' });
  await expect(nav.getByRole('link', { name: 'Settings' })).toBeVisible();
  await expect(nav.getByRole('link', { name: 'API keys' })).toHaveCount(0);

  const members = await account.api.request('GET', account.api.account('/members'));
  const member = members.body.data.find((row: { email: string }) => row.email === inviteeEmail);
  expect(member).toMatchObject({ role: 'Analyst', status: 'active', user_id: invited.body.user_id });
  const pending = await account.api.request('GET', account.api.account('/member-invitations'), {
    checkContract: false,
  });
  expect(pending.body.data).toEqual([]);

  // Made by single sign-on, the person has no password: the Profile page sets a first one without
  // asking for a current one, and then they can sign in with it too.
  await page.goto(`${server().baseUrl}/${account.accountId}/profile`);
  const passwordBox = page.getByRole('region', { name: 'Password' });
  await expect(passwordBox).toContainText('have no password yet');
  await expect(passwordBox.getByLabel('Current password')).toHaveCount(0);
  await passwordBox.getByLabel('New password', { exact: true }).fill('my first own password');
  await passwordBox.getByLabel('New password again').fill('my first own password');
  await passwordBox.getByRole('button', { name: 'Set password' }).click();
  await expect(passwordBox.getByText(/^Password set: you can also sign in with it now\./)).toBeVisible();
  // Now there is one: changing it asks for it.
  await expect(passwordBox.getByLabel('Current password')).toBeVisible();
  await expect(passwordBox.getByRole('button', { name: 'Change password' })).toBeVisible();
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/sign-in/);
  await page.getByLabel('Email').fill(inviteeEmail);
  await page.getByLabel('Password').fill('my first own password');
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByTestId('signed-in-as')).toHaveText(inviteeEmail);
});

test('an ID token for another audience is refused, though the provider signed it', async ({ page }) => {
  const account = await newAccount('sso-audience');
  provider.issueTokensFor('another-application');
  try {
    await signInThroughProvider(page, { email: account.ownerEmail, emailVerified: true });
  } finally {
    provider.issueTokensFor(null);
  }
  await expect(page).toHaveURL(/\/sign-in\?.*\berror=OAuthCallback\b/);
  await expect(page.locator('form').getByRole('alert')).toContainText("provider's answer could not be verified");
  await page.goto(`${server().baseUrl}/${account.accountId}`);
  await expect(page).toHaveURL(/\/sign-in/);
  // The same person, with a token for Mailstead, gets in (signed out at the provider first, so that its screens show again).
  await page.context().clearCookies();
  await signInThroughProvider(page, { email: account.ownerEmail, emailVerified: true });
  await expect(page.getByTestId('signed-in-as')).toHaveText(account.ownerEmail);
});
