import { expect, test } from '../support/dashboard';
import { OWNER_PASSWORD, uniqueEmail } from '../support/cli';
import { DESKTOP, PHONE, capture, defineAttributes, expectNoHorizontalOverflow, signIn } from '../support/dashboard';
import { verifiedDomain } from '../support/sending';
import { newAccount, sharedServer } from '../support/shared';

/**
 * The Signup forms pages: the empty state, a form created with lists, fields and a redirect, its page
 * (hosted link, embed snippet with a copy button and a preview, signups counted, the missing sender
 * said), the hosted page itself, and a delete that is confirmed; at desktop and phone widths.
 */
const stamp = Date.now().toString(36);
const WIDE = { width: 1440, height: 900 } as const;

test('create a signup form, see its link, snippet and preview, sign up on the hosted page, delete it', async ({
  page,
}, testInfo) => {
  test.setTimeout(180_000);
  const email = uniqueEmail('signup-owner');
  const { api, accountId } = await newAccount('Signup forms', email);
  const { baseUrl } = sharedServer();
  await api.post(api.account('/lists'), { name: 'Newsletter' });
  await api.post(api.account('/lists'), { name: 'Product updates' });

  await page.setViewportSize(WIDE);
  await signIn(page, baseUrl, email, OWNER_PASSWORD);
  await defineAttributes(page, baseUrl, accountId, [{ key: 'company', type: 'string', label: 'Company' }]);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Signup forms' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Signup forms' })).toBeVisible();
  await expect(page.getByText('No signup forms yet')).toBeVisible();
  await capture(page, testInfo, 'signup-forms-empty-1440');

  await page.getByRole('button', { name: 'Create signup form' }).first().click();
  const create = page.getByRole('dialog', { name: 'Create a signup form' });
  await create.getByRole('button', { name: 'Create form' }).click();
  await expect(create.getByText('must not be empty')).toBeVisible();
  await create.getByLabel('Name').fill(`Join us <b>${stamp}</b>`);
  await create.getByLabel('Newsletter').check();
  await create.getByLabel(/^Company/).check();
  await capture(page, testInfo, 'signup-forms-create-1440');
  await create.getByLabel('Redirect after signup').fill('http://example.com/thanks');
  await create.getByRole('button', { name: 'Create form' }).click();
  await expect(create.getByText('must be an absolute https:// URL')).toBeVisible();
  await create.getByLabel('Redirect after signup').fill('');
  await create.getByRole('button', { name: 'Create form' }).click();

  await expect(page.getByRole('heading', { level: 1, name: `Join us <b>${stamp}</b>` })).toBeVisible();
  await expect(page.getByText('Confirmation emails cannot be sent')).toBeVisible();
  const publicUrl = (await page.getByTestId('public-url').textContent())!;
  expect(publicUrl).toMatch(/\/f\/[0-9a-f-]{36}$/);
  await expect(page.getByTestId('embed-html')).toContainText('name="company"');
  await expect(page.getByRole('button', { name: 'Copy embed snippet' })).toBeVisible();
  await expect(page.frameLocator('iframe[title="Preview of the signup form"]').getByLabel('Company')).toBeVisible();
  await capture(page, testInfo, 'signup-form-detail-1440');

  // The sender appears once a marketing domain is verified.
  const domain = `signup-dashboard-${stamp}.example.com`;
  await verifiedDomain(api, domain);
  await api.put(api.account(`/domains/${domain}`), { sending_type: 'marketing' });
  await page.reload();
  await expect(page.getByText(`Confirmation from no-reply@${domain}`)).toBeVisible();

  // The hosted page, as a visitor sees it, at both widths; a signup is counted.
  const visitor = await page.context().newPage();
  await visitor.setViewportSize(PHONE);
  await visitor.goto(publicUrl);
  await expect(visitor.getByRole('heading', { name: `Join us <b>${stamp}</b>` })).toBeVisible();
  await expectNoHorizontalOverflow(visitor);
  await capture(visitor, testInfo, 'signup-form-hosted-390');
  await visitor.getByLabel('Email').fill(`visitor-${stamp}@example.org`);
  await visitor.getByLabel('Company').fill('Acme');
  await visitor.getByRole('button', { name: 'Subscribe' }).click();
  await expect(visitor.getByRole('heading', { name: 'Check your inbox' })).toBeVisible();
  await capture(visitor, testInfo, 'signup-form-thanks-390');
  await visitor.setViewportSize(WIDE);
  await visitor.goto(publicUrl);
  await capture(visitor, testInfo, 'signup-form-hosted-1440');
  await visitor.close();

  await page.reload();
  await expect(page.locator('[data-figure="signups"] [data-value]')).toHaveText('1');
  await page.setViewportSize(PHONE);
  await expectNoHorizontalOverflow(page);
  await capture(page, testInfo, 'signup-form-detail-390');

  await page.getByRole('link', { name: 'All signup forms' }).click();
  await expect(page.locator(`[data-form-row="Join us <b>${stamp}</b>"]`)).toBeVisible();
  await expectNoHorizontalOverflow(page);
  await capture(page, testInfo, 'signup-forms-list-390');
  await page.setViewportSize(DESKTOP);
  await page.locator(`[data-form-row="Join us <b>${stamp}</b>"]`).getByRole('link').click();

  await page.getByRole('button', { name: 'Delete' }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete this signup form?' });
  await expect(confirm).toContainText('1 so far) stay on their lists');
  await capture(page, testInfo, 'signup-form-delete-1280');
  await confirm.getByRole('button', { name: 'Delete form' }).click();
  await expect(page.getByText('No signup forms yet')).toBeVisible();
});
