import { expect, test, type Page } from '@playwright/test';
import { OWNER_PASSWORD, uniqueEmail } from '../support/cli';
import { DESKTOP, PHONE, capture, expectNoHorizontalOverflow, signIn } from '../support/dashboard';
import { verifiedDomain, waitForStatus } from '../support/sending';
import { newAccount, sharedServer } from '../support/shared';

/** A page is ready when its heading shows and nothing on it is still loading. */
async function openPage(page: Page, url: string, heading: string | RegExp) {
  await page.goto(url);
  await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: /Loading/ })).toHaveCount(0);
}

test('at 390 px every page fits the screen; the menu button opens the navigation as a drawer', async ({ page }, testInfo) => {
  test.setTimeout(180_000);
  const email = uniqueEmail('phone-owner');
  const account = await newAccount('Phone layout, with a name long enough to crowd the header', email);
  const domain = `phone-layout-${Date.now().toString(36)}.example.com`;
  await verifiedDomain(account.api, domain);
  const sent = await account.api.post(account.api.account('/messages'), {
    from: { email: `notifications@${domain}` },
    sandbox: true,
    recipients: [{ email: 'a-rather-long-recipient-address-for-small-screens@example.org' }],
    subject: 'A subject line long enough that it has to wrap on a phone screen somewhere',
    text_content: 'Only text in this one.',
    tags: ['phone', 'layout'],
  });
  const messageId = sent.body.data[0].id as string;
  await waitForStatus(account.api, messageId, 'Sandbox Delivered');
  const { baseUrl } = sharedServer();
  const base = `${baseUrl}/${account.accountId}`;
  const pages: [string, string, string | RegExp][] = [
    ['overview', base, 'Overview'],
    ['domains', `${base}/domains`, 'Domains'],
    ['domain', `${base}/domains/${domain}`, domain],
    ['messages', `${base}/messages`, 'Messages'],
    ['message', `${base}/messages/${encodeURIComponent(messageId)}`, /A subject line long enough/],
    ['api-keys', `${base}/api-keys`, 'API keys'],
    ['settings', `${base}/settings`, 'Settings'],
    ['deliverability', `${base}/deliverability`, 'Deliverability'],
    ['suppressions', `${base}/suppressions`, 'Suppressions'],
    ['webhooks', `${base}/webhooks`, 'Webhooks'],
    ['contacts', `${base}/contacts`, 'Contacts'],
    ['contact-attributes', `${base}/contacts/attributes`, 'Contact attributes'],
    ['contact-import', `${base}/contacts/import`, 'Import contacts'],
    ['lists', `${base}/lists`, 'Lists'],
  ];

  await page.setViewportSize(PHONE);
  await page.goto(`${baseUrl}/sign-in`);
  await expectNoHorizontalOverflow(page);
  await capture(page, testInfo, 'sign-in-390');
  await signIn(page, baseUrl, email, OWNER_PASSWORD);
  for (const [name, url, heading] of pages) {
    await openPage(page, url, heading);
    await expectNoHorizontalOverflow(page);
    await capture(page, testInfo, `${name}-390`);
  }

  // The sidebar is gone at this width; the menu button brings the same navigation as a drawer.
  await openPage(page, `${base}/domains`, 'Domains');
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

  // The same pages at desktop width, with the sidebar and no menu button.
  await page.setViewportSize(DESKTOP);
  await expect(page.getByRole('button', { name: 'Menu', exact: true })).toBeHidden();
  await expect(nav).toBeVisible();
  for (const [name, url, heading] of pages) {
    await openPage(page, url, heading);
    await capture(page, testInfo, `${name}-desktop`);
  }
});
