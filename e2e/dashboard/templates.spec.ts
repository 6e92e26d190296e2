import type { Page } from '@playwright/test';
import { expect, test } from '../support/dashboard';
import { OWNER_PASSWORD, runCli, uniqueEmail } from '../support/cli';
import { DESKTOP, PHONE, capture, expectNoHorizontalOverflow, signIn } from '../support/dashboard';
import { newAccount, sharedServer } from '../support/shared';

/**
 * The Templates pages: create a draft, edit it beside a live preview rendered with a contact's values,
 * a syntax error shown where it is, publish and read version 1, a change made elsewhere meanwhile,
 * the list filtered by kind, and delete.
 */
const stamp = Date.now().toString(36);
const rendered = (page: Page) => page.getByRole('region', { name: 'Rendered preview' });
const renderedHtml = (page: Page) => rendered(page).frameLocator('iframe[title="HTML preview"]');

test('create a template, edit it with a contact previewed, publish version 1, resolve a conflict, delete it', async ({
  page,
  browser,
}, testInfo) => {
  test.setTimeout(180_000);
  const email = uniqueEmail('templates-owner');
  const { api, accountId } = await newAccount('Templates', email);
  const { baseUrl } = sharedServer();
  const grace = `grace-${stamp}@example.com`;
  expect(
    (await api.post(api.account('/contacts'), { email: grace, first_name: 'Grace', last_name: 'Hopper' })).status,
  ).toBe(201);

  await signIn(page, baseUrl, email, OWNER_PASSWORD);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Templates' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Templates' })).toBeVisible();
  await expect(page.getByText('No templates yet')).toBeVisible();
  await capture(page, testInfo, 'templates-empty');

  // Create: an empty name is the API's schema speaking, in the form.
  await page.getByRole('button', { name: 'Create template' }).first().click();
  const create = page.getByRole('dialog', { name: 'Create a template' });
  await create.getByRole('button', { name: 'Create template' }).click();
  await expect(create.locator('[data-field-error="template-name"]')).toContainText('must not be empty');
  await create.getByLabel('Name').fill('Welcome');
  await create.getByLabel('Kind').selectOption('campaign');
  await create.getByRole('button', { name: 'Create template' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Welcome' })).toBeVisible();
  await expect(page.getByTestId('template-latest-version')).toHaveText('Not published');
  await expect(page.getByText('Not published yet')).toBeVisible();
  const templateId = page.url().split('/').at(-1)!;

  // A syntax error: the preview names the field and the line, and the editor marks that line.
  await page.getByLabel('Subject', { exact: true }).fill('Hi {{ first_name }}');
  await page.getByLabel('HTML body').fill('<p>Hello\n{{ first_name </p>');
  await expect(page.getByTestId('preview-error')).toContainText(/html_content: template syntax error: .*line 2/);
  await expect(page.getByTestId('source-problems')).toContainText(/^Line 2: template syntax error/);
  await expect(
    page.getByTestId('code-editor-html').locator('.cm-line').nth(1).locator('.cm-lintRange-error'),
  ).toBeVisible();

  // Fixed, then previewed with the sample values, then with a contact's.
  await page
    .getByLabel('HTML body')
    .fill(
      '<h1 style="color:#0b5">Hello {{ first_name }} {{ last_name }}</h1><p>Plan: {{ plan | default("free") }}</p>',
    );
  await page.getByLabel('Text body').fill('Hello {{ first_name }}');
  // Publishing freezes what is saved: it waits for the save, which follows the typing by itself.
  await expect(page.getByRole('button', { name: 'Publish…' })).toBeDisabled();
  await expect(renderedHtml(page).getByRole('heading', { name: 'Hello Ada Lovelace' })).toBeVisible();
  await page
    .getByRole('search', { name: 'Find a contact for sample values' })
    .getByLabel('Contact email or name')
    .fill(grace);
  await page
    .getByRole('search', { name: 'Find a contact for sample values' })
    .getByRole('button', { name: 'Search' })
    .click();
  await page.getByRole('button', { name: `Use ${grace}` }).click();
  await expect(page.getByLabel('Sample values (JSON)')).toHaveValue(/"first_name": "Grace"/);
  await expect(renderedHtml(page).getByRole('heading', { name: 'Hello Grace Hopper' })).toBeVisible();
  await expect(rendered(page).getByTestId('preview-subject')).toHaveText('Hi Grace');
  await rendered(page).getByRole('tab', { name: 'Text' }).click();
  await expect(rendered(page).getByTestId('preview-text')).toHaveText('Hello Grace');
  await rendered(page).getByRole('tab', { name: 'HTML' }).click();

  await expect(page.getByTestId('draft-status')).toHaveText('All changes saved');
  await page.getByRole('button', { name: 'Publish…' }).click();
  await page
    .getByRole('dialog', { name: 'Publish version 1?' })
    .getByRole('button', { name: 'Publish version 1' })
    .click();
  await expect(page.getByTestId('template-notice')).toContainText('Version 1 published');
  await expect(page.getByTestId('template-latest-version')).toHaveText('Version 1');
  await expect(page.locator('[data-version-row="1"]')).toContainText('Hi {{ first_name }}');
  await capture(page, testInfo, 'template-editor-desktop');

  // Version 1, read-only, rendered with the same sample values.
  await page.getByRole('button', { name: 'View version 1' }).click();
  const version = page.getByRole('dialog', { name: 'Version 1' });
  await expect(version.getByTestId('template-version')).toContainText('Hello {{ first_name }} {{ last_name }}');
  await expect(
    version.frameLocator('iframe[title="HTML preview"]').getByRole('heading', { name: 'Hello Grace Hopper' }),
  ).toBeVisible();
  await expect(version.getByRole('textbox')).toHaveCount(0);
  await capture(page, testInfo, 'template-version-desktop', { fullPage: false });
  await version.getByRole('button', { name: 'Close' }).click();

  await page.setViewportSize(PHONE);
  await expect(renderedHtml(page).getByRole('heading', { name: 'Hello Grace Hopper' })).toBeVisible();
  await expectNoHorizontalOverflow(page);
  await capture(page, testInfo, 'template-editor-390');
  // A full-page capture may leave a frame far below the viewport unpainted: the preview on its own too.
  await rendered(page).scrollIntoViewIfNeeded();
  await capture(page, testInfo, 'template-preview-390', { fullPage: false });
  await page.setViewportSize(DESKTOP);

  // Busy (the server's 409 with Retry-After, forced here): nothing saved, Save waits that long.
  const templateUrl = new RegExp(`/v2/accounts/${accountId}/templates/${templateId}$`);
  await page.route(templateUrl, (route) =>
    route.request().method() === 'PUT'
      ? route.fulfill({
          status: 409,
          headers: { 'retry-after': '2' },
          contentType: 'application/json',
          body: JSON.stringify({ message: 'the template is being changed by another request; try again shortly' }),
        })
      : route.fallback(),
  );
  await page.getByLabel('Text body').fill('Hello {{ first_name }}!');
  await expect(page.getByTestId('template-busy')).toContainText('nothing was saved. Save works again in 2 s');
  await expect(page.getByRole('button', { name: 'Save draft' })).toBeDisabled();
  await page.unroute(templateUrl);
  await expect(page.getByTestId('draft-status')).toHaveText('All changes saved');
  await page.getByLabel('Text body').fill('Hello {{ first_name }}');
  await expect(page.getByTestId('draft-status')).toHaveText('All changes saved');

  // Changed elsewhere meanwhile: the save is refused with the revision, and the editor offers both ways out.
  expect((await api.put(api.account(`/templates/${templateId}`), { name: 'Welcome (API)' })).status).toBe(200);
  await page.getByLabel('Text body').fill('Hello {{ first_name }}, again');
  await expect(page.getByTestId('template-conflict')).toContainText('This draft was changed elsewhere');
  await page.getByRole('button', { name: 'Load the latest draft' }).click();
  await expect(page.getByLabel('Name', { exact: true })).toHaveValue('Welcome (API)');
  await expect(page.getByLabel('Text body')).toHaveValue('Hello {{ first_name }}');
  await page.getByLabel('Text body').fill('Hello {{ first_name }}, again');
  await expect(page.getByTestId('draft-status')).toHaveText('All changes saved');
  expect((await api.get(api.account(`/templates/${templateId}`))).body).toMatchObject({
    name: 'Welcome (API)',
    text_content: 'Hello {{ first_name }}, again',
    latest_version: 1,
  });

  // The list: kind, the latest version; filtered by kind.
  await page.getByRole('link', { name: 'All templates' }).click();
  const row = page.locator('[data-template-row="Welcome (API)"]');
  await expect(row).toContainText('Campaign');
  await expect(row.locator('[data-latest-version]')).toContainText('Version 1');
  await capture(page, testInfo, 'templates-desktop');
  await page.getByLabel('Filter templates by kind').selectOption('transactional');
  await expect(page.getByText('No transactional templates')).toBeVisible();
  await page.getByLabel('Filter templates by kind').selectOption('campaign');
  await expect(row).toBeVisible();
  await page.setViewportSize(PHONE);
  await expectNoHorizontalOverflow(page);
  await capture(page, testInfo, 'templates-390');
  await page.setViewportSize(DESKTOP);

  // An Analyst reads the draft and previews it, without the controls that change it.
  const analystEmail = uniqueEmail('templates-analyst');
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
  await analyst.goto(`${baseUrl}/${accountId}/templates/${templateId}`);
  await expect(renderedHtml(analyst).getByRole('heading', { name: 'Hello Ada Lovelace' })).toBeVisible();
  await expect(analyst.getByLabel('HTML body')).toHaveAttribute('contenteditable', 'false');
  await expect(analyst.getByRole('button', { name: /^(Save draft|Publish…|Delete…)$/ })).toHaveCount(0);
  await analystContext.close();

  // Delete: gone from the list and the API.
  await row.getByRole('link', { name: 'Welcome (API)' }).click();
  await page.getByRole('button', { name: 'Delete…' }).click();
  await page
    .getByRole('dialog', { name: 'Delete this template?' })
    .getByRole('button', { name: 'Delete template' })
    .click();
  await expect(page).toHaveURL(new RegExp(`/${accountId}/templates$`));
  await page.getByLabel('Filter templates by kind').selectOption('');
  await expect(page.getByText('No templates yet')).toBeVisible();
  expect((await api.get(api.account(`/templates/${templateId}`))).status).toBe(404);
});
