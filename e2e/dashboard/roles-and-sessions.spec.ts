import { expect, test } from '../support/dashboard';
import { OWNER_PASSWORD, runCli, uniqueEmail } from '../support/cli';
import { capture, signIn } from '../support/dashboard';
import { newAccount, sharedServer } from '../support/shared';

test('an Analyst cannot see or use what its scopes forbid: the page and a direct /v2 call both refuse', async ({
  page,
}, testInfo) => {
  const account = await newAccount('Roles');
  const analystEmail = uniqueEmail('analyst');
  const added = await runCli(
    [
      'accounts',
      'add-member',
      account.accountId,
      '--email',
      analystEmail,
      '--password',
      'analyst password',
      '--role',
      'Analyst',
    ],
    sharedServer().cliEnv,
  );
  expect(added.code).toBe(0);
  const { baseUrl } = sharedServer();
  await signIn(page, baseUrl, analystEmail, 'analyst password');
  const nav = page.getByRole('navigation', { name: 'Main' });
  await expect(nav.getByRole('link', { name: 'Settings' })).toBeVisible();
  await expect(nav.getByRole('link', { name: 'API keys' })).toHaveCount(0);

  await page.goto(`${baseUrl}/${account.accountId}/api-keys`);
  await expect(page.getByText('You cannot view API keys')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Create API key' })).toHaveCount(0);
  await capture(page, testInfo, 'analyst-api-keys');

  const direct = await page.evaluate(async (accountId) => {
    const read = await fetch(`/v2/accounts/${accountId}/api-keys`);
    const write = await fetch(`/v2/accounts/${accountId}`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'hijacked' }),
    });
    return { read: read.status, write: write.status, readBody: await read.json() };
  }, account.accountId);
  expect(direct.read).toBe(403);
  expect(direct.readBody.message).toMatch(/api-keys:read/);
  expect(direct.write).toBe(403);

  await page.goto(`${baseUrl}/${account.accountId}/settings`);
  await expect(page.getByText('Your role can view these settings but not change them.')).toBeVisible();
  await expect(page.getByLabel('Name')).toBeDisabled();
  await capture(page, testInfo, 'analyst-settings');

  // Another account's pages do not exist for this person.
  const other = await newAccount('Roles other');
  const foreign = await page.goto(`${baseUrl}/${other.accountId}/settings`);
  expect(foreign?.status()).toBe(404);
  const foreignApi = await page.evaluate(
    async (accountId) => (await fetch(`/v2/accounts/${accountId}`)).status,
    other.accountId,
  );
  expect(foreignApi).toBe(401);
});

test('the session cookie is refused on writes from another origin, and dies with sign-out', async ({
  page,
  context,
}) => {
  const email = uniqueEmail('session-owner');
  const account = await newAccount('Sessions', email);
  const { baseUrl } = sharedServer();
  await signIn(page, baseUrl, email, OWNER_PASSWORD);

  const cookies = await context.cookies(baseUrl);
  const session = cookies.find((cookie) => cookie.name.includes('next-auth.session-token'));
  expect(session).toMatchObject({ httpOnly: true, secure: true, sameSite: 'Lax' });

  const own = await page.request.put(`${baseUrl}/v2/accounts/${account.accountId}`, {
    data: { about: 'same origin' },
    headers: { origin: baseUrl },
  });
  expect(own.status()).toBe(200);
  const forged = await page.request.put(`${baseUrl}/v2/accounts/${account.accountId}`, {
    data: { about: 'forged' },
    headers: { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
  });
  expect(forged.status()).toBe(403);
  expect(await forged.json()).toEqual({ message: 'cross-origin request refused' });
  const noOrigin = await page.request.put(`${baseUrl}/v2/accounts/${account.accountId}`, {
    data: { about: 'no origin' },
  });
  expect(noOrigin.status()).toBe(403);
  expect((await account.api.get(account.api.account())).body.about).toBe('same origin');

  // Sign out, then replay the old cookie: the session version moved on, so it is worthless.
  const cookieHeader = `${session!.name}=${session!.value}`;
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/sign-in/);
  const replay = await fetch(`${baseUrl}/internal/me`, { headers: { cookie: cookieHeader } }).catch(() => null);
  // Node's fetch does not trust the self-signed certificate; use the browser context's request API instead.
  void replay;
  const replayed = await page.request.get(`${baseUrl}/internal/me`, { headers: { cookie: cookieHeader } });
  expect(replayed.status()).toBe(401);
});

test('a person in two accounts switches between them', async ({ page }, testInfo) => {
  const email = uniqueEmail('two-accounts');
  const first = await newAccount('First company', email);
  const second = await newAccount('Second company', email);
  const { baseUrl } = sharedServer();
  await signIn(page, baseUrl, email, OWNER_PASSWORD);
  await page.goto(`${baseUrl}/${first.accountId}/settings`);
  await expect(page.getByLabel('Name')).toHaveValue('First company');
  await page.getByLabel('Switch account').selectOption(second.accountId);
  await expect(page).toHaveURL(new RegExp(`/${second.accountId}/settings$`));
  await expect(page.getByLabel('Name')).toHaveValue('Second company');
  await capture(page, testInfo, 'account-switcher');
});

test('keyboard: the main controls are reachable with Tab', async ({ page }) => {
  const email = uniqueEmail('keyboard');
  await newAccount('Keyboard', email);
  await signIn(page, sharedServer().baseUrl, email, OWNER_PASSWORD);
  await page.keyboard.press('Tab');
  await expect(page.getByText('Skip to content')).toBeFocused();
  let reachedSignOut = false;
  for (let i = 0; i < 40 && !reachedSignOut; i++) {
    await page.keyboard.press('Tab');
    reachedSignOut = await page
      .getByRole('button', { name: 'Sign out' })
      .evaluate((element) => element === document.activeElement);
  }
  expect(reachedSignOut).toBe(true);
});
