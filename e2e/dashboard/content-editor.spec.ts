import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Locator, Page } from '@playwright/test';
import { OWNER_PASSWORD, uniqueEmail } from '../support/cli';
import {
  PHONE,
  capture,
  defineAttributes,
  expect,
  expectNoHorizontalOverflow,
  signIn,
  test,
} from '../support/dashboard';
import { uploadMedia } from '../support/media-client';
import { LARGER_PNG } from '../support/media-fixtures';
import { newAccount, sharedServer } from '../support/shared';

/**
 * The drafting seat: a template composed visually (blocks added, reordered by mouse and by keyboard,
 * a field inserted, a global colour), previewed at desktop and phone widths, saved as it is typed,
 * with a warning before leaving unsaved changes; and a Markdown draft whose Jinja error shows on its line.
 */
const WIDE = { width: 1440, height: 900 } as const;
const rendered = (page: Page) => page.getByRole('region', { name: 'Rendered preview' });
const renderedHtml = (page: Page) => rendered(page).frameLocator('iframe[title="HTML preview"]');
const blocks = (page: Page) => page.getByRole('list', { name: 'Blocks' }).locator(':scope > li');
const blockTypes = (page: Page) =>
  blocks(page).evaluateAll((items) => items.map((item) => item.getAttribute('data-block-type')));

async function openTemplate(page: Page, name: string, body: Record<string, unknown> = {}) {
  const email = uniqueEmail('editor-owner');
  const { api, accountId } = await newAccount(name, email);
  const { baseUrl } = sharedServer();
  const created = await api.post(api.account('/templates'), { name, kind: 'campaign', ...body });
  expect(created.status, created.text).toBe(201);
  await signIn(page, baseUrl, email, OWNER_PASSWORD);
  return { api, accountId, baseUrl, templateId: created.body.id as string };
}

/**
 * Drags with the mouse in small steps, as a person does (the sortable list starts a drag after 4 px).
 * A press that does not pick the block up (on a loaded machine the page can still move under the
 * pointer) is let go and tried again, up to three times, as a person would: the block shows it is held
 * (`aria-pressed`). It lets go only once the drop place shows (the target moved aside): React may not
 * have drawn the last move yet, and a release then drops the block where it began. Each poll nudges the
 * pointer by a pixel, so moves keep arriving.
 */
async function dragWithMouse(page: Page, handle: Locator, target: Locator) {
  for (let attempt = 1; ; attempt++) {
    await handle.scrollIntoViewIfNeeded();
    const from = (await handle.boundingBox())!;
    await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
    await page.mouse.down();
    await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2 - 10, { steps: 5 });
    const isHeld = await expect(handle)
      .toHaveAttribute('aria-pressed', 'true', { timeout: 5_000 })
      .then(
        () => true,
        () => false,
      );
    if (isHeld) break;
    await page.mouse.up();
    if (attempt === 3) throw new Error('three presses on the drag handle did not pick the block up');
  }
  const to = (await target.boundingBox())!;
  await page.mouse.move(to.x + to.width / 2, to.y + 2, { steps: 20 });
  let nudge = 0;
  await expect
    .poll(async () => {
      await page.mouse.move(to.x + to.width / 2, to.y + 2 + (nudge++ % 2));
      return target.evaluate((element) => (element as HTMLElement).style.transform);
    }, 'the drop place shows before letting go')
    .toMatch(/translate3d\([^,]+, -?[1-9]/);
  await page.mouse.up();
}

