import { copyFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { expect, type Page, type TestInfo } from '@playwright/test';
import { ROOT } from './paths';

export const PHONE = { width: 390, height: 844 } as const;
export const DESKTOP = { width: 1280, height: 800 } as const;

// Playwright empties test-results/ when a run starts; MAILSTEAD_TEST_SCREENSHOTS puts them elsewhere.
const SCREENSHOTS = process.env.MAILSTEAD_TEST_SCREENSHOTS ?? path.join(ROOT, 'test-results', 'screenshots');

export async function signIn(page: Page, baseUrl: string, email: string, password: string) {
  await page.goto(`${baseUrl}/sign-in`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByTestId('signed-in-as')).toHaveText(email);
}

/**
 * Every page a test visits is kept as a screenshot in the test's artifacts, and under
 * test-results/screenshots/ by name, to look at after the run.
 */
export async function capture(page: Page, testInfo: TestInfo, name: string) {
  const file = testInfo.outputPath(`${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  await testInfo.attach(name, { path: file, contentType: 'image/png' });
  mkdirSync(SCREENSHOTS, { recursive: true });
  copyFileSync(file, path.join(SCREENSHOTS, `${name}.png`));
}

/** At a phone's width nothing may make the whole page scroll sideways. */
export async function expectNoHorizontalOverflow(page: Page) {
  const widths = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, viewport: window.innerWidth }));
  expect.soft(widths.scroll, `the page is ${widths.scroll}px wide in a ${widths.viewport}px viewport`).toBeLessThanOrEqual(widths.viewport);
}
