import { OWNER_PASSWORD, createAccountWithKey, uniqueEmail } from '../support/cli';
import { expect, ownDashboardServer, signIn, test } from '../support/dashboard';
import { codeFor, setUpTwoFactor, signInToCodeStep, signOut, submitCode, wrongCodeFor } from '../support/two-factor';

/**
 * Guessing codes: five wrong codes per person and per address in 15 minutes, then even the right
 * code is refused, from a new address too. Its own server: the limit of the test's address would
 * otherwise reach the other specs. The test process is a trusted proxy, so X-Forwarded-For names
 * the address a browser context comes from.
 */
const server = ownDashboardServer('two-factor-limits', () => ({ TRUST_PROXY: '127.0.0.1/32' }));

test('five wrong codes, then the right one is refused too, from another address as well', async ({ browser }) => {
  const email = uniqueEmail('two-factor-guess');
  const { accountId } = await createAccountWithKey(server().env, 'Guessing', email);
  const { baseUrl } = server();
  const context = await browser.newContext({
    ignoreHTTPSErrors: true,
    extraHTTPHeaders: { 'x-forwarded-for': '198.51.100.20' },
  });
  const page = await context.newPage();
  await signIn(page, baseUrl, email, OWNER_PASSWORD);
  await page.goto(`${baseUrl}/${accountId}/profile`);
  const { secret } = await setUpTwoFactor(page);
  await signOut(page);

  await signInToCodeStep(page, baseUrl, email, OWNER_PASSWORD);
  for (let guess = 0; guess < 5; guess++) {
    await submitCode(page, wrongCodeFor(secret, guess));
    await expect(page.getByText('That code is not valid, or was already used. Try the current code.')).toBeVisible();
  }
  await submitCode(page, wrongCodeFor(secret, 5));
  await expect(page.getByText('Too many wrong codes. Wait 15 minutes and try again.')).toBeVisible();
  await submitCode(page, codeFor(secret, 30));
  await expect(page.getByText('Too many wrong codes. Wait 15 minutes and try again.')).toBeVisible();
  await expect(page).toHaveURL(/\/sign-in/);
  await context.close();

  // Another address: the person's own count still refuses, and the password was not the problem.
  const elsewhere = await browser.newContext({
    ignoreHTTPSErrors: true,
    extraHTTPHeaders: { 'x-forwarded-for': '203.0.113.99' },
  });
  const other = await elsewhere.newPage();
  await signInToCodeStep(other, baseUrl, email, OWNER_PASSWORD);
  await submitCode(other, codeFor(secret, 30));
  await expect(other.getByText('Too many wrong codes. Wait 15 minutes and try again.')).toBeVisible();
  await elsewhere.close();
});
