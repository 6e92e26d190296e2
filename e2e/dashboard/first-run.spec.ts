import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '../support/dashboard';
import { ApiClient } from '../support/client';
import { capture } from '../support/dashboard';
import { createScratchDatabase, postgresAdminUrl } from '../support/postgres';
import { startServer, type ServerHandle } from '../support/server';

/** A fresh server with no account: the first visit must be the guarded setup page. */
let server: ServerHandle;
let dropDatabase: (() => Promise<void>) | null = null;

test.beforeAll(async () => {
  const adminUrl = postgresAdminUrl();
  const env: Record<string, string> = {};
  if (adminUrl) {
    const scratch = await createScratchDatabase(adminUrl, 'mailstead_setup');
    dropDatabase = scratch.drop;
    Object.assign(env, { DATABASE_URL: scratch.url, MAILSTEAD_SECRET: 'setup-test-secret-setup-test-secret-0001' });
  }
  server = await startServer({ env });
});

test.afterAll(async () => {
  await server?.stop();
  await dropDatabase?.();
});

test('first run: setup needs the token from the log, then the owner signs in and out', async ({ page }, testInfo) => {
  const token = readFileSync(path.join(server.dataDir, 'setup-token'), 'utf8').trim();
  expect(readFileSync(server.logFile, 'utf8')).toContain(token);

  await page.goto(server.baseUrl);
  await expect(page).toHaveURL(/\/setup$/);
  await expect(page.getByRole('heading', { name: 'Set up Mailstead' })).toBeVisible();
  await capture(page, testInfo, 'setup');

  // Without the token: refused by the form, and by the API itself.
  await page.getByLabel('Account name').fill('Acme Mail');
  await page.getByLabel('Your email').fill('owner@acme.example');
  await page.getByLabel('Password').fill('a long enough password');
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page.locator('[data-field-error="token"]')).toHaveText('the setup token is required');
  const api = new ApiClient(server.baseUrl, server.dataDir);
  const direct = await api.post('/internal/setup', {
    token: 'setup-guess',
    account_name: 'Evil',
    email: 'evil@evil.example',
    password: 'a long enough password',
  });
  expect(direct.status).toBe(403);

  // A wrong token: the server's refusal appears next to the field.
  await page.getByLabel('Setup token').fill('setup-wrong-token');
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page.locator('[data-field-error="token"]')).toContainText('not valid');

  // The address the server prints in a terminal fills the token in.
  await page.goto(`${server.baseUrl}/setup?token=${token}`);
  await expect(page.getByLabel('Setup token')).toHaveValue(token);
  await page.getByLabel('Account name').fill('Acme Mail');
  await page.getByLabel('Your email').fill('owner@acme.example');
  await page.getByLabel('Password').fill('a long enough password');
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page.getByRole('heading', { name: 'Overview' })).toBeVisible();
  expect(existsSync(path.join(server.dataDir, 'setup-token'))).toBe(false);
  await expect(page.getByTestId('signed-in-as')).toHaveText('owner@acme.example');
  await capture(page, testInfo, 'overview');

  // The account made here is in its audit log from the start, by the person who set it up.
  const accountId = new URL(page.url()).pathname.split('/')[1];
  const audited = await page.request.get(
    `${server.baseUrl}/v2/accounts/${accountId}/audit-events?action=account.create`,
  );
  expect(audited.status()).toBe(200);
  expect((await audited.json()).data).toEqual([
    expect.objectContaining({
      action: 'account.create',
      actor: expect.objectContaining({ type: 'user', label: 'owner@acme.example' }),
      resource: { type: 'account', id: accountId },
    }),
  ]);

  // The token is spent: setup is closed for good.
  expect((await api.get('/internal/setup')).body).toEqual({ needs_setup: false });
  const again = await api.post('/internal/setup', {
    token,
    account_name: 'Second',
    email: 'x@acme.example',
    password: 'a long enough password',
  });
  expect(again.status).toBe(409);

  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/sign-in/);
  await page.goto(`${server.baseUrl}/setup`);
  await expect(page).toHaveURL(/\/sign-in/);

  await page.getByLabel('Email').fill('owner@acme.example');
  await page.getByLabel('Password').fill('the wrong password');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.locator('form').getByRole('alert')).toHaveText('Wrong email or password.');
  await capture(page, testInfo, 'sign-in-error');

  await page.getByLabel('Password').fill('a long enough password');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByTestId('signed-in-as')).toHaveText('owner@acme.example');
});

test('repeated failed sign-ins from one address are refused for a while, even with the right password', async ({
  page,
}) => {
  await page.goto(`${server.baseUrl}/sign-in`);
  const alert = page.locator('form').getByRole('alert');
  let failures = 0;
  for (; failures < 12; failures++) {
    await page.getByLabel('Email').fill('owner@acme.example');
    await page.getByLabel('Password').fill(`guess ${failures}`);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(alert).toHaveText(/Wrong email or password|Too many failed sign-ins/);
    if ((await alert.textContent())?.includes('Too many')) break;
  }
  // The earlier test failed once from this address too; the limit is ten failures.
  expect(failures).toBeGreaterThanOrEqual(8);
  expect(failures).toBeLessThanOrEqual(10);
  await page.getByLabel('Password').fill('a long enough password');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(alert).toContainText('Too many failed sign-ins');
});
