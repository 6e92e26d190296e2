import { expect, test } from '../support/dashboard';
import { OWNER_PASSWORD, uniqueEmail } from '../support/cli';
import { PHONE, capture, expectNoHorizontalOverflow, signIn } from '../support/dashboard';
import { newAccount, sharedServer } from '../support/shared';

test('domain warm-up at 390 px: start it, see day 1 of 17 with 50 a day per provider, turn it off after a confirmation', async ({
  page,
}, testInfo) => {
  const email = uniqueEmail('warmup-owner');
  const account = await newAccount('Dashboard warm-up', email);
  const { baseUrl } = sharedServer();
  const name = `warm-${Date.now().toString(36)}.example.com`;
  expect((await account.api.post(account.api.account('/domains'), { domain: name })).status).toBe(201);

  await page.setViewportSize(PHONE);
  await signIn(page, baseUrl, email, OWNER_PASSWORD);
  await page.goto(`${baseUrl}/${account.accountId}/domains/${name}`);
  const panel = page.getByTestId('warmup-panel');
  await expect(panel.getByRole('heading', { name: /Warm-up/ })).toContainText('Off');
  await panel.getByRole('button', { name: 'Start warm-up' }).click();
  await expect(panel.getByRole('heading', { name: /Warm-up/ })).toContainText('Day 1 of 17');
  const gmail = panel.locator('[data-provider="gmail"]');
  await expect(gmail).toContainText('Gmail');
  await expect(gmail.locator('td').nth(1)).toHaveText('0');
  await expect(gmail.locator('td').nth(2)).toHaveText('50');
  await expect(panel.locator('[data-provider="other"] td').nth(2)).toHaveText('No limit');
  await expectNoHorizontalOverflow(page);
  await capture(page, testInfo, 'domain-warmup-390');

  await panel.getByRole('button', { name: 'Turn off warm-up' }).click();
  const dialog = page.getByRole('dialog', { name: 'Turn off warm-up?' });
  await expect(dialog).toContainText(`Mail from ${name} will go at full volume`);
  await dialog.getByRole('button', { name: 'Turn off warm-up' }).click();
  await expect(dialog).toBeHidden();
  await expect(panel.getByRole('heading', { name: /Warm-up/ })).toContainText('Off');
  const domain = (await account.api.get(account.api.account(`/domains/${name}`))).body;
  expect(domain.warmup.enabled).toBe(false);
});
