import { expect, test } from '../support/dashboard';
import { OWNER_PASSWORD, uniqueEmail } from '../support/cli';
import { PHONE, capture, expectNoHorizontalOverflow, signIn } from '../support/dashboard';
import { LARGER_PNG } from '../support/media-fixtures';
import { newAccount, sharedServer } from '../support/shared';

/**
 * The Media page: upload (an SVG refused with the reason, a PNG accepted), the grid with the image
 * shown, copy its URL, copy an <img> tag through the image picker (which asks for alt text first),
 * and delete with confirmation; at 1440 and 390 px.
 */
const WIDE = { width: 1440, height: 900 } as const;

test('upload, see, copy the URL and an image tag, and delete an image with confirmation, at 1440 and 390 px', async ({
  page,
  context,
}, testInfo) => {
  test.setTimeout(120_000);
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const email = uniqueEmail('media-owner');
  const { api, accountId } = await newAccount('Media page', email);
  const { baseUrl } = sharedServer();
  await page.setViewportSize(WIDE);
  await signIn(page, baseUrl, email, OWNER_PASSWORD);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Media' }).click();
  await expect(page).toHaveURL(new RegExp(`/${accountId}/media$`));
  await expect(page.getByRole('heading', { level: 1, name: 'Media' })).toBeVisible();
  await expect(page.getByText('No images yet')).toBeVisible();

  // Refused by content, with the server's reason in view.
  await page.getByLabel('Upload image').setInputFiles({
    name: 'logo.png',
    mimeType: 'image/png',
    buffer: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>'),
  });
  const refusal = page.getByRole('alert').filter({ hasText: 'was refused' });
  await expect(refusal).toContainText('logo.png was refused: SVG is refused: it can carry script');
  await capture(page, testInfo, 'media-refused-1440');

  await page.getByLabel('Upload image').setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: LARGER_PNG });
  const images = page.getByRole('list', { name: 'Images' });
  const card = images.getByRole('listitem').filter({ hasText: 'logo.png' });
  await expect(card).toContainText('PNG · 64×48');
  await expect(refusal).toHaveCount(0);
  const [stored] = (await api.get(api.account('/media'))).body.data;
  await expect
    .poll(() => card.locator('img').evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth))
    .toBe(64);

  await card.getByRole('button', { name: 'Copy URL of logo.png' }).click();
  await expect(card.getByRole('button', { name: 'Copy URL of logo.png' })).toHaveText('Copied');
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(stored.url);

  // The picker asks what the image shows before it hands it back; the tag escapes what was typed.
  await page.getByRole('button', { name: 'Copy an image tag' }).click();
  const picker = page.getByRole('dialog', { name: 'Insert an image' });
  await expect(picker.getByRole('button', { name: 'Insert image' })).toBeDisabled();
  await picker.getByRole('button', { name: /^logo\.png, PNG/ }).click();
  await picker.getByRole('button', { name: 'Insert image' }).click();
  await expect(picker.getByText('Describe the image, or mark it decorative.')).toBeVisible();
  await picker.getByLabel('Alt text').fill('Our "logo" <b>');
  await capture(page, testInfo, 'media-picker-1440');
  await picker.getByRole('button', { name: 'Insert image' }).click();
  await expect(picker).toBeHidden();
  const tag = `<img src="${stored.url}" alt="Our &quot;logo&quot; &lt;b&gt;">`;
  await expect(page.getByTestId('copied-image-tag')).toHaveText(tag);
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(tag);
  await capture(page, testInfo, 'media-grid-1440');

  await page.setViewportSize(PHONE);
  await page.reload();
  await expect(card).toContainText('PNG · 64×48');
  await expectNoHorizontalOverflow(page);
  await capture(page, testInfo, 'media-grid-390');

  // Delete: asked first, saying what breaks; Cancel keeps it.
  await card.getByRole('button', { name: 'Delete logo.png' }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete 1 image' });
  await expect(confirm).toContainText('logo.png');
  await expect(confirm).toContainText('stops working at once, also in mail already sent');
  await capture(page, testInfo, 'media-delete-390');
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(card).toBeVisible();
  await card.getByRole('button', { name: 'Delete logo.png' }).click();
  await confirm.getByRole('button', { name: 'Delete image' }).click();
  await expect(page.getByText('No images yet')).toBeVisible();
  expect((await page.request.get(stored.url)).status()).toBe(404);
});
