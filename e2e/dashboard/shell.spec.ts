import { expect, test } from '../support/dashboard';
import { OWNER_PASSWORD, uniqueEmail } from '../support/cli';
import { capture, signIn } from '../support/dashboard';
import { verifiedDomain } from '../support/sending';
import { newAccount, sharedServer } from '../support/shared';

test('the favicon is served, and every page links an icon that loads', async ({ page }) => {
  const { baseUrl } = sharedServer();
  const favicon = await page.request.get(`${baseUrl}/favicon.ico`);
  expect(favicon.status()).toBe(200);
  expect(favicon.headers()['content-type']).toMatch(/image\//);
  await page.goto(`${baseUrl}/sign-in`);
  const icons = await page
    .locator('link[rel~="icon"]')
    .evaluateAll((links) => links.map((link) => (link as HTMLLinkElement).href));
  expect(icons.length).toBeGreaterThan(0);
  for (const href of icons) expect((await page.request.get(href)).status(), href).toBe(200);
});

test('a deep link survives sign-in; a callback to anywhere else is ignored', async ({ page }) => {
  const email = uniqueEmail('deep-link');
  const account = await newAccount('Deep link', email);
  const { baseUrl } = sharedServer();
  const wanted = `/${account.accountId}/messages?status=Bounced`;
  await page.goto(`${baseUrl}${wanted}`);
  await expect(page).toHaveURL(/\/sign-in\?callbackUrl=/);
  expect(new URL(page.url()).searchParams.get('callbackUrl')).toBe(wanted);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(OWNER_PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(`${baseUrl}${wanted}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Messages' })).toBeVisible();
  await expect(page.getByLabel('Status')).toHaveValue('Bounced');

  // Signed in already: the sign-in page forwards to a safe callback, and never off this server.
  for (const hostile of [
    'https://evil.example/',
    '//evil.example/x',
    '/\\evil.example',
    'javascript:alert(1)',
    `/${account.accountId}/../../evil`,
  ]) {
    await page.goto(`${baseUrl}/sign-in?callbackUrl=${encodeURIComponent(hostile)}`);
    await expect(page).toHaveURL(new RegExp(`^${baseUrl}/${account.accountId}`));
  }
  await page.goto(`${baseUrl}/sign-in?callbackUrl=${encodeURIComponent(`/${account.accountId}/settings`)}`);
  await expect(page).toHaveURL(`${baseUrl}/${account.accountId}/settings`);
});

test('copy buttons say what they copy, and copy it', async ({ page, context }, testInfo) => {
  const email = uniqueEmail('copy-names');
  const account = await newAccount('Copy names', email);
  const domain = `copy-${Date.now().toString(36)}.example.com`;
  await verifiedDomain(account.api, domain);
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const { baseUrl } = sharedServer();
  await signIn(page, baseUrl, email, OWNER_PASSWORD);
  await page.goto(`${baseUrl}/${account.accountId}/domains/${domain}`);
  const buttons = page.getByRole('button', { name: /^Copy/ });
  await expect(buttons.first()).toBeVisible();
  const names = await buttons.evaluateAll((elements) => elements.map((element) => element.getAttribute('aria-label')));
  expect(names.length).toBeGreaterThanOrEqual(18);
  for (const name of names) expect(name).toMatch(/^Copy (host|value) of .+ record$/);
  await page.getByRole('button', { name: 'Copy host of DKIM record', exact: true }).click();
  await expect(page.getByRole('button', { name: 'Copy host of DKIM record', exact: true })).toHaveText('Copied');
  const dkimHost = (await account.api.get(account.api.account(`/domains/${domain}`))).body.dns_records.find(
    (record: { label: string }) => record.label === 'DKIM',
  ).host;
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(dkimHost);
  await capture(page, testInfo, 'copy-buttons');
});

test('sidebar labels have a contrast of at least 4.5:1', async ({ page }) => {
  const email = uniqueEmail('contrast');
  await newAccount('Contrast', email);
  await signIn(page, sharedServer().baseUrl, email, OWNER_PASSWORD);
  const nav = page.getByRole('navigation', { name: 'Main' });
  const ratios = await nav.locator('p, span, a').evaluateAll((elements) => {
    const channel = (value: number) => {
      const s = value / 255;
      return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
    };
    // Tailwind's colours are oklch(): let a canvas turn any CSS colour into sRGB bytes.
    const context = document.createElement('canvas').getContext('2d', { willReadFrequently: true })!;
    const rgba = (color: string) => {
      context.clearRect(0, 0, 1, 1);
      context.fillStyle = color;
      context.fillRect(0, 0, 1, 1);
      return [...context.getImageData(0, 0, 1, 1).data];
    };
    const luminance = (color: string) => {
      const [r, g, b] = rgba(color);
      return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
    };
    const background = (element: Element): string => {
      for (let node: Element | null = element; node; node = node.parentElement) {
        const color = getComputedStyle(node).backgroundColor;
        if (rgba(color)[3] === 255) return color;
      }
      return 'rgb(255, 255, 255)';
    };
    return elements
      .filter(
        (element) =>
          element.childNodes.length &&
          [...element.childNodes].some((child) => child.nodeType === Node.TEXT_NODE && child.textContent!.trim()),
      )
      .map((element) => {
        const [fg, bg] = [luminance(getComputedStyle(element).color), luminance(background(element))];
        return { text: element.textContent!.trim(), ratio: (Math.max(fg, bg) + 0.05) / (Math.min(fg, bg) + 0.05) };
      });
  });
  expect(ratios.length).toBeGreaterThan(10);
  for (const { text, ratio } of ratios) expect(ratio, `"${text}"`).toBeGreaterThanOrEqual(4.5);
});
