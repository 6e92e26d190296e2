import type { Page } from '@playwright/test';
import { expect, test } from '../support/dashboard';
import { OWNER_PASSWORD, uniqueEmail } from '../support/cli';
import { DESKTOP, PHONE, capture, expectNoHorizontalOverflow, signIn } from '../support/dashboard';
import { newAccount, sharedServer } from '../support/shared';

/** A page is ready when its heading shows and nothing on it is still loading. */
async function openPage(page: Page, url: string, heading: string | RegExp) {
  await page.goto(url);
  await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: /Loading/ })).toHaveCount(0);
}

// That every page fits a 390 px screen is checked by page-errors.spec.ts, which loads them all at that width.
test('at 390 px the sidebar gives way to a menu button that opens the navigation as a drawer', async ({
  page,
}, testInfo) => {
  const email = uniqueEmail('phone-owner');
  const account = await newAccount('Phone layout, with a name long enough to crowd the header', email);
  const { baseUrl } = sharedServer();
  const base = `${baseUrl}/${account.accountId}`;

  await page.setViewportSize(PHONE);
  await signIn(page, baseUrl, email, OWNER_PASSWORD);
  // The sidebar is gone at this width; the menu button brings the same navigation as a drawer.
  await openPage(page, `${base}/domains`, 'Domains');
  await expectNoHorizontalOverflow(page);
  const nav = page.getByRole('navigation', { name: 'Main' });
  await expect(nav).toBeHidden();
  const menu = page.getByRole('button', { name: 'Menu', exact: true });
  await expect(menu).toHaveAttribute('aria-expanded', 'false');
  await menu.click();
  await expect(nav).toBeVisible();
  await expect(menu).toHaveAttribute('aria-expanded', 'true');
  await expect(nav.getByRole('link', { name: 'Domains' })).toHaveAttribute('aria-current', 'page');
  await capture(page, testInfo, 'menu-open-390');
  await page.keyboard.press('Escape');
  await expect(nav).toBeHidden();
  await menu.click();
  await nav.getByRole('link', { name: 'API keys' }).click();
  await expect(page).toHaveURL(/\/api-keys$/);
  await expect(nav).toBeHidden();
  await expect(page.getByRole('heading', { level: 1, name: 'API keys' })).toBeVisible();

  // At desktop width the sidebar is back and the menu button is gone.
  await page.setViewportSize(DESKTOP);
  await expect(page.getByRole('button', { name: 'Menu', exact: true })).toBeHidden();
  await expect(nav).toBeVisible();
  await capture(page, testInfo, 'api-keys-desktop');
});
