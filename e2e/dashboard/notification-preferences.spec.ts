import { OWNER_PASSWORD, runCli, uniqueEmail } from '../support/cli';
import { dashboardSession } from '../support/dashboard-session';
import { PHONE, capture, expect, expectNoHorizontalOverflow, signIn, test } from '../support/dashboard';
import { newAccount, sharedServer } from '../support/shared';

/** Email notifications on the profile: a switch per kind with when it is sent, saved per person; desktop and phone. */
test('a person turns a kind off and on; it stays after a reload and is theirs alone', async ({ page }, testInfo) => {
  const email = uniqueEmail('notify-owner');
  const account = await newAccount('Dashboard notifications', email);
  const { baseUrl, cliEnv } = sharedServer();
  const colleague = uniqueEmail('notify-admin');
  const added = await runCli(
    [
      'accounts',
      'add-member',
      account.accountId,
      '--email',
      colleague,
      '--password',
      OWNER_PASSWORD,
      '--role',
      'Administrator',
    ],
    cliEnv,
  );
  expect(added.code, added.stderr).toBe(0);

  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page, baseUrl, email, OWNER_PASSWORD);
  await page.goto(`${baseUrl}/${account.accountId}/profile`);
  await expect(page.getByRole('heading', { level: 1, name: 'Profile' })).toBeVisible();
  const section = page.getByRole('region', { name: 'Email notifications' });
  await expect(section.getByRole('switch')).toHaveCount(8);
  for (const name of [
    'A domain is paused',
    "A domain's DNS breaks",
    'A webhook turns itself off',
    'A route turns itself off',
    'A sub account reaches its monthly cap',
    'A campaign finishes',
    'Two-factor sign-in is turned off for me',
    'An API key with every scope is made',
  ])
    await expect(section.getByRole('switch', { name })).toHaveAttribute('aria-checked', 'true');
  await expect(section.getByText('When every message of a campaign has an outcome')).toBeVisible();
  await capture(page, testInfo, 'profile-notifications-desktop');

  const campaigns = section.getByRole('switch', { name: 'A campaign finishes' });
  await campaigns.click();
  await expect(campaigns).toHaveAttribute('aria-checked', 'false');
  await expect(section.getByRole('status')).toHaveText('A campaign finishes: no longer emailed.');
  await page.reload();
  await expect(section.getByRole('switch', { name: 'A campaign finishes' })).toHaveAttribute('aria-checked', 'false');
  await expect(section.getByRole('switch', { name: 'A domain is paused' })).toHaveAttribute('aria-checked', 'true');

  // Saved for this person only: the other Administrator still gets it.
  const users = (await account.api.get(account.api.account('/members'))).body.data as {
    email: string;
    user_id: string;
  }[];
  const theirs = await account.api.with(null).get('/internal/me/notification-preferences', {
    headers: await dashboardSession(users.find((user) => user.email === colleague)!.user_id),
  });
  expect(theirs.body.data.find((kind: { kind: string }) => kind.kind === 'campaign_finished').is_enabled).toBe(true);

  await page.setViewportSize(PHONE);
  await page.reload();
  await expect(section.getByRole('switch', { name: 'A campaign finishes' })).toHaveAttribute('aria-checked', 'false');
  await expectNoHorizontalOverflow(page);
  await capture(page, testInfo, 'profile-notifications-phone');
  await section.getByRole('switch', { name: 'A campaign finishes' }).click();
  await expect(section.getByRole('switch', { name: 'A campaign finishes' })).toHaveAttribute('aria-checked', 'true');
  await expect(section.getByRole('status')).toHaveText('A campaign finishes: emailed.');
});
