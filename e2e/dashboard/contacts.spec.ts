import type { Page } from '@playwright/test';
import { expect, test } from '../support/dashboard';
import { OWNER_PASSWORD, uniqueEmail } from '../support/cli';
import { DESKTOP, PHONE, capture, defineAttributes, expectNoHorizontalOverflow, signIn } from '../support/dashboard';
import { verifiedDomain, waitForStatus } from '../support/sending';
import { newAccount, sharedServer } from '../support/shared';

/**
 * The Contacts pages: attribute definitions, the contacts table (search, filters, cursor paging,
 * bulk add to list / unsubscribe / delete) and a contact's own page (edit, lists, messages).
 */
const stamp = Date.now().toString(36);
const rows = (page: Page) => page.locator('[data-contact-row]');
const search = (page: Page) => page.getByRole('search', { name: 'Search contacts' });

async function applySearch(page: Page, fill: (form: ReturnType<typeof search>) => Promise<unknown>) {
  await search(page).getByRole('button', { name: 'Clear' }).click();
  await expect(page).not.toHaveURL(/\?/);
  await fill(search(page));
  await search(page).getByRole('button', { name: 'Search' }).click();
}

test('attributes, search and filters, paging, bulk actions with confirmation, and a contact page', async ({
  page,
}, testInfo) => {
  test.setTimeout(180_000);
  const email = uniqueEmail('contacts-owner');
  const { api, accountId } = await newAccount('Contacts', email);
  const { baseUrl } = sharedServer();
  await signIn(page, baseUrl, email, OWNER_PASSWORD);

  // Attributes first: contacts may hold only defined keys (R4).
  await page.goto(`${baseUrl}/${accountId}/contacts/attributes`);
  await expect(page.getByText('No attributes yet')).toBeVisible();
  await defineAttributes(page, baseUrl, accountId, [
    { key: 'plan', type: 'string', label: 'Plan' },
    { key: 'seats', type: 'number' },
  ]);
  // A key the API refuses: its schema's message shows under the field, before any request.
  await page.getByRole('button', { name: 'Add attribute' }).click();
  const attributeDialog = page.getByRole('dialog', { name: 'Add an attribute' });
  await attributeDialog.getByLabel('Key').fill('Bad Key');
  await attributeDialog.getByRole('button', { name: 'Add attribute' }).click();
  await expect(attributeDialog.locator('[data-field-error="attribute-key"]')).toContainText('lowercase');
  await attributeDialog.getByLabel('Key').fill('plan');
  await attributeDialog.getByRole('button', { name: 'Add attribute' }).click();
  await expect(attributeDialog.getByRole('alert').first()).toBeVisible();
  await capture(page, testInfo, 'contact-attribute-duplicate');
  await attributeDialog.getByRole('button', { name: 'Cancel' }).click();
  await capture(page, testInfo, 'contact-attributes-desktop');

  // 55 contacts through the API: more than a page of 50.
  const ada = `ada-${stamp}@example.com`;
  const grace = `grace-${stamp}@example.org`;
  for (let batch = 0; batch < 53; batch += 10) {
    await Promise.all(
      Array.from({ length: Math.min(10, 53 - batch) }, async (_, index) => {
        const created = await api.post(api.account('/contacts'), {
          email: `bulk-${batch + index}-${stamp}@example.net`,
        });
        expect(created.status).toBe(201);
      }),
    );
  }
  // Newest first: Ada and Grace come last, so they are on the first page.
  expect(
    (
      await api.post(api.account('/contacts'), {
        email: ada,
        first_name: 'Ada',
        last_name: 'Lovelace',
        attributes: { plan: 'gold', seats: 3 },
      })
    ).status,
  ).toBe(201);
  expect(
    (
      await api.post(api.account('/contacts'), {
        email: grace,
        first_name: 'Grace',
        last_name: 'Hopper',
        attributes: { plan: 'silver' },
      })
    ).status,
  ).toBe(201);
  const list = await api.post(api.account('/lists'), { name: 'Newsletter', description: 'Monthly news' });
  expect(list.status).toBe(201);

  await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Contacts' })).toHaveAttribute(
    'href',
    `/${accountId}/contacts`,
  );
  await page.goto(`${baseUrl}/${accountId}/contacts`);
  await expect(page.getByRole('heading', { level: 1, name: 'Contacts' })).toBeVisible();
  await expect(rows(page)).toHaveCount(50);
  // The page heads with the account's total, not the page's 50.
  await expect(page.getByTestId('contacts-total')).toHaveText('55 contacts');
  await capture(page, testInfo, 'contacts-desktop');
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page).toHaveURL(/[?&]after=/);
  await expect(rows(page)).toHaveCount(5);
  await page.getByRole('button', { name: 'Previous' }).click();
  await expect(rows(page)).toHaveCount(50);

  // Search by name and by part of an address; filter by an attribute's value.
  await applySearch(page, (form) => form.getByLabel('Email or name').fill('lovelace'));
  await expect(rows(page)).toHaveCount(1);
  await expect(rows(page).first()).toHaveAttribute('data-contact-row', ada);
  await applySearch(page, (form) => form.getByLabel('Email or name').fill(`grace-${stamp}`));
  await expect(rows(page)).toHaveCount(1);
  await applySearch(page, async (form) => {
    await form.getByLabel('Attribute').selectOption('plan');
    await form.locator('input[name="value"]').fill('gold');
  });
  await expect(page).toHaveURL(/attribute=plan/);
  await expect(rows(page)).toHaveCount(1);
  await expect(rows(page).first()).toContainText('seats: 3');
  await page.reload();
  await expect(rows(page)).toHaveCount(1);
  await applySearch(page, (form) => form.getByLabel('Email or name').fill('nobody-at-all'));
  await expect(page.getByText('No contacts match')).toBeVisible();

  // Add one in the dialog: a value that is not a number is refused by the API's own check, in the
  // form; an address that exists already is the API's 409, shown in the form too.
  await search(page).getByRole('button', { name: 'Clear' }).click();
  await page.getByRole('button', { name: 'Add contact' }).click();
  const create = page.getByRole('dialog', { name: 'Add a contact' });
  await create.getByLabel('Email address').fill(ada.toUpperCase());
  await create.getByLabel('seats').fill('three');
  await create.getByRole('button', { name: 'Add contact' }).click();
  await expect(create.locator('[data-field-error="contact-attribute-seats"]')).toContainText('must be a number');
  await create.getByLabel('seats').fill('4');
  await create.getByRole('button', { name: 'Add contact' }).click();
  await expect(create.getByRole('alert')).toContainText(/already/i);
  await capture(page, testInfo, 'contact-create-conflict');
  const linus = `linus-${stamp}@example.com`;
  await create.getByLabel('Email address').fill(` ${linus.toUpperCase()} `);
  await create.getByLabel('First name').fill('Linus');
  await create.getByRole('button', { name: 'Add contact' }).click();
  await expect(page.getByTestId('contacts-notice')).toContainText(`${linus} added.`);

  // Bulk actions on a selection: add to a list, unsubscribe, delete (after a confirmation).
  await applySearch(page, (form) => form.getByLabel('Email or name').fill(stamp));
  await expect(rows(page)).toHaveCount(50);
  await page.getByLabel(`Select ${ada}`).check();
  await page.getByLabel(`Select ${grace}`).check();
  await expect(page.getByTestId('bulk-actions')).toContainText('2 selected');
  await page.getByTestId('bulk-actions').getByRole('button', { name: 'Add to list' }).click();
  const addDialog = page.getByRole('dialog', { name: 'Add 2 contacts to a list' });
  await addDialog.getByLabel('List').selectOption({ label: 'Newsletter' });
  await addDialog.getByRole('button', { name: 'Add to list' }).click();
  await expect(page.getByTestId('contacts-notice')).toContainText('2 contacts added to Newsletter');
  const members = await api.get(api.account(`/lists/${list.body.id}/members`));
  expect(members.body.data).toHaveLength(2);

  await applySearch(page, (form) => form.locator('select[name="list_id"]').selectOption({ label: 'Newsletter' }));
  await expect(rows(page)).toHaveCount(2);
  await page.getByLabel('Select every contact on this page').check();
  await page.getByTestId('bulk-actions').getByRole('button', { name: 'Unsubscribe' }).click();
  await expect(page.getByTestId('contacts-notice')).toContainText('2 unsubscribed');
  await applySearch(page, (form) => form.getByLabel('Subscription').selectOption('unsubscribed'));
  await expect(rows(page)).toHaveCount(2);
  await expect(rows(page).first()).toContainText('Unsubscribed');

  // bulk-1 and bulk-10 to bulk-19.
  await applySearch(page, (form) => form.getByLabel('Email or name').fill('bulk-1'));
  const doomed = 11;
  await expect(rows(page)).toHaveCount(doomed);
  await page.getByLabel('Select every contact on this page').check();
  await page.getByTestId('bulk-actions').getByRole('button', { name: 'Delete…' }).click();
  const confirm = page.getByRole('dialog', { name: `Delete ${doomed} contacts?` });
  await expect(confirm.getByTestId('delete-contacts-summary')).toContainText('cannot be undone');
  await capture(page, testInfo, 'contacts-delete-confirm');
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(rows(page)).toHaveCount(doomed);
  await page.getByTestId('bulk-actions').getByRole('button', { name: 'Delete…' }).click();
  await confirm.getByRole('button', { name: `Delete ${doomed} contacts` }).click();
  await expect(page.getByTestId('contacts-notice')).toContainText(`${doomed} contacts deleted`);
  await expect(page.getByText('No contacts match')).toBeVisible();

  // At a phone's width: rows stack, filters wrap, nothing scrolls sideways.
  await search(page).getByRole('button', { name: 'Clear' }).click();
  await page.setViewportSize(PHONE);
  await expect(rows(page).first()).toBeVisible();
  await page.getByLabel(`Select ${ada}`).check();
  await expectNoHorizontalOverflow(page);
  await capture(page, testInfo, 'contacts-selected-390', { fullPage: false });
  await page.goto(`${baseUrl}/${accountId}/contacts/attributes`);
  await expect(page.locator('[data-attribute-row]')).toHaveCount(2);
  await expectNoHorizontalOverflow(page);
  await capture(page, testInfo, 'contact-attributes-list-390');
  await page.setViewportSize(DESKTOP);

  // A contact's page: mail sent to it, from the message log.
  const domain = `contacts-${stamp}.example.com`;
  await verifiedDomain(api, domain);
  const sent = await api.post(api.account('/messages'), {
    from: { email: `news@${domain}` },
    sandbox: true,
    recipients: [{ email: ada }],
    subject: 'Welcome, Ada',
    text_content: 'Hi.',
  });
  expect(sent.status).toBe(202);
  await waitForStatus(api, sent.body.data[0].id, 'Sandbox Delivered');

  await page.goto(`${baseUrl}/${accountId}/contacts?search=lovelace`);
  await rows(page).first().getByRole('link', { name: ada }).click();
  await expect(page.getByRole('heading', { level: 1, name: ada })).toBeVisible();
  await expect(page.locator('[data-membership-row="Newsletter"]')).toContainText('Confirmed');
  await expect(page.locator(`[data-message-row="${ada}"]`)).toContainText('Welcome, Ada');
  await expect(page.getByLabel('Plan')).toHaveValue('gold');
  await expect(page.getByLabel('seats')).toHaveValue('3');
  await capture(page, testInfo, 'contact-desktop');

  // Edit: fields and attributes; a refused value stays on its input; a cleared one is removed.
  await page.getByLabel('Last name').fill('King');
  await page.getByLabel('seats').fill('3.5x');
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.locator('[data-field-error="contact-attribute-seats"]')).toContainText('must be a number');
  await page.getByLabel('seats').fill('');
  await page.getByLabel('Plan').fill('platinum');
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByTestId('contact-notice')).toContainText('Contact saved.');
  const saved = (await api.get(api.account(`/contacts/${encodeURIComponent(ada)}`))).body;
  expect(saved).toMatchObject({ first_name: 'Ada', last_name: 'King', attributes: { plan: 'platinum' } });
  expect(saved.attributes).not.toHaveProperty('seats');
  // A new address that another contact has: the API's 409 lands on the email field.
  await page.getByLabel('Email address').fill(grace);
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.locator('[data-field-error="contact-email"], [role="alert"]').first()).toContainText(/already/i);
  await page.reload();

  // Unsubscribed in bulk before: resubscribe here, history kept by the API.
  await expect(page.getByRole('button', { name: 'Resubscribe' })).toBeVisible();
  await page.getByRole('button', { name: 'Resubscribe' }).click();
  await expect(page.getByTestId('contact-notice')).toContainText('Resubscribed');
  expect((await api.get(api.account(`/contacts/${encodeURIComponent(ada)}`))).body.unsubscribed).toBe(false);
  // The history keeps both changes (R3), newest first.
  await expect(page.locator('[data-subscription-event]')).toHaveCount(2);
  await expect(page.locator('[data-subscription-event]').first()).toHaveAttribute(
    'data-subscription-event',
    'resubscribed',
  );

  await page.setViewportSize(PHONE);
  await expectNoHorizontalOverflow(page);
  await capture(page, testInfo, 'contact-390');
  await page.setViewportSize(DESKTOP);

  // A type change is refused while contacts hold values of the old type, with the count, in the dialog.
  await api.put(api.account(`/contacts/${encodeURIComponent(grace)}`), { attributes: { seats: 7 } });
  await page.goto(`${baseUrl}/${accountId}/contacts/attributes`);
  await page.getByRole('button', { name: 'Edit seats' }).click();
  const edit = page.getByRole('dialog', { name: 'Edit seats' });
  await edit.getByLabel('Type').selectOption('string');
  await edit.getByRole('button', { name: 'Save attribute' }).click();
  // Grace's 7 and Linus's 4 (kept in the dialog from the refused attempt for Ada's address).
  await expect(edit.getByRole('alert').first()).toContainText('2 contacts hold values');
  await capture(page, testInfo, 'contact-attribute-type-refused');
  await edit.getByRole('button', { name: 'Cancel' }).click();

  // Delete a contact from its page, after a confirmation.
  await page.goto(`${baseUrl}/${accountId}/contacts/${saved.id}`);
  await page.getByRole('button', { name: 'Delete…' }).click();
  await page
    .getByRole('dialog', { name: 'Delete this contact?' })
    .getByRole('button', { name: 'Delete contact' })
    .click();
  await expect(page).toHaveURL(new RegExp(`/${accountId}/contacts$`));
  expect((await api.get(api.account(`/contacts/${encodeURIComponent(ada)}`))).status).toBe(404);
});

test('an empty account shows empty states; an unknown contact says so', async ({ page }, testInfo) => {
  const email = uniqueEmail('contacts-empty');
  const { accountId } = await newAccount('Contacts empty', email);
  const { baseUrl } = sharedServer();
  await signIn(page, baseUrl, email, OWNER_PASSWORD);
  await page.goto(`${baseUrl}/${accountId}/contacts`);
  await expect(page.getByText('No contacts yet')).toBeVisible();
  await capture(page, testInfo, 'contacts-empty');
  await page.goto(`${baseUrl}/${accountId}/contacts/00000000-0000-4000-8000-000000000000`);
  await expect(page.getByText('No such contact')).toBeVisible();
  // A filter the API refuses (a list that does not exist) is an error state, not an empty table.
  await page.goto(`${baseUrl}/${accountId}/contacts?list_id=00000000-0000-4000-8000-000000000000`);
  await expect(page.getByText('Contacts could not be loaded')).toBeVisible();
});
