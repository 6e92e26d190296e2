import { readFileSync, writeFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { expect, test } from '../support/dashboard';
import { OWNER_PASSWORD, uniqueEmail } from '../support/cli';
import { DESKTOP, PHONE, capture, defineAttributes, expectNoHorizontalOverflow, signIn } from '../support/dashboard';
import { newAccount, sharedServer } from '../support/shared';

/**
 * The import wizard with a 100,000-row CSV: preview and column mapping in the browser (one column
 * skipped, so the browser rewrites the file), a target list, a live progress bar fed by the job's
 * counts, and the refused rows downloaded as CSV.
 */
const ROWS = 100_000;
const BAD_ROWS = new Map([
  [10, 'not-an-address'],
  [50_000, 'also wrong'],
]);
const BAD_SEATS_ROW = 77_777;

/** The mapping select of a column (a table on wide screens, a list on phones: only one is shown). */
const column = (page: Page, name: string) => page.getByRole('combobox', { name: `Import column ${name} as` });

function writeCsv(path: string, stamp: string) {
  const lines = ['Email,First Name,Last Name,plan,seats,notes'];
  for (let row = 1; row <= ROWS; row++) {
    const email = BAD_ROWS.get(row) ?? `person-${row}-${stamp}@example.com`;
    lines.push(
      `${email},First ${row},"Last, ${row}",${row % 2 ? 'gold' : 'silver'},${row === BAD_SEATS_ROW ? 'many' : row % 10},note ${row}`,
    );
  }
  writeFileSync(path, `${lines.join('\n')}\n`);
}

test('a 100,000-row CSV: preview, mapping, list, live progress, completion and refused rows', async ({
  page,
}, testInfo) => {
  test.setTimeout(300_000);
  const stamp = Date.now().toString(36);
  const email = uniqueEmail('import-owner');
  const { api, accountId } = await newAccount('Contact import', email);
  const { baseUrl } = sharedServer();
  const list = await api.post(api.account('/lists'), { name: 'Imported' });
  expect(list.status).toBe(201);
  const file = testInfo.outputPath('contacts-100k.csv');
  writeCsv(file, stamp);

  await signIn(page, baseUrl, email, OWNER_PASSWORD);
  await defineAttributes(page, baseUrl, accountId, [
    { key: 'plan', type: 'string' },
    { key: 'seats', type: 'number' },
  ]);
  await page.goto(`${baseUrl}/${accountId}/contacts`);
  await page.getByRole('link', { name: 'Import CSV' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Import contacts' })).toBeVisible();
  await capture(page, testInfo, 'import-pick');
  await page.getByLabel('CSV file').setInputFiles(file);

  // The preview: parsed in the browser, counted, columns guessed from the header.
  const preview = page.getByRole('table', { name: 'Preview of the first rows' });
  await expect(preview.locator('tbody tr')).toHaveCount(5);
  await expect(preview.locator('tbody tr').nth(1)).toContainText('Last, 2');
  await expect(page.getByTestId('import-row-count')).toHaveText('100,000 rows');
  await expect(column(page, 'Email')).toHaveValue('email');
  await expect(column(page, 'First Name')).toHaveValue('first_name');
  await expect(column(page, 'Last Name')).toHaveValue('last_name');
  await expect(column(page, 'seats')).toHaveValue('seats');
  await expect(column(page, 'notes')).toHaveValue('');
  // Without an email column there is nothing to import: said before anything is sent.
  await column(page, 'Email').selectOption('');
  await page.getByRole('button', { name: 'Start import' }).click();
  await expect(page.getByText('Choose the column that holds the email address.')).toBeVisible();
  await column(page, 'Email').selectOption('email');
  await page.getByLabel('Add everyone to a list').selectOption({ label: 'Imported' });
  await capture(page, testInfo, 'import-mapping-desktop');
  await page.setViewportSize(PHONE);
  await expectNoHorizontalOverflow(page);
  await capture(page, testInfo, 'import-mapping-390');
  await page.setViewportSize(DESKTOP);

  // Start: the job's id goes into the URL; the bar moves with the job's counts until it completes.
  await page.getByRole('button', { name: 'Start import' }).click();
  await expect(page).toHaveURL(/[?&]import=[0-9a-f-]{36}/, { timeout: 60_000 });
  const panel = page.getByRole('region', { name: 'Import progress' });
  const bar = page.getByRole('progressbar', { name: 'Import progress' });
  await expect(bar).toBeVisible();
  const seen: { status: string; percent: number }[] = [];
  let hasCapturedRunning = false;
  await expect
    .poll(
      async () => {
        const status = (await panel.getAttribute('data-import-status')) ?? '';
        const percent = Number(await bar.getAttribute('aria-valuenow'));
        seen.push({ status, percent });
        if (status === 'running' && percent > 0 && !hasCapturedRunning) {
          hasCapturedRunning = true;
          await capture(page, testInfo, 'import-running');
        }
        return status;
      },
      { timeout: 240_000, intervals: [500] },
    )
    .toBe('completed');
  // Progress was visible before the end: the job was seen queued or running first.
  expect(
    seen.some((sample) => sample.status !== 'completed'),
    JSON.stringify(seen),
  ).toBe(true);
  console.log(`import progress samples: ${JSON.stringify(seen)}`);
  await expect(bar).toHaveAttribute('aria-valuenow', '100');
  await expect(panel.locator('[data-import-count="processed"] dd')).toHaveText('100,000');
  await expect(panel.locator('[data-import-count="created"] dd')).toHaveText('99,997');
  await expect(panel.locator('[data-import-count="errors"] dd')).toHaveText('3');
  await expect(panel.locator('[data-import-error-row]')).toHaveCount(3);
  await capture(page, testInfo, 'import-done-desktop');

  // The refused rows, as CSV: the spreadsheet row (the header is row 1), the address, the reason,
  // and the row's own cells as uploaded (mapped columns only), ready to fix and import again.
  const download = page.waitForEvent('download');
  await panel.getByRole('button', { name: 'Download refused rows (CSV)' }).click();
  const csv = readFileSync(await (await download).path(), 'utf8')
    .trim()
    .split('\n');
  expect(csv[0]).toBe('row,email,reason,email,first_name,last_name,plan,seats');
  expect(csv).toHaveLength(4);
  expect(csv.map((line) => line.split(',')[0]).slice(1)).toEqual(['11', '50001', String(BAD_SEATS_ROW + 1)]);
  expect(csv[1]).toMatch(/^11,not-an-address,[^\n]*,not-an-address,First 10,"Last, 10",silver,0$/);
  expect(csv[3]).toContain(
    `,person-${BAD_SEATS_ROW}-${stamp}@example.com,First ${BAD_SEATS_ROW},"Last, ${BAD_SEATS_ROW}",gold,many`,
  );

  await page.setViewportSize(PHONE);
  await expectNoHorizontalOverflow(page);
  await capture(page, testInfo, 'import-done-390');
  await page.setViewportSize(DESKTOP);

  // What the import wrote: contacts with their attributes, all confirmed members of the list.
  const counted = (await api.get(api.account(`/lists/${list.body.id}`))).body;
  expect(counted.member_counts.confirmed).toBe(99_997);
  const one = (await api.get(api.account(`/contacts/${encodeURIComponent(`person-2-${stamp}@example.com`)}`))).body;
  expect(one).toMatchObject({ first_name: 'First 2', last_name: 'Last, 2', attributes: { plan: 'silver', seats: 2 } });
  expect(one.attributes).not.toHaveProperty('notes');
  await panel.getByRole('link', { name: 'Open the list' }).click();
  await expect(page.locator('[data-figure="confirmed"] [data-value]')).toHaveText('99,997');
});

test('a small file keeps its columns as they are; a file that is not CSV is refused before upload', async ({
  page,
}, testInfo) => {
  test.setTimeout(120_000);
  const stamp = Date.now().toString(36);
  const email = uniqueEmail('import-small');
  const { api, accountId } = await newAccount('Contact import small', email);
  const { baseUrl } = sharedServer();
  await signIn(page, baseUrl, email, OWNER_PASSWORD);
  await page.goto(`${baseUrl}/${accountId}/contacts/import`);

  // Every column mapped: only the header is rewritten (E-mail becomes email).
  const good = testInfo.outputPath('small.csv');
  writeFileSync(good, `E-mail,first_name\r\nsmall-1-${stamp}@example.com,Uno\r\nsmall-2-${stamp}@example.com,Dos\r\n`);
  await page.getByLabel('CSV file').setInputFiles(good);
  await expect(page.getByTestId('import-row-count')).toHaveText('2 rows');
  await page.getByRole('button', { name: 'Start import' }).click();
  await expect(page.getByRole('region', { name: 'Import progress' })).toHaveAttribute(
    'data-import-status',
    'completed',
    { timeout: 60_000 },
  );
  await expect(page.locator('[data-import-count="created"] dd')).toHaveText('2');
  expect(
    (await api.get(api.account(`/contacts/${encodeURIComponent(`small-2-${stamp}@example.com`)}`))).body.first_name,
  ).toBe('Dos');

  // A quote that never closes: the browser's parser says so before anything is sent.
  await page.getByRole('button', { name: 'Import another file' }).click();
  const broken = testInfo.outputPath('broken.csv');
  writeFileSync(broken, `email\nok-${stamp}@example.com\n"broken-${stamp}@example.com\nmore@example.com\n`);
  await page.getByLabel('CSV file').setInputFiles(broken);
  await expect(page.getByRole('alert').filter({ hasText: 'broken.csv could not be read as CSV' })).toBeVisible();
  await capture(page, testInfo, 'import-unreadable');
});
