import { expect, test } from '../support/dashboard';
import { OWNER_PASSWORD, uniqueEmail } from '../support/cli';
import { PHONE, capture, defineAttributes, expectNoHorizontalOverflow, signIn } from '../support/dashboard';
import { newAccount, sharedServer } from '../support/shared';

/**
 * The Segments pages: the empty list, the builder (conditions typed by attribute, a nested group,
 * the live count and first contacts as you edit), a segment's contacts, delete confirmed with the
 * count and its 409 explained; and the campaign wizard's audience narrowed by it.
 */
const stamp = Date.now().toString(36);
const WIDE = { width: 1440, height: 900 } as const;

test('build a segment with a live count, see its contacts, narrow a campaign with it, delete it', async ({
  page,
}, testInfo) => {
  test.setTimeout(180_000);
  const email = uniqueEmail('segments-owner');
  const { api, accountId } = await newAccount('Segments', email);
  const { baseUrl } = sharedServer();
  const people = [
    { email: `ada-${stamp}@example.com`, first_name: 'Ada', attributes: { age: 36 } },
    { email: `bob-${stamp}@example.com`, first_name: 'Bob', attributes: { age: 9 } },
    { email: `cy-${stamp}@example.com`, first_name: 'Cy', attributes: { age: 70 } },
  ];
  await signIn(page, baseUrl, email, OWNER_PASSWORD);
  await defineAttributes(page, baseUrl, accountId, [{ key: 'age', type: 'number', label: 'Age' }]);
  for (const person of people) expect((await api.post(api.account('/contacts'), person)).status).toBe(201);
  const list = (await api.post(api.account('/lists'), { name: 'Everyone' })).body.id;
  await api.post(api.account(`/lists/${list}/members`), { contacts: people.map((person) => person.email) });

  await page.setViewportSize(WIDE);
  await page.goto(`${baseUrl}/${accountId}/lists`);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Segments' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Segments' })).toBeVisible();
  await expect(page.getByText('No segments yet')).toBeVisible();
  await capture(page, testInfo, 'segments-empty');

  await page.getByRole('link', { name: 'Create segment' }).first().click();
  await expect(page.getByRole('heading', { level: 1, name: 'New segment' })).toBeVisible();
  // With no value yet the condition is left out: everyone matches.
  await expect(page.getByTestId('segment-count')).toHaveText('3');
  await page.getByRole('textbox', { name: 'Name', exact: true }).fill('Grown-ups');
  const first = page.locator('[data-segment-condition]').first();
  await first.getByLabel('Condition on').selectOption('attributes.age');
  await first.getByLabel('Comparison').selectOption('gt');
  await first.getByLabel('Value').fill('10');
  // Numbers compare as numbers: 36 and 70 are over 10, 9 is not (as text "9" > "10").
  await expect(page.getByTestId('segment-count')).toHaveText('2');
  await page.getByRole('button', { name: 'Add group' }).click();
  const group = page.locator('[data-segment-group="2"]');
  await group.getByLabel('Group match').selectOption('any');
  const inGroup = group.locator('[data-segment-condition]').first();
  await inGroup.getByLabel('Condition on').selectOption('first_name');
  await inGroup.getByLabel('Comparison').selectOption('starts_with');
  await inGroup.getByLabel('Value').fill('a');
  await expect(page.getByTestId('segment-count')).toHaveText('1');
  await expect(page.getByTestId('segment-preview-contacts')).toContainText(people[0].email);
  await capture(page, testInfo, 'segment-builder-1440');
  await page.setViewportSize(PHONE);
  await expectNoHorizontalOverflow(page);
  await capture(page, testInfo, 'segment-builder-390');
  await page.setViewportSize(WIDE);
  // Widen the group again before saving: Ada or anyone whose first name has a "y".
  await group.getByRole('button', { name: 'Add condition' }).click();
  const second = group.locator('[data-segment-condition]').nth(1);
  await second.getByLabel('Condition on').selectOption('first_name');
  await second.getByLabel('Comparison').selectOption('contains');
  await second.getByLabel('Value').fill('y');
  await expect(page.getByTestId('segment-count')).toHaveText('2');
  await page.getByRole('button', { name: 'Create segment' }).click();

  await expect(page.getByRole('heading', { level: 1, name: 'Grown-ups' })).toBeVisible();
  await expect(page.locator('[data-figure="count"] [data-value]')).toHaveText('2');
  await expect(page.getByText(people[0].email)).toBeVisible();
  await expect(page.getByText(people[2].email)).toBeVisible();
  await expect(page.getByText(people[1].email)).toHaveCount(0);
  await capture(page, testInfo, 'segment-detail-1440');
  await page.setViewportSize(PHONE);
  await expectNoHorizontalOverflow(page);
  await capture(page, testInfo, 'segment-detail-390');
  await page.setViewportSize(WIDE);
  const segmentUrl = page.url();

  // Edit: the saved conditions come back into the builder as they were.
  await page.getByRole('link', { name: 'Edit conditions' }).click();
  await expect(page.locator('[data-segment-condition]').first().getByLabel('Value')).toHaveValue('10');
  await expect(page.getByTestId('segment-count')).toHaveText('2');

  // The campaign wizard: lists first, then the segment narrows; the count follows.
  const campaign = await api.post(api.account('/campaigns'), { name: 'Narrowed', list_ids: [list] });
  await page.goto(`${baseUrl}/${accountId}/campaigns/${campaign.body.id}`);
  await page.getByRole('navigation', { name: 'Campaign steps' }).getByRole('button', { name: '2. Audience' }).click();
  await expect(page.getByTestId('audience-count')).toHaveText('3');
  await page.locator('[data-audience-choices="segment_ids"]').getByLabel('Grown-ups').check();
  await expect(page.getByTestId('audience-count')).toHaveText('2');
  await page.locator('[data-audience-choices="exclude_segment_ids"]').getByLabel('Grown-ups').check();
  await expect(page.getByTestId('audience-count')).toHaveText('0');
  await page.locator('[data-audience-choices="segment_ids"]').getByLabel('Grown-ups').uncheck();
  await expect(page.getByTestId('audience-count')).toHaveText('1');
  await capture(page, testInfo, 'campaign-audience-segments-1440');
  await page.setViewportSize(PHONE);
  await expectNoHorizontalOverflow(page);
  await capture(page, testInfo, 'campaign-audience-segments-390');
  await page.setViewportSize(WIDE);

  // Delete: confirmed, saying how many it matches; the contacts stay.
  await page.goto(segmentUrl);
  await page.getByRole('button', { name: 'Delete…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete Grown-ups?' });
  await expect(dialog).toContainText('now matching 2 contacts');
  await capture(page, testInfo, 'segment-delete-1440');
  await dialog.getByRole('button', { name: 'Delete segment' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Segments' })).toBeVisible();
  await expect(page.getByText('No segments yet')).toBeVisible();
});
