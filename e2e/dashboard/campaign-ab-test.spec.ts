import { expect, test } from '../support/dashboard';
import { OWNER_PASSWORD, uniqueEmail } from '../support/cli';
import { PHONE, capture, expectNoHorizontalOverflow, signIn } from '../support/dashboard';
import { routeDomainToLoopback, verifiedDomain } from '../support/sending';
import { newAccount, sharedServer } from '../support/shared';

/**
 * An A/B test in the browser: the wizard's A/B step says what will happen in numbers; once the test
 * part is out, the campaign page shows the variants side by side and "Choose this variant" asks
 * first, naming how many people get it. Recipients' MX is on loopback (deferred), so the campaign
 * stays waiting until the choice.
 */
const WIDE = { width: 1440, height: 900 } as const;
const AUDIENCE = 30;

test('A/B step with the plan in numbers, variants side by side while waiting, a confirmed hand choice', async ({
  page,
}, testInfo) => {
  test.setTimeout(180_000);
  const stamp = Date.now().toString(36);
  const email = uniqueEmail('ab-owner');
  const { api } = await newAccount('AB dashboard', email);
  const sender = `abd-${stamp}.example.com`;
  const rcptDomain = `abd-${stamp}.example`;
  await verifiedDomain(api, sender);
  expect((await api.put(api.account(`/domains/${sender}`), { sending_type: 'marketing' })).status).toBe(200);
  await routeDomainToLoopback(rcptDomain);
  const list = (await api.post(api.account('/lists'), { name: 'Everyone' })).body;
  const pasted = await api.post(api.account(`/lists/${list.id}/members/paste`), {
    lines: Array.from({ length: AUDIENCE }, (_, index) => `reader${index}@${rcptDomain}`),
    create_missing: true,
  });
  expect(pasted.status, pasted.text).toBe(200);
  const created = await api.post(api.account('/campaigns'), {
    name: 'Spring sale',
    from: { email: `news@${sender}`, name: 'News' },
    subject: 'Spring sale',
    html_content: '<h1>Spring sale</h1><p>Everything 20% off.</p>',
    list_ids: [list.id],
  });
  expect(created.status).toBe(201);
  const id = created.body.id;

  await page.setViewportSize(WIDE);
  await signIn(page, sharedServer().baseUrl, email, OWNER_PASSWORD);
  await page.goto(`${sharedServer().baseUrl}/${api.accountId}/campaigns/${id}`);
  await page.getByRole('button', { name: /A\/B test$/ }).click();
  await page.getByLabel('Test variants before sending to everyone').check();
  await page.getByLabel('Subject').first().fill('Spring sale: 20% off');
  await page.getByLabel('Subject').nth(1).fill('Last chance: spring sale');
  await page.getByLabel('From name').nth(1).fill('Ann from News');
  await page.getByLabel('Test share (%)').fill('20');
  await page.getByLabel('Wait before choosing').selectOption('240');
  await expect(page.getByTestId('ab-plan')).toHaveText(
    '20% of 30 = 6 people get one of 2 variants (about 3 each); after 4 hours the variant with the highest rate of unique opens goes to the other 24.',
  );
  await expect(page.getByTestId('save-state')).toHaveAttribute('data-state', 'saved', { timeout: 15_000 });
  await capture(page, testInfo, 'campaign-ab-step-1440');
  await page.setViewportSize(PHONE);
  await expectNoHorizontalOverflow(page);
  await capture(page, testInfo, 'campaign-ab-step-390');
  await page.setViewportSize(WIDE);

  // Review repeats the plan beside the audience.
  await page.getByRole('button', { name: /Review$/ }).click();
  await expect(page.getByTestId('review-audience')).toContainText('30 recipients right now');
  await expect(page.getByTestId('ab-plan')).toContainText('6 people get one of 2 variants');
  const saved = (await api.get(api.account(`/campaigns/${id}`))).body;
  expect(saved.ab_test).toEqual({ test_percent: 20, metric: 'opens', wait_minutes: 240 });
  expect(saved.variants.map((variant: any) => [variant.subject, variant.from_name])).toEqual([
    ['Spring sale: 20% off', null],
    ['Last chance: spring sale', 'Ann from News'],
  ]);

  expect((await api.post(api.account(`/campaigns/${id}/send`))).status).toBe(200);
  await expect
    .poll(async () => (await api.get(api.account(`/campaigns/${id}`))).body.ab_phase, { timeout: 30_000 })
    .toBe('waiting');
  await page.reload();
  const panel = page.getByTestId('ab-test-panel');
  await expect(panel).toHaveAttribute('data-phase', 'waiting');
  await expect(panel).toContainText('Waiting for the winner');
  await expect(page.getByTestId('ab-phase-sentence')).toContainText('The test went to 6 people');
  await expect(page.getByTestId('ab-phase-sentence')).toContainText('goes to the other 24 people');
  await expect(panel.locator('[data-ab-variant]')).toHaveCount(2);
  await expect(panel.locator('[data-ab-variant="b"]')).toContainText('Last chance: spring sale');
  await expect(page.getByTestId('ab-margin')).toContainText('Nothing delivered yet');
  await capture(page, testInfo, 'campaign-ab-waiting-1440');
  await page.setViewportSize(PHONE);
  await expectNoHorizontalOverflow(page);
  await capture(page, testInfo, 'campaign-ab-waiting-390');
  await page.setViewportSize(WIDE);

  await panel.locator('[data-ab-variant="b"]').getByRole('button', { name: 'Choose this variant' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText('Send Variant B to the other 24 people?');
  await dialog.getByRole('button', { name: 'Send Variant B to 24 people' }).click();
  await expect(panel).toHaveAttribute('data-phase', 'winner_sent');
  await expect(panel.locator('[data-ab-variant="b"]')).toContainText('Winner');
  await expect(panel.getByRole('button', { name: 'Choose this variant' })).toHaveCount(0);
  await capture(page, testInfo, 'campaign-ab-winner-1440');
  expect((await api.get(api.account(`/campaigns/${id}`))).body.winner_variant_id).toBe('b');
  // Leave nothing deferred behind on the shared server.
  expect((await api.post(api.account(`/campaigns/${id}/cancel`))).status).toBe(200);
});
