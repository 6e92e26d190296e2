import type { Page } from '@playwright/test';
import { expect, test } from '../support/dashboard';
import { OWNER_PASSWORD, createAccountWithKey, runCli, uniqueEmail } from '../support/cli';
import { ApiClient } from '../support/client';
import { DESKTOP, PHONE, capture, expectNoHorizontalOverflow, ownDashboardServer, signIn } from '../support/dashboard';
import { TestMx } from '../support/mx-server';
import { routeDomainToLoopback, verifiedDomain, waitForStatus } from '../support/sending';

/**
 * The Suppressions page against a server of its own that really delivers (to a loopback MX that
 * refuses one address), so the list holds an automatic hard-bounce entry beside the hand-made ones.
 */
const stamp = Date.now().toString(36);
const rcptDomain = `supp-rcpt-${stamp}.example`;
let mx: TestMx;

test.beforeAll(async () => {
  mx = await new TestMx().start();
  await routeDomainToLoopback(rcptDomain);
});
test.afterAll(async () => mx?.stop());

const server = ownDashboardServer('suppressions', () => ({
  ALLOW_PRIVATE_NETWORKS: 'true',
  SMTP_DELIVERY_PORT: String(mx.port),
  DELIVERY_POLL_MS: '100',
}));

async function account(name: string) {
  const email = uniqueEmail(name);
  const created = await createAccountWithKey(server().env, name, email);
  return {
    email,
    accountId: created.accountId,
    api: new ApiClient(server().baseUrl, server().dataDir, created.apiKey, created.accountId),
  };
}

const rows = (page: Page) => page.locator('[data-suppression-row]');
const inAYear = () => new Date(Date.now() + 365 * 86_400_000).toISOString();

