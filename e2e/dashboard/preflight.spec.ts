import { expect, test } from '../support/dashboard';
import { OWNER_PASSWORD, uniqueEmail } from '../support/cli';
import { PHONE, capture, expectNoHorizontalOverflow, signIn } from '../support/dashboard';
import { verifiedDomain } from '../support/sending';
import { newAccount, sharedServer } from '../support/shared';

/**
 * The preflight panel: in the campaign wizard it runs again after the draft is saved and flags a
 * link that goes nowhere and an image without alt text, with the details one click away; on a
 * template's page it checks the saved draft.
 */
const stamp = Date.now().toString(36);
const WIDE = { width: 1440, height: 900 } as const;

test('the preflight panel flags a broken link and an image without alt, in the wizard and on a template', async ({
  page,
}, testInfo) => {
  test.setTimeout(120_000);
  const email = uniqueEmail('preflight-owner');
  const { api, accountId } = await newAccount('Preflight', email);
  const domain = `preflight-ui-${stamp}.example.com`;
  await verifiedDomain(api, domain);
  expect((await api.put(api.account(`/domains/${domain}`), { sending_type: 'marketing' })).status).toBe(200);
  const list = (await api.post(api.account('/lists'), { name: 'Readers' })).body;
  const reader = `ann-${stamp}@example.net`;
  expect((await api.post(api.account('/contacts'), { email: reader, first_name: 'Ann' })).status).toBe(201);
  expect((await api.post(api.account(`/lists/${list.id}/members`), { contacts: [reader] })).status).toBeLessThan(300);
  const campaign = await api.post(api.account('/campaigns'), {
    name: 'Autumn letter',
    from: { email: `news@${domain}`, name: 'News' },
    subject: 'Hello {{ first_name }}',
    html_content: '<p>Hello {{ first_name }}</p>',
    text_content: 'Hello {{ first_name }}',
    list_ids: [list.id],
  });
  expect(campaign.status, campaign.text).toBe(201);

  await page.setViewportSize(WIDE);
  const { baseUrl } = sharedServer();
  await signIn(page, baseUrl, email, OWNER_PASSWORD);
  await page.goto(`${baseUrl}/${accountId}/campaigns/${campaign.body.id}`);
  const panel = page.getByTestId('preflight-panel');
  await expect(panel).toHaveAttribute('data-state', 'pass', { timeout: 20_000 });
  await expect(panel.locator('[data-check-id="links"]')).toHaveAttribute('data-status', 'pass');

  // A link to a host that does not exist and an image without alt: saved as typed, then checked again.
  const gone = `https://gone-${stamp}.example.com/offer`;
  await page
    .getByRole('textbox', { name: 'HTML', exact: true })
    .fill(
      `<p>Hello {{ first_name }}, <a href="${gone}">see the offer</a></p><img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=">`,
    );
  await expect(page.getByTestId('save-state')).toHaveAttribute('data-state', 'saved');
  await expect(panel).toHaveAttribute('data-state', 'fail', { timeout: 20_000 });
  const links = panel.locator('[data-check-id="links"]');
  await expect(links).toHaveAttribute('data-status', 'fail');
  await expect(links).toContainText(`${gone} (DNS: no such host`);
  const images = panel.locator('[data-check-id="images"]');
  await expect(images).toHaveAttribute('data-status', 'warn');
  await expect(images).toContainText('1 image has no alt text');
  await links.getByText('Details').click();
  await expect(links.locator('details li').first()).toContainText(`${gone} · DNS: no such host`);
  await images.getByText('Details').click();
  await expect(images.locator('details li').first()).toContainText('no alt text');
  await panel.scrollIntoViewIfNeeded();
  await capture(page, testInfo, 'preflight-wizard-1440');
  await page.setViewportSize(PHONE);
  await expectNoHorizontalOverflow(page);
  await panel.scrollIntoViewIfNeeded();
  await capture(page, testInfo, 'preflight-wizard-390');

  // Review runs it again: the same findings beside what would go out.
  await page.setViewportSize(WIDE);
  await page
    .getByRole('button', { name: /Review/ })
    .first()
    .click();
  await expect(panel.locator('[data-check-id="links"]')).toHaveAttribute('data-status', 'fail', { timeout: 20_000 });

  // A template draft: its own panel, with the content checks only.
  const template = await api.post(api.account('/templates'), {
    name: 'Newsletter',
    kind: 'campaign',
    subject: 'News',
    html_content: `<p>News</p><a href="${gone}">more</a><img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=">`,
    text_content: 'News',
  });
  expect(template.status, template.text).toBe(201);
  await page.goto(`${baseUrl}/${accountId}/templates/${template.body.id}`);
  const templatePanel = page.getByTestId('preflight-panel');
  await expect(templatePanel).toHaveAttribute('data-state', 'fail', { timeout: 20_000 });
  await expect(templatePanel.locator('[data-check-id="sender"]')).toHaveCount(0);
  await expect(templatePanel.locator('[data-check-id="links"]')).toHaveAttribute('data-status', 'fail');
  await expect(templatePanel.locator('[data-check-id="images"]')).toHaveAttribute('data-status', 'warn');
  await templatePanel.scrollIntoViewIfNeeded();
  await capture(page, testInfo, 'preflight-template-1440');
  await page.setViewportSize(PHONE);
  await expectNoHorizontalOverflow(page);
  await templatePanel.scrollIntoViewIfNeeded();
  await capture(page, testInfo, 'preflight-template-390');
});
