import { expect, test } from '../support/dashboard';
import { OWNER_PASSWORD, uniqueEmail } from '../support/cli';
import { DESKTOP, PHONE, capture, expectNoHorizontalOverflow, signIn } from '../support/dashboard';
import { verifiedDomain } from '../support/sending';
import { newAccount, sharedServer } from '../support/shared';

/**
 * A campaign drafted in the browser: content with its preview, a list with the live count, a test
 * send, a review that names the transactional sender and links to the step that fixes it, then
 * Send now, the campaign reaching `sent`, and its report counting the recipients.
 */
const stamp = Date.now().toString(36);
const figure = (page: import('@playwright/test').Page, name: string) =>
  page.locator(`[data-figure="${name}"] [data-value]`);

test('draft a campaign step by step, fix what the review finds, send it and read its report', async ({
  page,
}, testInfo) => {
  test.setTimeout(180_000);
  const email = uniqueEmail('campaigns-owner');
  const { api } = await newAccount('Campaigns', email);
  const { baseUrl } = sharedServer();
  const marketing = `cmp-ui-${stamp}.example.com`;
  const transactional = `cmp-ui-tx-${stamp}.example.com`;
  await verifiedDomain(api, marketing);
  expect((await api.put(api.account(`/domains/${marketing}`), { sending_type: 'marketing' })).status).toBe(200);
  await verifiedDomain(api, transactional);
  const list = (await api.post(api.account('/lists'), { name: 'Readers' })).body;
  const readers = ['ann', 'ben', 'col'].map((name) => `${name}-${stamp}@example.net`);
  for (const [index, reader] of readers.entries())
    expect((await api.post(api.account('/contacts'), { email: reader, first_name: `Reader${index}` })).status).toBe(
      201,
    );
  expect((await api.post(api.account(`/lists/${list.id}/members`), { contacts: readers })).status).toBeLessThan(300);
  // col unsubscribed everywhere: counted by the list, not by the audience.
  expect((await api.post(api.account(`/contacts/${encodeURIComponent(readers[2])}/unsubscribe`))).status).toBe(200);

  await signIn(page, baseUrl, email, OWNER_PASSWORD);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Campaigns' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Campaigns' })).toBeVisible();
  await expect(page.getByText('No campaigns yet')).toBeVisible();
  await capture(page, testInfo, 'campaigns-empty');

  // Content: written here, previewed in a sandboxed frame, saved as it is typed.
  await page.getByRole('button', { name: 'New campaign' }).first().click();
  await expect(page.getByRole('navigation', { name: 'Campaign steps' })).toBeVisible();
  const campaignId = page.url().split('/').at(-1)!;
  await page.getByLabel('Campaign name').fill('Spring news');
  await page.getByLabel('Subject').fill('Hello {{ first_name }}');
  await page
    .getByTestId('code-editor-html')
    .getByLabel('HTML')
    .fill(
      '<html><body><h1>Spring news</h1><p>Hi {{ first_name }}, <a href="https://example.org/spring">read on</a>.</p></body></html>',
    );
  await expect(
    page
      .getByRole('region', { name: 'Campaign preview' })
      .frameLocator('iframe[title="HTML preview"]')
      .getByRole('heading', { name: 'Spring news' }),
  ).toBeVisible();
  await expect(page.getByTestId('save-state')).toHaveAttribute('data-state', 'saved');
  await expect(page.getByRole('heading', { level: 1, name: 'Spring news' })).toBeVisible();
  await capture(page, testInfo, 'campaign-content');

  // Audience: the live count leaves out the unsubscribed reader.
  await page.getByRole('button', { name: 'Next: Audience' }).click();
  await expect(page.getByTestId('audience-count')).toHaveText('0');
  await page.getByLabel('Readers').check();
  await expect(page.getByTestId('audience-count')).toHaveText('2');
  await expect(page.locator('[data-audience-list="Readers"]')).toContainText('3 confirmed');
  await capture(page, testInfo, 'campaign-audience');

  // Settings: a transactional sender, which the review will refuse.
  await page.getByRole('button', { name: 'Next: Settings' }).click();
  await page.getByLabel('From address').fill(`news@${transactional}`);
  await page.getByLabel('From name').fill('Spring team');
  await expect(page.getByTestId('save-state')).toHaveAttribute('data-state', 'saved');
  // A new account tracks neither opens nor clicks: the step says so, and what each would count.
  await expect(page.getByTestId('tracking-hint')).toContainText('report will show no opens or clicks');
  await capture(page, testInfo, 'campaign-settings');
  await page.setViewportSize(PHONE);
  await expectNoHorizontalOverflow(page);
  await capture(page, testInfo, 'campaign-settings-390');
  await page.setViewportSize(DESKTOP);

  // A/B test: optional, off until asked for (campaign-ab-test.spec.ts drives it).
  await page.getByRole('button', { name: 'Next: A/B test' }).click();
  await expect(page.getByLabel('Test variants before sending to everyone')).not.toBeChecked();

  // Test send: queued for the address given.
  await page.getByRole('button', { name: 'Next: Test send' }).click();
  await page.getByLabel('Send a test to').fill(`tester-${stamp}@example.net`);
  await page.getByRole('button', { name: 'Send test' }).click();
  await expect(page.getByTestId('test-send-result')).toContainText(`tester-${stamp}@example.net`);
  await capture(page, testInfo, 'campaign-test-send');

  // Review: the failure explained, with the way to the step that fixes it.
  await page.getByRole('button', { name: 'Next: Review' }).click();
  const problem = page.locator('[data-problem-field="from"]');
  await expect(problem).toContainText('is a transactional domain');
  await expect(page.getByRole('button', { name: 'Send now' })).toBeDisabled();
  await capture(page, testInfo, 'campaign-review-failure');
  await page.setViewportSize(PHONE);
  await expectNoHorizontalOverflow(page);
  await capture(page, testInfo, 'campaign-review-failure-390');
  await page.setViewportSize(DESKTOP);
  await problem.getByRole('link', { name: 'Fix in Settings' }).click();
  await page.getByLabel('From address').fill(`news@${marketing}`);
  await expect(page.getByTestId('save-state')).toHaveAttribute('data-state', 'saved');
  await page.getByRole('button', { name: /Review$/ }).click();
  await expect(page.getByTestId('review-audience')).toContainText(`2 recipients right now, from ${marketing}`);
  // Review shows what would go out: the subject as a member gets it, the sender, the lists, a preview.
  const summary = page.getByTestId('campaign-summary');
  await expect(summary).toContainText(/Hello Reader\d/);
  await expect(summary).toContainText(`Spring team <news@${marketing}>`);
  await expect(summary).toContainText('Readers');
  await expect(
    page.frameLocator('iframe[title="Campaign preview"]').getByRole('heading', { name: 'Spring news' }),
  ).toBeVisible();
  await capture(page, testInfo, 'campaign-review-ready');
  await page.setViewportSize(PHONE);
  await expectNoHorizontalOverflow(page);
  await capture(page, testInfo, 'campaign-review-ready-390');
  await page.setViewportSize(DESKTOP);

  // Send now asks first, naming the audience as the server counts it now; cancelling sends nothing.
  await page.getByRole('button', { name: 'Send now…' }).click();
  const confirm = page.getByRole('dialog');
  await expect(confirm.getByRole('heading', { name: 'Send to 2 contacts now?' })).toBeVisible();
  await expect(confirm.getByTestId('campaign-summary')).toContainText('Readers');
  await capture(page, testInfo, 'campaign-send-confirm');
  await page.setViewportSize(PHONE);
  await capture(page, testInfo, 'campaign-send-confirm-390');
  await page.setViewportSize(DESKTOP);
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(confirm).toBeHidden();
  expect((await api.get(api.account(`/campaigns/${campaignId}`))).body.status).toBe('draft');
  expect((await api.get(api.account(`/messages?campaign_id=${campaignId}`))).body.data).toEqual([]);

  // Send now, confirmed: validating, then sent once every message has an outcome; the report counts them.
  await page.getByRole('button', { name: 'Send now…' }).click();
  await confirm.getByRole('button', { name: 'Send to 2 contacts' }).click();
  await expect(page.getByTestId('campaign-progress')).toBeVisible();
  await expect(page.locator('[data-campaign-status="sent"]')).toBeVisible({ timeout: 60_000 });
  await expect(figure(page, 'recipients')).toHaveText('2');
  await expect(page.getByTestId('campaign-progress')).toContainText('every one of 2 messages has an outcome');
  await expect(page.getByRole('region', { name: 'Unsubscribes' })).toContainText('Nobody has unsubscribed');
  // The v2 report's charts: deliveries, opens and clicks per hour, and the mailbox providers.
  await expect(page.locator('[data-chart="campaign-engagement"]')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Mailbox providers' })).toBeVisible();
  await capture(page, testInfo, 'campaign-report');
  await page.setViewportSize(PHONE);
  await expectNoHorizontalOverflow(page);
  await capture(page, testInfo, 'campaign-report-390');
  await page.setViewportSize(DESKTOP);
  expect((await api.get(api.account(`/campaigns/${campaignId}`))).body).toMatchObject({
    status: 'sent',
    name: 'Spring news',
    subject: 'Hello {{ first_name }}',
    list_ids: [list.id],
  });

  // Its messages: each with the subject its reader got, each linking back to the campaign.
  await page.getByRole('link', { name: "View this campaign's messages" }).click();
  await expect(page.locator('[data-message-row]')).toHaveCount(2);
  await expect(page.locator(`[data-message-row="${readers[0]}"]`)).toContainText('Hello Reader0');
  await expect(page.locator(`[data-message-row="${readers[1]}"]`)).toContainText('Hello Reader1');
  await expect(page.locator('main')).not.toContainText('{{');
  await capture(page, testInfo, 'campaign-messages');
  await page.setViewportSize(PHONE);
  await expectNoHorizontalOverflow(page);
  await capture(page, testInfo, 'campaign-messages-390');
  await page.setViewportSize(DESKTOP);
  await page.locator(`[data-message-row="${readers[0]}"]`).getByRole('link', { name: 'From a campaign' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Spring news' })).toBeVisible();

  // The list: the campaign with its recipients, and the status filter.
  await page.getByRole('link', { name: '← Campaigns' }).click();
  const row = page.locator('[data-campaign-row="Spring news"]');
  await expect(row.locator('[data-count="recipients"]')).toContainText('2');
  await expect(row.locator('[data-campaign-status="sent"]')).toBeVisible();
  await page.getByLabel('Filter campaigns by status').selectOption('draft');
  await expect(page.getByText('No campaigns match')).toBeVisible();
  await page.getByLabel('Filter campaigns by status').selectOption('sent');
  await expect(row).toBeVisible();
  await capture(page, testInfo, 'campaigns-list');
  await page.setViewportSize(PHONE);
  await expectNoHorizontalOverflow(page);
  await capture(page, testInfo, 'campaigns-list-390');
});
