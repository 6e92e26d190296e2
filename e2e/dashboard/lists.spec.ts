import type { Page } from '@playwright/test';
import { expect, test } from '../support/dashboard';
import { OWNER_PASSWORD, runCli, uniqueEmail } from '../support/cli';
import type { ApiClient } from '../support/client';
import { DESKTOP, PHONE, capture, expectNoHorizontalOverflow, signIn } from '../support/dashboard';
import { newAccount, sharedServer } from '../support/shared';

/**
 * The Lists pages: counts per status, a list's members filtered by status, members added by search
 * and by pasting 1,500 addresses (two requests of at most 1,000), status changes and removal.
 */
const stamp = Date.now().toString(36);
const members = (page: Page) => page.locator('[data-member-row]');
const figure = (page: Page, name: string) => page.locator(`[data-figure="${name}"] [data-value]`);

/** Many contacts at once, through the import API (the fastest way the API has). */
async function importContacts(api: ApiClient, emails: string[]) {
  const started = await api.request('POST', api.account('/contacts/import'), {
    rawBody: `email\n${emails.join('\n')}\n`,
    headers: { 'content-type': 'text/csv' },
  });
  expect(started.status, started.text).toBe(202);
  await expect
    .poll(async () => (await api.get(api.account(`/contacts/import/${started.body.id}`))).body.status, {
      timeout: 60_000,
    })
    .toBe('completed');
}

