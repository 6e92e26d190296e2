import type { Page } from '@playwright/test';
import { generateSync } from 'otplib';
import { expect } from './dashboard';

/** What an authenticator app would show for `secret` now (or `offsetSeconds` from now). */
export function codeFor(secret: string, offsetSeconds = 0): string {
  return generateSync({ secret, epoch: Math.floor(Date.now() / 1000) + offsetSeconds });
}

/** Six digits that no step around now accepts: a wrong code for sure. */
export function wrongCodeFor(secret: string, salt = 0): string {
  const valid = new Set([-60, -30, 0, 30, 60].map((offset) => codeFor(secret, offset)));
  for (let candidate = 100000 + salt * 7919; ; candidate++) if (!valid.has(String(candidate))) return String(candidate);
}

/**
 * Sets up two-factor sign-in in the Two-factor section on the page (the profile or the setup page):
 * the secret read from the page's text, a code computed from it, the recovery codes read and saved.
 */
export async function setUpTwoFactor(page: Page): Promise<{ secret: string; codes: string[] }> {
  await page.getByRole('button', { name: 'Set up two-factor sign-in' }).click();
  const secret = (await page.getByTestId('two-factor-secret').innerText()).replace(/\s/g, '');
  expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
  await expect(page.getByRole('img', { name: 'QR code for your authenticator app' })).toBeVisible();
  await page.getByLabel('Code from the app').fill(codeFor(secret));
  await page.getByRole('button', { name: 'Turn on' }).click();
  const list = page.getByTestId('recovery-codes');
  await expect(list.getByRole('listitem')).toHaveCount(10);
  const codes = await list.getByRole('listitem').allInnerTexts();
  await expect(page.getByRole('button', { name: 'Done' })).toBeDisabled();
  await page.getByLabel('I have saved these recovery codes').check();
  await page.getByRole('button', { name: 'Done' }).click();
  return { secret, codes };
}

/** Signs out and waits for the sign-in page, so that the next navigation does not cut this one short. */
export async function signOut(page: Page) {
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/sign-in/);
}

/** Email and password on the sign-in page, up to the code step. */
export async function signInToCodeStep(page: Page, baseUrl: string, email: string, password: string) {
  await page.goto(`${baseUrl}/sign-in`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByText('Enter the 6-digit code from your authenticator app.')).toBeVisible();
}

/** Submits a code and waits for the answer (the message of an earlier try stays until then). */
export async function submitCode(page: Page, code: string) {
  await page.locator('#code').fill(code);
  const verify = page.getByRole('button', { name: 'Verify' });
  await verify.click();
  await expect(verify.and(page.locator('[aria-busy]'))).toHaveCount(0);
}
