import { readFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import { expect, test } from '../support/dashboard';
import { OWNER_PASSWORD, uniqueEmail } from '../support/cli';
import { PHONE, capture, defineAttributes, expectNoHorizontalOverflow, signIn } from '../support/dashboard';
import { newAccount, sharedServer } from '../support/shared';

/**
 * Exports in the dashboard: the empty exports page, Export on the contacts page (everyone, then the
 * current filters) and on a list's page, each confirmed with what and how many, then the progress
 * and the download of the CSV; at 1440 and 390 px.
 */
const WIDE = { width: 1440, height: 900 } as const;

test('export every contact, the filtered ones and a list; watch the progress and download the file', async ({
  page,
}, testInfo) => {
  test.setTimeout(120_000);
  const email = uniqueEmail('export-owner');
  const { api, accountId } = await newAccount('Contact exports', email);
  const { baseUrl } = sharedServer();
  await page.setViewportSize(WIDE);
  await signIn(page, baseUrl, email, OWNER_PASSWORD);
  await defineAttributes(page, baseUrl, accountId, [{ key: 'plan', type: 'string' }]);
  const people = Array.from({ length: 12 }, (_, index) => ({
    email: `person${index}@export-ui.example`,
    first_name: index === 0 ? '=SUM(A1)' : `Person ${index}`,
    attributes: { plan: index % 3 ? 'free' : 'gold' },
  }));
  for (const person of people) expect((await api.post(api.account('/contacts'), person)).status).toBe(201);
  const list = await api.post(api.account('/lists'), { name: 'Gold readers' });
  await api.post(api.account(`/lists/${list.body.id}/members`), {
    contacts: people.filter((_, index) => index % 3 === 0).map((person) => person.email),
  });

  // No export yet: the page says how to start one.
  await page.goto(`${baseUrl}/${accountId}/contacts/exports`);
  await expect(page.getByText('No exports yet')).toBeVisible();
  await capture(page, testInfo, 'exports-empty-1440');

  // Everyone: the dialog says how many.
  await page.goto(`${baseUrl}/${accountId}/contacts`);
  await page.getByRole('button', { name: 'Export', exact: true }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText('Export 12 contacts?');
  await capture(page, testInfo, 'export-confirm-1440');
  await page.setViewportSize(PHONE);
  await expectNoHorizontalOverflow(page);
  await capture(page, testInfo, 'export-confirm-390');
  await page.setViewportSize(WIDE);
  await dialog.getByRole('button', { name: 'Start export' }).click();
  await expect(page).toHaveURL(/\/contacts\/exports\?export=/);
  const first = page.locator('[data-export-id]').first();
  await expect(first).toHaveAttribute('data-export-status', 'done', { timeout: 30_000 });
  await expect(first.getByTestId('export-progress-text')).toHaveText('12 of 12 contacts');
  await expect(first).toContainText('Available until');
  const downloading = page.waitForEvent('download');
  await first.getByRole('link', { name: /Download CSV/ }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^contacts-.*\.csv$/);
  const rows = parse(readFileSync((await download.path())!, 'utf8')) as string[][];
  expect(rows[0]).toEqual(['email', 'first_name', 'last_name', 'unsubscribed', 'created_at', 'plan']);
  expect(rows).toHaveLength(13);
  expect(rows.find((row) => row[0] === 'person0@export-ui.example')![1]).toBe(`'=SUM(A1)`);

  // The current filters: only the gold plan.
  await page.goto(`${baseUrl}/${accountId}/contacts?attribute=plan&value=gold`);
  await page.getByRole('button', { name: 'Export', exact: true }).click();
  await expect(dialog).toContainText('Export the contacts that match your filters?');
  await dialog.getByRole('button', { name: 'Start export' }).click();
  const filtered = page.locator('[data-export-id]').first();
  await expect(filtered).toHaveAttribute('data-export-status', 'done', { timeout: 30_000 });
  await expect(filtered).toContainText('Contacts matching filters');
  await expect(filtered.getByTestId('export-progress-text')).toHaveText('4 of 4 contacts');

  // A list's page: its members.
  await page.goto(`${baseUrl}/${accountId}/lists/${list.body.id}`);
  await page.getByRole('button', { name: 'Export', exact: true }).click();
  await expect(dialog).toContainText('Export 4 members?');
  await dialog.getByRole('button', { name: 'Start export' }).click();
  const byList = page.locator('[data-export-id]').first();
  await expect(byList).toHaveAttribute('data-export-status', 'done', { timeout: 30_000 });
  await expect(byList).toContainText('Members of Gold readers');
  await expect(page.locator('[data-export-id]')).toHaveCount(3);
  await capture(page, testInfo, 'exports-list-1440');
  await page.setViewportSize(PHONE);
  await expectNoHorizontalOverflow(page);
  await capture(page, testInfo, 'exports-list-390');
});