test('create a list, add members by search and by paste, filter, change status, remove, delete', async ({
  page,
  browser,
}, testInfo) => {
  test.setTimeout(180_000);
  const email = uniqueEmail('lists-owner');
  const { api, accountId } = await newAccount('Lists', email);
  const { baseUrl } = sharedServer();
  const ada = `ada-${stamp}@example.com`;
  expect(
    (await api.post(api.account('/contacts'), { email: ada, first_name: 'Ada', last_name: 'Lovelace' })).status,
  ).toBe(201);
  const pasted = Array.from({ length: 1500 }, (_, index) => `paste-${index}-${stamp}@example.net`);
  await importContacts(api, pasted);

  await signIn(page, baseUrl, email, OWNER_PASSWORD);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Lists' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Lists' })).toBeVisible();
  await expect(page.getByText('No lists yet')).toBeVisible();
  await capture(page, testInfo, 'lists-empty');

  // Create: an empty name is the API's schema speaking, in the form.
  await page.getByRole('button', { name: 'Create list' }).first().click();
  const create = page.getByRole('dialog', { name: 'Create a list' });
  await create.getByRole('button', { name: 'Create list' }).click();
  await expect(create.locator('[data-field-error="list-name"]')).toContainText('must not be empty');
  await create.getByLabel('Name').fill('Customers');
  await create.getByLabel('Description').fill('Everyone who bought something');
  await create.getByRole('button', { name: 'Create list' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Customers' })).toBeVisible();
  await expect(page.getByText('No members yet')).toBeVisible();
  const listId = page.url().split('/').at(-1)!;

  // Add by search.
  await page.getByRole('button', { name: 'Add members' }).click();
  const add = page.getByRole('dialog', { name: 'Add members to Customers' });
  await add.getByRole('search').getByLabel('Email or name').fill('lovelace');
  await add.getByRole('search').getByRole('button', { name: 'Search' }).click();
  await expect(add.locator('[data-search-result]')).toHaveCount(1);
  await add.getByRole('button', { name: `Add ${ada}` }).click();
  await expect(add.getByRole('button', { name: `Add ${ada}` })).toHaveText('Added');
  await capture(page, testInfo, 'list-add-search');

  await add.getByRole('button', { name: 'Close' }).click();
  await expect(members(page)).toHaveCount(1);

  // Status in place; the counts follow.
  await page.getByLabel(`Status of ${ada}`).selectOption('unsubscribed');
  await expect(page.getByTestId('list-notice')).toContainText(`${ada} is now unsubscribed`);
  await expect(figure(page, 'unsubscribed')).toHaveText('1');
  await expect(figure(page, 'confirmed')).toHaveText('0');

  // Add by paste: the valid lines are added, each other one is listed with its reason.
  const nobody = `nobody-${stamp}@example.net`;
  await page.getByRole('button', { name: 'Add members' }).click();
  await add.getByRole('tab', { name: 'Paste addresses' }).click();
  await add.getByLabel('Email addresses').fill(`${pasted[0]}\n${nobody}\nnot-an-address\nAda Lovelace <${ada}>`);
  await add.getByRole('button', { name: 'Add 4' }).click();
  const refused = (line: string) => add.locator(`[data-refused-line="${line}"] [data-reason]`);
  await expect(refused(nobody)).toHaveText('no such contact');
  await expect(refused('not-an-address')).toHaveText('not an email address');
  await expect(refused(ada)).toHaveText('already a member');
  await expect(page.getByTestId('list-notice')).toContainText('1 contact added to Customers; 3 not added');
  await capture(page, testInfo, 'list-paste-outcome');
  // Asked to, it makes a contact of the unknown address; a malformed one is still not an address.
  await add.getByRole('button', { name: 'Paste more' }).click();
  await add.getByLabel('Email addresses').fill(`${nobody}\nnot-an-address`);
  await add.getByLabel('Create contacts for new addresses').check();
  await add.getByRole('button', { name: 'Add 2' }).click();
  await expect(refused('not-an-address')).toHaveText('not an email address');
  await expect(add.locator('[data-refused-line]')).toHaveCount(1);
  await expect(page.getByTestId('list-notice')).toContainText(
    '1 contact added to Customers (1 new contact); 1 not added',
  );
  expect((await api.get(api.account(`/contacts/${encodeURIComponent(nobody)}`))).status).toBe(200);
  await add.getByRole('button', { name: 'Paste more' }).click();
  // 1,500 addresses, pasted with mixed separators: two requests; the one already on the list is said so.
  await add
    .getByLabel('Email addresses')
    .fill(pasted.map((address, index) => (index % 3 === 0 ? `${address.toUpperCase()},` : address)).join('\n'));
  await expect(add.getByTestId('paste-count')).toHaveText('1,500 addresses, in 2 requests');
  await capture(page, testInfo, 'list-add-paste');
  await add.getByRole('button', { name: 'Add 1,500' }).click();
  await expect(page.getByTestId('list-notice')).toContainText('1,499 contacts added to Customers; 1 not added');
  await expect(refused(pasted[0].toUpperCase())).toHaveText('already a member');
  await add.getByRole('button', { name: 'Done' }).click();
  await expect(figure(page, 'total')).toHaveText('1,502');
  await expect(figure(page, 'confirmed')).toHaveText('1,501');
  await expect(members(page)).toHaveCount(50);
  await capture(page, testInfo, 'list-desktop');
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(members(page)).toHaveCount(50);
  await page.getByRole('button', { name: 'Previous' }).click();

  // An Analyst reads the list and its members, without the controls that change them.
  const analystEmail = uniqueEmail('lists-analyst');
  expect(
    (
      await runCli(
        [
          'accounts',
          'add-member',
          accountId,
          '--email',
          analystEmail,
          '--password',
          'analyst password',
          '--role',
          'Analyst',
        ],
        sharedServer().cliEnv,
      )
    ).code,
  ).toBe(0);
  const analystContext = await browser.newContext({ ignoreHTTPSErrors: true });
  const analyst = await analystContext.newPage();
  await signIn(analyst, baseUrl, analystEmail, 'analyst password');
  await analyst.goto(`${baseUrl}/${accountId}/lists/${listId}`);
  await expect(analyst.locator('[data-member-row]')).toHaveCount(50);
  await expect(analyst.getByRole('button', { name: /^(Add members|Edit|Delete…|Remove .*)$/ })).toHaveCount(0);
  await expect(analyst.getByRole('combobox', { name: /^Status of / })).toHaveCount(0);
  await analyst.goto(`${baseUrl}/${accountId}/contacts`);
  await expect(analyst.locator('[data-contact-row]').first()).toBeVisible();
  await expect(analyst.getByRole('button', { name: 'Add contact' })).toHaveCount(0);
  await expect(analyst.getByRole('checkbox')).toHaveCount(0);
  await analystContext.close();

  await expect(figure(page, 'unsubscribed')).toHaveText('1');
  // The status filter.
  await page.getByLabel('Filter members by status').selectOption('unsubscribed');
  await expect(members(page)).toHaveCount(1);
  await expect(members(page).first()).toHaveAttribute('data-member-row', ada);
  await page.getByLabel('Filter members by status').selectOption('complained');
  await expect(page.getByText('No complained members')).toBeVisible();
  await page.getByLabel('Filter members by status').selectOption('unsubscribed');
  await page.getByRole('button', { name: `Remove ${ada} from the list` }).click();
  await expect(page.getByTestId('list-notice')).toContainText(`${ada} removed`);
  await expect(figure(page, 'total')).toHaveText('1,501');
  await expect(page.getByText('No unsubscribed members')).toBeVisible();

  // The lists page counts per status, with separators.
  await page.goto(`${baseUrl}/${accountId}/lists`);
  const row = page.locator('[data-list-row="Customers"]');
  await expect(row.locator('[data-count="confirmed"]')).toContainText('1,501');
  await expect(row.locator('[data-count="total"]')).toContainText('1,501');
  await expect(page.getByTestId('lists-total')).toHaveText('1 list');
  await capture(page, testInfo, 'lists-desktop');
  await page.setViewportSize(PHONE);
  await expectNoHorizontalOverflow(page);
  await capture(page, testInfo, 'lists-counts-390');
  await page.goto(`${baseUrl}/${accountId}/lists/${listId}`);
  await expect(members(page)).toHaveCount(50);
  await expectNoHorizontalOverflow(page);
  await capture(page, testInfo, 'list-members-390', { fullPage: false });
  await page.setViewportSize(DESKTOP);

  // Rename, then delete: the list goes, the contact's membership record stays (R10).
  await page.getByRole('button', { name: 'Edit', exact: true }).click();
  const edit = page.getByRole('dialog', { name: 'Edit list' });
  await edit.getByLabel('Name').fill('Buyers');
  await edit.getByRole('button', { name: 'Save list' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Buyers' })).toBeVisible();
  await page.getByRole('button', { name: 'Delete…' }).click();
  await page.getByRole('dialog', { name: 'Delete this list?' }).getByRole('button', { name: 'Delete list' }).click();
  await expect(page).toHaveURL(new RegExp(`/${accountId}/lists$`));
  await expect(page.getByText('No lists yet')).toBeVisible();
  const contact = (await api.get(api.account(`/contacts/${encodeURIComponent(pasted[0])}`))).body;
  await page.goto(`${baseUrl}/${accountId}/contacts/${contact.id}`);
  await expect(page.locator('[data-membership-row]')).toContainText('A deleted list');
});
