import { request as playwrightRequest, type APIRequestContext } from '@playwright/test';
import { expect, signIn as signInInBrowser, test } from '../support/dashboard';
import { createAccountWithKey, OWNER_PASSWORD, uniqueEmail } from '../support/cli';
import { startServer, type ServerHandle } from '../support/server';
import { codeFor, setUpTwoFactor, signInToCodeStep, signOut, submitCode, wrongCodeFor } from '../support/two-factor';

/**
 * Failed dashboard sign-ins are limited per client address and per email (ten, refilled over 15
 * minutes), counted before the password is checked, so parallel tries cannot overshoot; so are
 * wrong two-factor codes (five). Sign-ins go through next-auth's own endpoints; the test process is
 * a trusted proxy, so that X-Forwarded-For names the client. A server of its own: the limits of the
 * tests' addresses would otherwise reach the other specs. Each test has addresses of its own.
 */
let server: ServerHandle;
let http: APIRequestContext;
let csrfToken: string;

test.beforeAll(async () => {
  server = await startServer({ env: { TRUST_PROXY: '127.0.0.1/32' } });
  http = await playwrightRequest.newContext({ baseURL: server.baseUrl, ignoreHTTPSErrors: true });
  csrfToken = (await (await http.get('/api/auth/csrf')).json()).csrfToken;
});

test.afterAll(async () => {
  await http?.dispose();
  await server?.stop();
});

/** One sign-in through next-auth: 'ok', 'invalid' (the password was checked) or 'rate_limited'. */
async function signIn(email: string, password: string, clientIp: string): Promise<'ok' | 'invalid' | 'rate_limited'> {
  const response = await http.post('/api/auth/callback/credentials', {
    form: { email, password, csrfToken, json: 'true', callbackUrl: server.baseUrl },
    headers: { 'x-forwarded-for': clientIp },
    maxRedirects: 0,
  });
  const { url } = (await response.json()) as { url: string };
  const error = new URL(url, server.baseUrl).searchParams.get('error');
  if (error === null) return 'ok';
  if (error === 'CredentialsSignin') return 'invalid';
  if (error === 'TooManyAttempts') return 'rate_limited';
  throw new Error(`unexpected sign-in reply ${response.status()} ${url}`);
}

const tally = (outcomes: string[]) => ({
  invalid: outcomes.filter((o) => o === 'invalid').length,
  rateLimited: outcomes.filter((o) => o === 'rate_limited').length,
});

test('40 parallel wrong passwords for one email from one address: only 10 are checked', async () => {
  const { ownerEmail } = await createAccountWithKey(server.env);
  const outcomes = await Promise.all(
    Array.from({ length: 40 }, (_, i) => signIn(ownerEmail, `guess ${i}`, '198.51.100.10')),
  );
  expect(tally(outcomes)).toEqual({ invalid: 10, rateLimited: 30 });
  // Refused without a check, even with the right password.
  expect(await signIn(ownerEmail, OWNER_PASSWORD, '198.51.100.10')).toBe('rate_limited');
});

test('one email from 40 addresses: only 10 are checked, and the owner is refused from a new address too', async () => {
  const { ownerEmail } = await createAccountWithKey(server.env);
  const outcomes = await Promise.all(
    Array.from({ length: 40 }, (_, i) =>
      signIn(i % 2 ? ownerEmail : ownerEmail.toUpperCase(), `guess ${i}`, `203.0.113.${i + 1}`),
    ),
  );
  expect(tally(outcomes)).toEqual({ invalid: 10, rateLimited: 30 });
  expect(await signIn(ownerEmail, OWNER_PASSWORD, '203.0.113.200')).toBe('rate_limited');
});

test('one address across 40 emails: only 10 are checked', async () => {
  const outcomes = await Promise.all(
    Array.from({ length: 40 }, (_, i) => signIn(uniqueEmail(`nobody-${i}`), 'guess', '192.0.2.80')),
  );
  expect(tally(outcomes)).toEqual({ invalid: 10, rateLimited: 30 });
});

test('successful sign-ins do not count against the limit', async () => {
  const { ownerEmail } = await createAccountWithKey(server.env);
  for (let i = 0; i < 15; i++) expect(await signIn(ownerEmail, OWNER_PASSWORD, '192.0.2.90')).toBe('ok');
});

// Guessing codes: five wrong codes per person and per address in 15 minutes, then even the right
// code is refused, from a new address too.
test('five wrong codes, then the right one is refused too, from another address as well', async ({ browser }) => {
  const email = uniqueEmail('two-factor-guess');
  const { accountId } = await createAccountWithKey(server.env, 'Guessing', email);
  const { baseUrl } = server;
  const context = await browser.newContext({
    ignoreHTTPSErrors: true,
    extraHTTPHeaders: { 'x-forwarded-for': '198.51.100.20' },
  });
  const page = await context.newPage();
  await signInInBrowser(page, baseUrl, email, OWNER_PASSWORD);
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
