import { expect, test } from '../support/dashboard';
import { OWNER_PASSWORD, uniqueEmail } from '../support/cli';
import { PHONE, capture, expectNoHorizontalOverflow, signIn } from '../support/dashboard';
import { routeDomainToLoopback, verifiedDomain } from '../support/sending';
import { newAccount, sharedServer } from '../support/shared';

/**
 * A campaign's life in the browser: a send to more than 1,000 people is confirmed by typing their
 * number; while sending it is paused and resumed; Cancel names how many messages will not be sent;
 * Duplicate opens a new draft. Its recipients' MX is on loopback, which the shared server may not
 * reach, so every message is deferred and the campaign stays `sending` until cancelled.
 */
const WIDE = { width: 1440, height: 900 } as const;
const figure = (page: import('@playwright/test').Page, name: string) =>
  page.locator(`[data-figure="${name}"] [data-value]`);
const AUDIENCE = 1001;

test('send to a typed count, pause, resume, cancel naming what will not be sent, duplicate', async ({
  page,
}, testInfo) => {
  test.setTimeout(240_000);
  const stamp = Date.now().toString(36);
  const email = uniqueEmail('lifecycle-owner');
  const { api } = await newAccount('Campaign lifecycle', email);
  const sender = `life-${stamp}.example.com`;
  const rcptDomain = `life-${stamp}.example`;
  await verifiedDomain(api, sender);
  expect((await api.put(api.account(`/domains/${sender}`), { sending_type: 'marketing' })).status).toBe(200);
  await routeDomainToLoopback(rcptDomain);
  const list = (await api.post(api.account('/lists'), { name: 'Everyone' })).body;
  const emails = Array.from({ length: AUDIENCE }, (_, index) => `reader${index}@${rcptDomain}`);
  for (let start = 0; start < emails.length; start += 1000) {
    const pasted = await api.post(api.account(`/lists/${list.id}/members/paste`), {
      lines: emails.slice(start, start + 1000),
      create_missing: true,
    });
    expect(pasted.status, pasted.text).toBe(200);
  }
  const created = await api.post(api.account('/campaigns'), {
    name: 'Big news',
    from: { email: `news@${sender}`, name: 'News' },
    reply_to: { email: `desk@${sender}`, name: null },
    subject: 'Big news',
    html_content: '<h1>Big news</h1><p>Read on.</p>',
    list_ids: [list.id],
    tracking: { open: true, click: false },
  });
  expect(created.status).toBe(201);
  const id = created.body.id;

  await page.setViewportSize(WIDE);
  await signIn(page, sharedServer().baseUrl, email, OWNER_PASSWORD);
  await page.goto(`${sharedServer().baseUrl}/${api.accountId}/campaigns/${id}`);
  await page.getByRole('button', { name: /Review$/ }).click();
  await expect(page.getByTestId('review-audience')).toContainText('1,001 recipients right now');
  // Review shows everything that goes out: reply-to and tracking too.
  const summary = page.getByTestId('campaign-summary');
  await expect(summary).toContainText(`desk@${sender}`);
  await expect(summary).toContainText('Opens on, clicks off');

  // A schedule is shown in the viewer's zone and in UTC.
  await page.getByLabel('Send at').fill('2030-01-15T09:30');
  await expect(page.getByText(/UTC\)?$/).first()).toBeVisible();

  // More than 1,000 recipients: the confirm button stays off until the number is typed.
  await page.getByLabel('Send at').fill('');
  await page.getByRole('button', { name: 'Send now…' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByRole('heading', { name: 'Send to 1,001 contacts now?' })).toBeVisible();
  const confirmSend = dialog.getByRole('button', { name: 'Send to 1,001 contacts' });
  await expect(confirmSend).toBeDisabled();
  await dialog.getByLabel('Type 1,001 to confirm').fill('1000');
  await expect(confirmSend).toBeDisabled();
  await dialog.getByLabel('Type 1,001 to confirm').fill('1,001');
  await expect(confirmSend).toBeEnabled();
  await capture(page, testInfo, 'campaign-typed-confirm-1440');
  await page.setViewportSize(PHONE);
  await capture(page, testInfo, 'campaign-typed-confirm-390');
  await page.setViewportSize(WIDE);
  await confirmSend.click();

  // Sending: Pause holds it, Resume lets it go on.
  await expect(page.locator('[data-campaign-status="sending"]')).toBeVisible({ timeout: 60_000 });
  await expect(page.getByTestId('campaign-progress')).toContainText('1,001', { timeout: 60_000 });
  // Every message tried once and deferred (its retry minutes away): no delivery batch is in flight when
  // Cancel comes, so that the figures below are exact on a slow machine too.
  await expect
    .poll(async () => (await api.get(api.account(`/campaigns/${id}`))).body.counts?.deferred, { timeout: 90_000 })
    .toBe(1001);
  await page.getByRole('button', { name: 'Pause' }).click();
  await expect(page.locator('[data-campaign-status="paused"]')).toBeVisible();
  await expect(page.getByTestId('campaign-progress')).toContainText('not sent until you resume');
  await expect(page.getByRole('button', { name: 'Pause' })).toHaveCount(0);
  await capture(page, testInfo, 'campaign-paused-1440');
  await page.setViewportSize(PHONE);
  await expectNoHorizontalOverflow(page);
  await capture(page, testInfo, 'campaign-paused-390');
  await page.setViewportSize(WIDE);
  await page.getByRole('button', { name: 'Resume' }).click();
  await expect(page.locator('[data-campaign-status="sending"]')).toBeVisible();

  // Cancel asks first, naming how many messages will not be sent; keeping it changes nothing.
  await page.getByRole('button', { name: 'Cancel campaign…' }).click();
  await expect(dialog.getByRole('heading', { name: 'Cancel: 1,001 messages will not be sent?' })).toBeVisible();
  await expect(dialog.getByTestId('cancel-count')).toContainText('1,001 messages of 1,001 have not been delivered');
  await capture(page, testInfo, 'campaign-cancel-confirm-1440');
  await page.setViewportSize(PHONE);
  await capture(page, testInfo, 'campaign-cancel-confirm-390');
  await page.setViewportSize(WIDE);
  await dialog.getByRole('button', { name: 'Keep it' }).click();
  await expect(dialog).toBeHidden();
  expect((await api.get(api.account(`/campaigns/${id}`))).body.status).toBe('sending');
  await page.getByRole('button', { name: 'Cancel campaign…' }).click();
  await dialog.getByRole('button', { name: 'Cancel 1,001 messages' }).click();
  await expect(page.locator('[data-campaign-status="cancelled"]')).toBeVisible();
  await expect(page.getByTestId('campaign-progress')).toContainText('1,001 of 1,001 messages were not sent');
  await expect(page.getByRole('button', { name: 'Resume' })).toHaveCount(0);
  // The numbers follow at once: nothing deferred any more, every recipient cancelled.
  await expect(figure(page, 'cancelled')).toHaveText('1,001');
  await expect(figure(page, 'deferred')).toHaveText('0');
  await capture(page, testInfo, 'campaign-cancelled-1440');
  await page.setViewportSize(PHONE);
  await expectNoHorizontalOverflow(page);
  await capture(page, testInfo, 'campaign-cancelled-390');
  await page.setViewportSize(WIDE);
  expect((await api.get(api.account(`/campaigns/${id}`))).body.counts).toMatchObject({ cancelled: AUDIENCE });

  // The list's filter knows the new states.
  await page.getByRole('link', { name: '← Campaigns' }).click();
  await page.getByLabel('Filter campaigns by status').selectOption('cancelled');
  await expect(page.locator('[data-campaign-row="Big news"] [data-campaign-status="cancelled"]')).toBeVisible();
  await page.getByLabel('Filter campaigns by status').selectOption('paused');
  await expect(page.getByText('No campaigns match')).toBeVisible();

  // Duplicate: a new draft with the same design, opened in the wizard.
  await page.getByLabel('Filter campaigns by status').selectOption('cancelled');
  await page.locator('[data-campaign-row="Big news"]').getByRole('link').first().click();
  await page.getByRole('button', { name: 'Duplicate' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Copy of Big news' })).toBeVisible();
  await expect(page.locator('[data-campaign-status="draft"]')).toBeVisible();
  await expect(page.getByLabel('Subject')).toHaveValue('Big news');
  await capture(page, testInfo, 'campaign-duplicated-1440');
});
