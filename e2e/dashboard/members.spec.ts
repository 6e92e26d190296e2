import { expect, test } from '../support/dashboard';
import { OWNER_PASSWORD, uniqueEmail } from '../support/cli';
import { DESKTOP, PHONE, capture, expectNoHorizontalOverflow, signIn } from '../support/dashboard';
import { newAccount, sharedServer } from '../support/shared';

/**
 * The Members page: members with roles, invite (an existing user joins at once; a new address gets
 * a link to copy, as the shared server has no system sender), change role, remove with
 * confirmation, pending invitations (new link, revoke), the role -> scopes table; the invitation
 * page; and what an Analyst sees. Mailed invitations: e2e/smtp/member-invitation.spec.ts.
 */
test('an owner invites, re-roles and removes members, and manages pending invitations, at desktop and phone widths', async ({
  page,
  browser,
  context,
}, testInfo) => {
  test.setTimeout(120_000);
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const ownerEmail = uniqueEmail('members-owner');
  const account = await newAccount('Members page', ownerEmail);
  const colleague = await newAccount('Colleague', uniqueEmail('colleague'));
  const { baseUrl } = sharedServer();
  await page.setViewportSize(DESKTOP);
  await signIn(page, baseUrl, ownerEmail, OWNER_PASSWORD);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Members' }).click();
  await expect(page).toHaveURL(new RegExp(`/${account.accountId}/members$`));
  await expect(page.getByRole('heading', { name: 'Members', level: 1 })).toBeVisible();
  const ownerRow = page.locator(`[data-member-row="${ownerEmail}"]`);
  await expect(ownerRow.getByText('Owner', { exact: true })).toBeVisible();
  await expect(ownerRow.getByText('You', { exact: true })).toBeVisible();
  await expect(ownerRow.getByRole('button')).toHaveCount(0);
  await expect(page.locator('[data-role-scopes="Analyst"]')).toContainText('messages:read:all');
  await expect(page.locator('[data-role-scopes="Administrator"]')).toContainText('every scope');

  // An existing user joins at once.
  await page.getByRole('button', { name: 'Invite member' }).click();
  await page.getByRole('dialog').getByLabel('Email').fill(colleague.ownerEmail);
  await page.getByRole('dialog').getByLabel('Role', { exact: true }).selectOption('Developer');
  await page.getByRole('dialog').getByRole('button', { name: 'Invite member' }).click();
  await expect(page.getByText(`${colleague.ownerEmail} is now a member (Developer).`)).toBeVisible();
  const colleagueRow = page.locator(`[data-member-row="${colleague.ownerEmail}"]`);
  await expect(colleagueRow.getByTestId('member-role')).toHaveText('Developer');

  // Again: the API's 409 lands on the form.
  await page.getByRole('button', { name: 'Invite member' }).click();
  await page.getByRole('dialog').getByLabel('Email').fill(colleague.ownerEmail);
  await page.getByRole('dialog').getByRole('button', { name: 'Invite member' }).click();
  await expect(page.getByRole('dialog').getByText(/already a member/)).toBeVisible();
  await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();

  // A new address: a link to copy, shown once.
  const invitee = uniqueEmail('invitee');
  await page.getByRole('button', { name: 'Invite member' }).click();
  await page.getByRole('dialog').getByLabel('Email').fill(invitee);
  await page.getByRole('dialog').getByLabel('Name (optional)').fill('<img src=x onerror=alert(1)>');
  await page.getByRole('dialog').getByLabel('Role', { exact: true }).selectOption('Analyst');
  await page.getByRole('dialog').getByRole('button', { name: 'Invite member' }).click();
  const linkDialog = page.getByRole('dialog', { name: `Invitation link for ${invitee}` });
  await expect(linkDialog).toBeVisible();
  const firstLink = (await linkDialog.getByTestId('invitation-link').textContent())!;
  expect(firstLink).toMatch(/\/invite\/[A-Za-z0-9]{43}$/);
  await linkDialog.getByRole('button', { name: 'Copy invitation link' }).click();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(firstLink);
  await capture(page, testInfo, 'members-invitation-link');
  await linkDialog.getByRole('button', { name: 'Done' }).click();
  const pendingRow = page.locator(`[data-invitation-row="${invitee}"]`);
  await expect(pendingRow).toContainText('<img src=x onerror=alert(1)>');
  await expect(pendingRow).toContainText('Analyst');

  // Change role, with the dialog.
  await page.getByRole('button', { name: `Change role of ${colleague.ownerEmail}` }).click();
  await page.getByRole('dialog').getByLabel('Role', { exact: true }).selectOption('Analyst');
  await page.getByRole('dialog').getByRole('button', { name: 'Change role' }).click();
  await expect(colleagueRow.getByTestId('member-role')).toHaveText('Analyst');
  await capture(page, testInfo, 'members-desktop');

  // Phone width: every part fits.
  await page.setViewportSize(PHONE);
  await page.reload();
  await expect(colleagueRow).toBeVisible();
  await expect(pendingRow).toBeVisible();
  await expectNoHorizontalOverflow(page);
  await capture(page, testInfo, 'members-phone');
  await page.getByRole('button', { name: 'Invite member' }).click();
  await expectNoHorizontalOverflow(page);
  await capture(page, testInfo, 'members-invite-phone', { fullPage: false });
  await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
  await page.setViewportSize(DESKTOP);

  // A new link replaces the old one.
  await page.getByRole('button', { name: `New invitation link for ${invitee}` }).click();
  const secondLink = (await linkDialog.getByTestId('invitation-link').textContent())!;
  expect(secondLink).not.toBe(firstLink);
  await linkDialog.getByRole('button', { name: 'Done' }).click();

  // The invitee opens the link in their own browser, sets a password and lands signed in, as an Analyst.
  const inviteeContext = await browser.newContext({ ignoreHTTPSErrors: true, viewport: PHONE });
  const inviteePage = await inviteeContext.newPage();
  await inviteePage.goto(firstLink);
  await expect(inviteePage.getByText(/not valid/)).toBeVisible();
  await inviteePage.goto(secondLink);
  await expect(inviteePage.getByRole('heading', { name: 'Join Members page' })).toBeVisible();
  await expectNoHorizontalOverflow(inviteePage);
  await capture(inviteePage, testInfo, 'invite-page-phone');
  await inviteePage.getByLabel('Password').fill('short');
  await inviteePage.getByRole('button', { name: 'Join and sign in' }).click();
  await expect(inviteePage.getByText('must be at least 10 characters')).toBeVisible();
  await inviteePage.getByLabel('Password').fill('invitee password 1');
  await inviteePage.getByRole('button', { name: 'Join and sign in' }).click();
  await expect(inviteePage).toHaveURL(new RegExp(`/${account.accountId}$`));
  await inviteePage.goto(`${baseUrl}/${account.accountId}/members`);
  await expect(inviteePage.locator(`[data-member-row="${invitee}"]`).getByText('You', { exact: true })).toBeVisible();
  // An Analyst reads members but changes nothing.
  await expect(inviteePage.getByRole('button', { name: 'Invite member' })).toHaveCount(0);
  await expect(inviteePage.getByRole('button', { name: /^Change role of/ })).toHaveCount(0);
  await expect(inviteePage.getByRole('button', { name: /^Remove / })).toHaveCount(0);
  await capture(inviteePage, testInfo, 'members-analyst-phone');
  await inviteePage.goto(secondLink);
  await expect(inviteePage.getByText(/already been used/)).toBeVisible();
  await inviteeContext.close();

  // Remove, after a confirmation that can be cancelled.
  await page.reload();
  await expect(pendingRow).toHaveCount(0);
  await page.getByRole('button', { name: `Remove ${colleague.ownerEmail}` }).click();
  await expect(page.getByRole('dialog', { name: 'Remove member' })).toContainText(colleague.ownerEmail);
  await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
  await expect(colleagueRow).toBeVisible();
  await page.getByRole('button', { name: `Remove ${colleague.ownerEmail}` }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Remove member' }).click();
  await expect(colleagueRow).toHaveCount(0);
  await expect(page.getByText(`${colleague.ownerEmail} was removed from the account.`)).toBeVisible();

  // Revoke a pending invitation.
  const revokee = uniqueEmail('revokee');
  expect((await account.api.post(account.api.account('/members'), { email: revokee, role: 'Developer' })).status).toBe(
    201,
  );
  await page.reload();
  await page.getByRole('button', { name: `Revoke invitation of ${revokee}` }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Revoke invitation' }).click();
  await expect(page.locator(`[data-invitation-row="${revokee}"]`)).toHaveCount(0);
  await expect(page.getByText(`Invitation of ${revokee} revoked.`)).toBeVisible();
});

test("signing in: the password a first inviter set on someone's address opens only that inviter's account, the person's own opens theirs", async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const { baseUrl } = sharedServer();
  const email = uniqueEmail('claimed');
  const attacker = await newAccount('Claiming account');
  const bait = await attacker.api.post(attacker.api.account('/members'), { email, role: 'Administrator' });
  const anonymous = attacker.api.with(null);
  const tokenOf = (url: string) => new URL(url).pathname.split('/').at(-1);
  expect(
    (
      await anonymous.post('/internal/invitations/accept', {
        token: tokenOf(bait.body.invitation.url),
        password: 'attacker password 1',
      })
    ).status,
  ).toBe(200);
  const team = await newAccount('Real team');
  const invited = await team.api.post(team.api.account('/members'), { email, role: 'Developer' });
  expect(
    (
      await anonymous.post('/internal/invitations/accept', {
        token: tokenOf(invited.body.invitation.url),
        password: 'the real password 2',
      })
    ).status,
  ).toBe(200);

  const accountsSeenWith = async (password: string) => {
    const context = await browser.newContext({ ignoreHTTPSErrors: true });
    const page = await context.newPage();
    await signIn(page, baseUrl, email, password);
    const me = await page.evaluate(async () => (await fetch('/internal/me')).json());
    await context.close();
    return me.accounts.map((account: { id: string }) => account.id);
  };
  expect(await accountsSeenWith('attacker password 1')).toEqual([attacker.accountId]);
  expect(await accountsSeenWith('the real password 2')).toEqual([team.accountId]);
});