test('a hard bounce is listed; search, filter by reason and domain, add, remove and wipe with confirmation', async ({
  page,
}, testInfo) => {
  test.setTimeout(120_000);
  const { email, accountId, api } = await account('suppressions');
  const first = `supp-a-${stamp}.example.com`;
  const second = `supp-b-${stamp}.example.com`;
  await verifiedDomain(api, first);
  await verifiedDomain(api, second);

  // A real hard bounce: the engine suppresses the address for the sending domain by itself.
  const gone = `gone-${stamp}@${rcptDomain}`;
  mx.script(gone, { code: 550, message: '5.1.1 no such user here' });
  const sent = await api.post(api.account('/messages'), {
    from: { email: `hello@${first}` },
    recipients: [{ email: gone }],
    subject: 'Hi',
    text_content: 'Hi.',
  });
  expect(sent.status).toBe(202);
  await waitForStatus(api, sent.body.data[0].id, 'Bounced');
  // Hand-made entries: two for the second domain, one for every domain.
  for (const [address, domain] of [
    [`old-list-1@${rcptDomain}`, second],
    [`old-list-2@${rcptDomain}`, second],
    [`everyone-${stamp}@example.org`, undefined],
  ] as const) {
    expect(
      (
        await api.post(api.account('/suppressions'), {
          email: address,
          expires_at: inAYear(),
          reason: 'imported from the old list',
          ...(domain ? { domain } : {}),
        })
      ).status,
    ).toBe(201);
  }

  await signIn(page, server().baseUrl, email, OWNER_PASSWORD);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Suppressions' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Suppressions' })).toBeVisible();
  await expect(rows(page)).toHaveCount(4);
  const bounced = page.locator(`[data-suppression-row="${gone}"]`);
  await expect(bounced).toContainText('Hard bounce');
  await expect(bounced).toContainText(first);
  await expect(bounced).toContainText('5.1.1');
  await expect(page.locator(`[data-suppression-row="everyone-${stamp}@example.org"]`)).toContainText('Every domain');
  await capture(page, testInfo, 'suppressions-desktop');

  // Add one by hand; adding it again is the API's 409, shown in the form.
  const added = `added-${stamp}@example.net`;
  for (const attempt of [1, 2]) {
    await page.getByRole('button', { name: 'Add suppression' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add a suppression' });
    await dialog.getByLabel('Email address').fill(added);
    await dialog.getByLabel('Sending domain').selectOption(first);
    await dialog.getByLabel('Reason').fill('asked not to be mailed');
    if (attempt === 1) await capture(page, testInfo, 'suppression-add');
    await dialog.getByRole('button', { name: 'Add suppression' }).click();
    if (attempt === 1) {
      await expect(page.getByTestId('suppressions-notice')).toContainText(`${added} is suppressed`);
    } else {
      await expect(dialog.getByRole('alert')).toContainText(/already/i);
      await dialog.getByRole('button', { name: 'Cancel' }).click();
    }
  }
  await expect(rows(page)).toHaveCount(5);
  await expect(page.locator(`[data-suppression-row="${added}"]`)).toContainText('Added by hand');

  // Search by address: the URL carries it, so the view can be shared or reloaded.
  const search = page.getByRole('search', { name: 'Search suppressions' });
  await search.getByLabel('Email address').fill(gone);
  await search.getByRole('button', { name: 'Search' }).click();
  await expect(page).toHaveURL(new RegExp(`[?&]email=${encodeURIComponent(gone).replace(/\./g, '\\.')}`));
  await expect(rows(page)).toHaveCount(1);
  await page.reload();
  await expect(rows(page)).toHaveCount(1);
  await expect(page.getByRole('search').getByLabel('Email address')).toHaveValue(gone);

  // By reason, then by domain.
  await page.getByRole('search').getByRole('button', { name: 'Clear' }).click();
  await expect(rows(page)).toHaveCount(5);
  await page.getByRole('search').getByLabel('Reason').selectOption('bounce');
  await page.getByRole('search').getByRole('button', { name: 'Search' }).click();
  await expect(page).toHaveURL(/[?&]kind=bounce/);
  await expect(rows(page)).toHaveCount(1);
  await expect(rows(page).first()).toHaveAttribute('data-suppression-row', gone);
  await page.getByRole('search').getByLabel('Reason').selectOption('');
  await page.getByRole('search').getByLabel('Domain').selectOption(second);
  await page.getByRole('search').getByRole('button', { name: 'Search' }).click();
  await expect(page).toHaveURL(new RegExp(`[?&]domain=${second.replace(/\./g, '\\.')}`));
  await expect(rows(page)).toHaveCount(2);
  await expect(page.locator(`[data-suppression-domain="${second}"]`)).toHaveCount(2);
  await page.getByRole('search').getByLabel('Email address').fill('nobody@example.com');
  await page.getByRole('search').getByRole('button', { name: 'Search' }).click();
  await expect(page.getByText('No suppressions match')).toBeVisible();
  await page.getByRole('search').getByRole('button', { name: 'Clear' }).click();
  await expect(rows(page)).toHaveCount(5);

  // Remove one: the dialog says what that means for a hard bounce.
  await page.getByRole('button', { name: `Remove ${gone} for ${first}` }).click();
  const remove = page.getByRole('dialog', { name: 'Remove suppression' });
  await expect(remove).toContainText('bounced hard before');
  await remove.getByRole('button', { name: 'Remove' }).click();
  await expect(page.getByTestId('suppressions-notice')).toContainText(`${gone} is no longer suppressed from ${first}`);
  await expect(rows(page)).toHaveCount(4);
  const listed = (await api.get(api.account(`/suppressions?email=${encodeURIComponent(gone)}`))).body;
  expect(listed.data).toHaveLength(0);

  // At a phone's width: rows stack, nothing scrolls sideways.
  await page.setViewportSize(PHONE);
  await expect(rows(page)).toHaveCount(4);
  // The filters fold behind one button, so the rows come first on a phone.
  const filters = page.getByRole('button', { name: /^Filters/ });
  await expect(page.getByRole('search')).toBeHidden();
  await expect(filters).toHaveAttribute('aria-expanded', 'false');
  await filters.click();
  await expect(page.getByRole('search').getByLabel('Reason')).toBeVisible();
  await capture(page, testInfo, 'suppressions-filters-open-390', { fullPage: false });
  await filters.click();
  await expect(page.getByRole('search')).toBeHidden();
  await expectNoHorizontalOverflow(page);
  await capture(page, testInfo, 'suppressions-390');
  await page.setViewportSize(DESKTOP);

  // Wipe: first for one domain, then everything; each after a count of what goes.
  await page.getByRole('search').getByLabel('Domain').selectOption(second);
  await page.getByRole('search').getByRole('button', { name: 'Search' }).click();
  await expect(rows(page)).toHaveCount(2);
  await page.getByRole('button', { name: `Remove all for ${second}…` }).click();
  const wipeDomain = page.getByRole('dialog', { name: `Remove all suppressions for ${second}?` });
  await expect(wipeDomain.getByTestId('wipe-summary')).toContainText('2 suppressions for');
  await wipeDomain.getByRole('button', { name: 'Cancel' }).click();
  await expect(rows(page)).toHaveCount(2);
  await page.getByRole('button', { name: `Remove all for ${second}…` }).click();
  await wipeDomain.getByRole('button', { name: 'Remove 2 suppressions' }).click();
  await expect(page.getByTestId('suppressions-notice')).toContainText('2 suppressions deleted');
  await expect(page.getByText('No suppressions match')).toBeVisible();

  await page.getByRole('search').getByRole('button', { name: 'Clear' }).click();
  await expect(rows(page)).toHaveCount(2);
  await page.getByRole('button', { name: 'Remove all…' }).click();
  const wipe = page.getByRole('dialog', { name: 'Remove all suppressions?' });
  await expect(wipe.getByTestId('wipe-summary')).toContainText('This cannot be undone.');
  await expect(wipe.getByTestId('wipe-summary')).toContainText('2 suppressions');
  await capture(page, testInfo, 'suppressions-wipe-confirm');
  await wipe.getByRole('button', { name: 'Remove 2 suppressions' }).click();
  await expect(page.getByTestId('suppressions-notice')).toContainText('2 suppressions deleted');
  await expect(page.getByText('No suppressions', { exact: true })).toBeVisible();
  expect((await api.get(api.account('/suppressions'))).body.data).toHaveLength(0);
  await capture(page, testInfo, 'suppressions-empty');

  // An Analyst reads the list without the buttons that would change it.
  expect(
    (await api.post(api.account('/suppressions'), { email: `kept-${stamp}@example.org`, expires_at: inAYear() }))
      .status,
  ).toBe(201);
  const analystEmail = uniqueEmail('supp-analyst');
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
        server().env,
      )
    ).code,
  ).toBe(0);
  await page.context().clearCookies();
  await signIn(page, server().baseUrl, analystEmail, 'analyst password');
  await page.goto(`${server().baseUrl}/${accountId}/suppressions`);
  await expect(rows(page)).toHaveCount(1);
  await expect(page.getByRole('button', { name: /^(Add suppression|Remove all…)$/ })).toHaveCount(0);
  await expect(page.getByRole('button', { name: /^Remove kept-/ })).toHaveCount(0);
});