test('compose a template visually, reorder by mouse and keyboard, preview at two widths, autosaved, warned before leaving', async ({
  page,
}, testInfo) => {
  test.setTimeout(180_000);
  const { api, accountId, baseUrl, templateId } = await openTemplate(page, 'Visual welcome');
  await defineAttributes(page, baseUrl, accountId, [{ key: 'plan', type: 'string', label: 'Plan' }]);
  await page.goto(`${baseUrl}/${accountId}/templates/${templateId}`);
  await page.setViewportSize(WIDE);

  // An empty draft takes a format without a question.
  await page.getByRole('radiogroup', { name: 'Format' }).getByText('Visual').click();
  await expect(page.getByTestId('blocks-empty')).toBeVisible();
  const add = page.getByRole('group', { name: 'Add a block' });
  await add.getByRole('button', { name: 'Heading' }).click();
  await blocks(page).nth(0).getByLabel('Heading text', { exact: true }).fill('Welcome aboard');
  await add.getByRole('button', { name: 'Text', exact: true }).click();
  const text = blocks(page).nth(1).getByLabel('Text', { exact: true });
  await text.fill('Thanks for joining, ');
  // Insert field: the contact's fields and the account's attributes, written at the cursor.
  const insert = page.getByLabel('Insert field');
  await expect(insert.locator('option', { hasText: 'Plan' })).toHaveCount(1);
  await text.focus();
  await insert.selectOption('first_name');
  await expect(text).toHaveValue('Thanks for joining, {{ first_name }}');
  await add.getByRole('button', { name: 'Button' }).click();
  await blocks(page).nth(2).getByLabel('Button text', { exact: true }).fill('Start now');
  await blocks(page).nth(2).getByLabel('Button link', { exact: true }).fill('https://example.com/start');

  // An image asks for its alt text when it is added, and is flagged while it has none.
  await add.getByRole('button', { name: 'Image' }).click();
  const imageDialog = page.getByRole('dialog', { name: 'Add an image' });
  await imageDialog.getByLabel('Image URL').fill('https://example.com/logo.png');
  await expect(imageDialog.getByTestId('alt-warning')).toBeVisible();
  await imageDialog.getByRole('button', { name: 'Add image' }).click();
  const image = blocks(page).nth(3);
  await expect(image).toContainText('Describe the image');
  await image.getByLabel('Alt text').fill('Our logo');
  await expect(image).not.toContainText('Describe the image');
  expect(await blockTypes(page)).toEqual(['heading', 'text', 'button', 'image']);

  // Reordered with the mouse (the image dragged to the top), then by keyboard (the button moved up).
  await dragWithMouse(page, image.getByRole('button', { name: /^Drag Image block/ }), blocks(page).nth(0));
  await expect.poll(() => blockTypes(page)).toEqual(['image', 'heading', 'text', 'button']);
  await blocks(page)
    .nth(3)
    .getByRole('button', { name: /^Move Button block .* up$/ })
    .focus();
  await page.keyboard.press('Enter');
  await expect.poll(() => blockTypes(page)).toEqual(['image', 'heading', 'button', 'text']);
  await expect(page.getByTestId('block-announcement')).toHaveText('Button moved to position 3 of 4.');

  // A global colour reaches the rendered preview.
  await page.getByText('Global styles').click();
  await page.getByTestId('global-styles').getByLabel('Background', { exact: true }).fill('#123456');
  const frame = renderedHtml(page);
  await expect(frame.getByText('Thanks for joining, Ada')).toBeVisible();
  await expect(frame.getByText('Welcome aboard')).toBeVisible();
  await expect
    // The frame reloads with each new rendering: a read that meets a reload is simply tried again.
    .poll(() =>
      frame
        .locator('html')
        .evaluate((element) => element.outerHTML.toLowerCase())
        .catch(() => ''),
    )
    .toContain('#123456');

  // Desktop and phone widths.
  const iframe = rendered(page).locator('iframe[title="HTML preview"]');
  expect((await iframe.boundingBox())!.width).toBeGreaterThanOrEqual(600);
  await rendered(page).getByRole('radio', { name: 'Phone' }).click();
  await expect.poll(async () => Math.round((await iframe.boundingBox())!.width)).toBe(390);
  await expect(frame.getByText('Welcome aboard')).toBeVisible();
  await capture(page, testInfo, 'content-editor-visual-1440');

  // Saved as typed: the document in the API, in the order shown.
  await expect(page.getByTestId('draft-status')).toHaveText('All changes saved');
  const saved = await api.get(api.account(`/templates/${templateId}`));
  expect(saved.body.format).toBe('blocks');
  expect(saved.body.blocks_content.blocks.map((block: { type: string }) => block.type)).toEqual([
    'image',
    'heading',
    'button',
    'text',
  ]);
  expect(saved.body.blocks_content.styles.backgroundColor).toBe('#123456');

  // Leaving while a save is still on its way asks first; staying keeps the change.
  const templateUrl = new RegExp(`/v2/accounts/${accountId}/templates/${templateId}$`);
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(templateUrl, async (route) => {
    if (route.request().method() === 'PUT') await held;
    await route.fallback();
  });
  await blocks(page).nth(1).getByLabel('Heading text', { exact: true }).fill('Welcome aboard, friend');
  await expect(page.getByTestId('draft-status')).toHaveText('Saving…');
  expect(
    await page.evaluate(() => {
      const event = new Event('beforeunload', { cancelable: true });
      window.dispatchEvent(event);
      return event.defaultPrevented;
    }),
  ).toBe(true);
  const asked = page.waitForEvent('dialog');
  const leave = page.getByRole('link', { name: 'All templates' }).click();
  const dialog = await asked;
  expect(dialog.message()).toContain('not saved');
  await dialog.dismiss();
  await leave;
  await expect(page.getByRole('heading', { level: 1, name: 'Visual welcome' })).toBeVisible();
  release();
  await expect(page.getByTestId('draft-status')).toHaveText('All changes saved');
  await page.unroute(templateUrl);

  // Gone and back: the autosaved draft is there.
  await page.getByRole('link', { name: 'All templates' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Templates' })).toBeVisible();
  await page.getByRole('link', { name: 'Visual welcome' }).click();
  await expect(blocks(page).nth(1).getByLabel('Heading text', { exact: true })).toHaveValue('Welcome aboard, friend');
  expect(await blockTypes(page)).toEqual(['image', 'heading', 'button', 'text']);

  await page.setViewportSize(PHONE);
  await expect(renderedHtml(page).getByText('Welcome aboard, friend')).toBeVisible();
  await expectNoHorizontalOverflow(page);
  await capture(page, testInfo, 'content-editor-visual-390');
});

test('a Markdown draft with a Jinja error shows the error on its line, and switching format is confirmed', async ({
  page,
}, testInfo) => {
  test.setTimeout(120_000);
  const { api, accountId, baseUrl, templateId } = await openTemplate(page, 'Markdown news', {
    subject: 'News',
    html_content: '<p>Old HTML</p>',
  });
  await page.goto(`${baseUrl}/${accountId}/templates/${templateId}`);
  await page.setViewportSize(WIDE);

  // The draft has HTML: switching asks, and says content does not convert.
  await page.getByRole('radiogroup', { name: 'Format' }).getByText('Markdown').click();
  const confirm = page.getByRole('dialog', { name: 'Switch to Markdown?' });
  await expect(confirm).toContainText('does not convert');
  await confirm.getByRole('button', { name: 'Switch format' }).click();

  const editor = page.getByTestId('code-editor-markdown');
  await editor.getByLabel('Markdown').fill('# News\n\nHello {{ first_name }\n\nBye');
  await expect(page.getByTestId('source-problems')).toContainText('Line 3:');
  await expect(editor.locator('.cm-line').nth(2).locator('.cm-lintRange-error')).toBeVisible();
  await expect(editor.locator('.cm-gutter-lint .cm-lint-marker-error')).toHaveCount(1);
  await capture(page, testInfo, 'content-editor-markdown-error-1440');

  await editor.getByLabel('Markdown').fill('# News\n\nHello **{{ first_name }}**\n\nBye');
  await expect(page.getByTestId('source-problems')).toHaveCount(0);
  await expect(renderedHtml(page).getByRole('heading', { name: 'News' })).toBeVisible();
  await expect(renderedHtml(page).getByText('Ada')).toBeVisible();
  await expect(page.getByTestId('draft-status')).toHaveText('All changes saved');
  const saved = await api.get(api.account(`/templates/${templateId}`));
  expect(saved.body).toMatchObject({
    format: 'markdown',
    markdown_content: '# News\n\nHello **{{ first_name }}**\n\nBye',
  });

  await page.setViewportSize(PHONE);
  await expectNoHorizontalOverflow(page);
  await capture(page, testInfo, 'content-editor-markdown-390');
});

test('the campaign wizard writes its content with the same editor, previewed by the server and saved as typed', async ({
  page,
}, testInfo) => {
  const email = uniqueEmail('editor-campaigns');
  const { api, accountId } = await newAccount('Editor campaigns', email);
  const { baseUrl } = sharedServer();
  const created = await api.post(api.account('/campaigns'), { name: 'Visual news' });
  expect(created.status, created.text).toBe(201);
  await signIn(page, baseUrl, email, OWNER_PASSWORD);
  await page.goto(`${baseUrl}/${accountId}/campaigns/${created.body.id}`);
  await page.setViewportSize(WIDE);

  await page.getByRole('radiogroup', { name: 'Format' }).getByText('Visual').click();
  await page.getByRole('group', { name: 'Add a block' }).getByRole('button', { name: 'Heading' }).click();
  const heading = blocks(page).nth(0).getByLabel('Heading text', { exact: true });
  await heading.fill('Spring news for ');
  await page.getByLabel('Insert field').selectOption('first_name');
  await expect(heading).toHaveValue('Spring news for {{ first_name }}');
  const preview = page.getByRole('region', { name: 'Campaign preview' });
  await expect(
    preview.frameLocator('iframe[title="HTML preview"]').getByRole('heading', { name: 'Spring news for Ada' }),
  ).toBeVisible();
  await expect(page.getByTestId('save-state')).toHaveAttribute('data-state', 'saved');
  const saved = await api.get(api.account(`/campaigns/${created.body.id}`));
  expect(saved.body.format).toBe('blocks');
  expect(saved.body.blocks_content.blocks[0]).toMatchObject({
    type: 'heading',
    text: 'Spring news for {{ first_name }}',
  });
  expect(saved.body.html_content).toContain('Spring news for {{ first_name }}');
  await capture(page, testInfo, 'content-editor-campaign-1440');

  // An image from the account's media library: picked, its alt text asked there, and sent as its public URL.
  const uploadedImage = await uploadMedia(api, LARGER_PNG, { fileName: 'banner.png' });
  expect(uploadedImage.status, uploadedImage.text).toBe(201);
  await page.getByRole('group', { name: 'Add a block' }).getByRole('button', { name: 'Image' }).click();
  const imageDialog = page.getByRole('dialog', { name: 'Add an image' });
  await imageDialog.getByRole('button', { name: 'Choose from media library' }).click();
  const picker = page.getByRole('dialog', { name: 'Insert an image' });
  await picker.getByRole('list', { name: 'Media library' }).getByRole('button').first().click();
  await picker.getByLabel('Alt text').fill('Spring flowers');
  await picker.getByRole('button', { name: 'Insert image' }).click();
  await expect(picker).toBeHidden();
  await expect(imageDialog.getByLabel('Image URL')).toHaveValue(uploadedImage.body.url);
  await imageDialog.getByRole('button', { name: 'Add image' }).click();
  await expect(blocks(page).nth(1).getByLabel('Alt text')).toHaveValue('Spring flowers');
  await expect(page.getByTestId('save-state')).toHaveAttribute('data-state', 'saved');
  await expect
    .poll(async () => (await api.get(api.account(`/campaigns/${created.body.id}`))).body.html_content)
    .toContain(uploadedImage.body.url);
});

test('insert field writes into the subject and preview text; a removed block comes back with Undo; column children reorder', async ({
  page,
}, testInfo) => {
  test.setTimeout(120_000);
  // A remote image's server: the preview must never ask it for anything.
  let remoteHits = 0;
  const remote: Server = createServer((_request, response) => {
    remoteHits += 1;
    response.end();
  });
  await new Promise<void>((resolve) => remote.listen(0, '127.0.0.1', resolve));
  const pixel = `http://127.0.0.1:${(remote.address() as AddressInfo).port}/pixel.png`;
  const { api, accountId, baseUrl, templateId } = await openTemplate(page, 'Studio polish', {
    subject: 'Hello ',
    format: 'blocks',
    blocks_content: {
      version: 1,
      blocks: [
        { id: 'intro', type: 'text', text: 'Intro text' },
        {
          id: 'cols',
          type: 'columns',
          columns: [
            [
              { id: 'left-a', type: 'text', text: 'Left A' },
              { id: 'left-b', type: 'button', text: 'Left B', href: 'https://example.com/b' },
            ],
            [{ id: 'right', type: 'text', text: 'Right' }],
          ],
        },
        { id: 'outro', type: 'text', text: 'Outro text' },
        { id: 'pixel', type: 'image', src: pixel, alt: 'Remote pixel' },
      ],
    },
  });
  await page.goto(`${baseUrl}/${accountId}/templates/${templateId}`);
  await page.setViewportSize(WIDE);
  const insert = page.getByLabel('Insert field');

  // The subject and the preview text are insert targets, at their cursor, like the body's fields.
  const subject = page.getByLabel('Subject');
  await subject.focus();
  await subject.press('End');
  await insert.selectOption('first_name');
  await expect(subject).toHaveValue('Hello {{ first_name }}');
  const preheader = page.getByLabel('Preview text');
  await preheader.fill('Inside for ');
  await insert.selectOption('first_name');
  await expect(preheader).toHaveValue('Inside for {{ first_name }}');
  await expect(rendered(page).getByTestId('preview-preheader')).toHaveText('— Inside for Ada');
  // The preview loads no remote image, and says so.
  await expect(rendered(page).getByTestId('remote-images-hidden')).toContainText('1 remote image hidden');
  await expect(renderedHtml(page).getByText('Intro text')).toBeVisible();

  // Removing a block offers Undo for a few seconds; Undo puts it back where it was.
  await blocks(page)
    .nth(0)
    .getByRole('button', { name: /^Remove Text block 1/ })
    .click();
  expect(await blockTypes(page)).toEqual(['columns', 'text', 'image']);
  const toast = page.getByTestId('undo-toast');
  await expect(toast).toContainText('Text block removed.');
  await capture(page, testInfo, 'content-editor-undo-1440');
  await toast.getByRole('button', { name: 'Undo' }).click();
  await expect(toast).toBeHidden();
  expect(await blockTypes(page)).toEqual(['text', 'columns', 'text', 'image']);
  await expect(blocks(page).nth(0).getByLabel('Text', { exact: true })).toHaveValue('Intro text');

  // A column's children move with their own Up and Down buttons; their removal is undoable too.
  const columns = blocks(page).nth(1);
  await columns.getByRole('button', { name: 'Move Text 1 of column 1 down' }).click();
  await expect(columns.getByRole('button', { name: 'Move Button 1 of column 1 up' })).toBeDisabled();
  await columns.getByRole('button', { name: 'Remove Text 1 of column 2' }).click();
  await expect(toast).toContainText('Text removed from column 2.');
  await toast.getByRole('button', { name: 'Undo' }).click();

  await expect(page.getByTestId('draft-status')).toHaveText('All changes saved');
  await expect
    .poll(async () => {
      const saved = (await api.get(api.account(`/templates/${templateId}`))).body;
      return [saved.subject, saved.preheader, saved.blocks_content.blocks[1].columns];
    })
    .toEqual([
      'Hello {{ first_name }}',
      'Inside for {{ first_name }}',
      [
        [
          { id: 'left-b', type: 'button', text: 'Left B', href: 'https://example.com/b' },
          { id: 'left-a', type: 'text', text: 'Left A' },
        ],
        [{ id: 'right', type: 'text', text: 'Right' }],
      ],
    ]);

  await page.setViewportSize(PHONE);
  await expectNoHorizontalOverflow(page);
  await capture(page, testInfo, 'content-editor-polish-390');
  expect(remoteHits).toBe(0);
  remote.close();
});
