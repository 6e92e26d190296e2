import { expect, test, type Page } from '@playwright/test';
import { createAccountWithKey, OWNER_PASSWORD } from '../support/cli';
import { startMxSuite, type MxSuite } from '../support/mx-suite';

/**
 * "Forgot password?" with SYSTEM_SENDER: the link is mailed through Mailstead's own delivery engine
 * and caught by a loopback MX; it works once, ends every session, and stops working after its TTL
 * (40 seconds here, so that one can be seen to expire: it is asked for first, and expires while the
 * other tests run). An unknown address gets the same answer and no mail.
 */
test.use({
  browserName: 'chromium',
  ignoreHTTPSErrors: true,
  launchOptions: {
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--no-first-run'],
  },
});

const stamp = Date.now().toString(36);
const sender = `reset-sender-${stamp}.example.com`;
const rcptDomain = `reset-${stamp}.example`;
const TTL_SECONDS = 40;
const LINK = /https:\/\/127\.0\.0\.1:\d+\/reset-password\/[A-Za-z0-9_-]{43}/;
const ANSWER = /If .+ belongs to a Mailstead user, a link to choose a new password is on its way/;

let suite: MxSuite;
let expiring: { link: string; mailedAt: number } | null = null;

test.beforeAll(async ({ browser }) => {
  test.setTimeout(150_000);
  suite = await startMxSuite({
    name: 'Password resets',
    sender,
    recipientDomain: rcptDomain,
    env: { SYSTEM_SENDER: `Mailstead <no-reply@${sender}>`, PASSWORD_RESET_TTL_SECONDS: String(TTL_SECONDS) },
  });
  const { email } = await person('late');
  const page = await browser.newPage({ ignoreHTTPSErrors: true });
  await askForLink(page, email);
  // Its time runs from before the mail arrived: it has expired TTL_SECONDS after this, at the latest.
  expiring = { link: await mailedLink(email), mailedAt: Date.now() };
  await page.close();
});

test.afterAll(async () => {
  await suite?.stop();
});

async function person(name: string) {
  const email = `${name}-${stamp}@${rcptDomain}`;
  const created = await createAccountWithKey(suite.server.env, `Reset ${name}`, email);
  return { email, accountId: created.accountId };
}

/** Asks for a link on the page, as the person would, typing the address in capitals. */
async function askForLink(page: Page, email: string) {
  await page.goto(`${suite.server.baseUrl}/sign-in`);
  await page.getByRole('link', { name: 'Forgot password?' }).click();
  // The sign-in page has an Email field too: wait for this page's.
  await expect(page.getByRole('heading', { name: 'Forgot your password?' })).toBeVisible();
  await page.getByLabel('Email').fill(email.toUpperCase());
  await page.getByRole('button', { name: 'Mail me a reset link' }).click();
  await expect(page.getByText(ANSWER)).toBeVisible();
}

async function mailedLink(email: string, count = 1): Promise<string> {
  await expect.poll(() => suite.mx.for(email).length, { timeout: 30_000 }).toBe(count);
  const mail = suite.mx.for(email)[count - 1];
  expect(mail.parsed.subject).toBe('Reset your Mailstead password');
  expect(mail.parsed.from?.value[0]).toMatchObject({ address: `no-reply@${sender}` });
  const link = mail.parsed.text?.match(LINK)?.[0];
  expect(link, 'the mail carries a reset link').toBeTruthy();
  // No click tracking rewrote it.
  expect(mail.parsed.html).toContain(`href="${link}"`);
  return link!;
}

async function signIn(page: Page, email: string, password: string) {
  await page.goto(`${suite.server.baseUrl}/sign-in`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

test('the mailed link sets a new password once, ends every session, and a reused link is refused', async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  const { email, accountId } = await person('ada');
  const elsewhere = await browser.newContext({ ignoreHTTPSErrors: true });
  const elsewherePage = await elsewhere.newPage();
  await signIn(elsewherePage, email, OWNER_PASSWORD);
  await expect(elsewherePage.getByTestId('signed-in-as')).toHaveText(email);

  await askForLink(page, email);
  const link = await mailedLink(email);
  await page.goto(link);
  await expect(page.getByRole('heading', { name: 'Choose a new password' })).toBeVisible();
  await page.getByLabel('New password', { exact: true }).fill('mailed new password');
  await page.getByLabel('New password again').fill('mailed new password');
  await page.getByRole('button', { name: 'Set new password' }).click();
  await expect(page.getByRole('heading', { name: 'Password changed' })).toBeVisible();

  await elsewherePage.goto(`${suite.server.baseUrl}/${accountId}`);
  await expect(elsewherePage).toHaveURL(/\/sign-in/);
  await elsewhere.close();

  await page.goto(link);
  await expect(page.getByText('this reset link has already been used')).toBeVisible();
  await signIn(page, email, OWNER_PASSWORD);
  await expect(page.getByText('Wrong email or password.')).toBeVisible();
  await signIn(page, email, 'mailed new password');
  await expect(page.getByTestId('signed-in-as')).toHaveText(email);
});

test('an address that is no user gets the same answer and no mail', async ({ page }) => {
  const nobody = `nobody-${stamp}@${rcptDomain}`;
  await askForLink(page, nobody);
  // A known address's link arrives within this time (the previous test); none comes for this one.
  const { email } = await person('control');
  await askForLink(page, email);
  await mailedLink(email);
  expect(suite.mx.for(nobody)).toHaveLength(0);
});

test('a link past its time says it has expired', async ({ page }) => {
  test.setTimeout(120_000);
  const wait = expiring!.mailedAt + (TTL_SECONDS + 1) * 1000 - Date.now();
  if (wait > 0) await page.waitForTimeout(wait);
  await page.goto(expiring!.link);
  await expect(page.getByRole('heading', { name: 'This reset link cannot be used' })).toBeVisible();
  await expect(page.getByText('this reset link has expired: ask for a new one')).toBeVisible();
});
