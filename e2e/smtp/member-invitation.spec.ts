import { expect, test, type Page } from '@playwright/test';
import { ROLE_SCOPES } from '../../lib/auth/roles';
import { createAccountWithKey } from '../support/cli';
import { ApiClient } from '../support/client';
import { startMxSuite, type MxSuite } from '../support/mx-suite';

/**
 * Member invitations mailed through Mailstead's own delivery engine from the system sender
 * (SYSTEM_SENDER on a domain the suite's first account has verified), caught by a loopback MX; the
 * link opened in Chromium sets the password once and signs in with exactly the role's scopes.
 * Links last 45 seconds here, so that one can be seen to expire.
 */
test.use({
  browserName: 'chromium',
  ignoreHTTPSErrors: true,
  launchOptions: {
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--no-first-run'],
  },
});

const stamp = Date.now().toString(36);
const sender = `invite-sender-${stamp}.example.com`;
const rcptDomain = `invite-${stamp}.example`;
const TTL_SECONDS = 45;
const LINK = /https:\/\/127\.0\.0\.1:\d+\/invite\/[A-Za-z0-9]{43}/;

let suite: MxSuite;
let team: { api: ApiClient; accountId: string };
let expiring: { email: string; expiresAt: number; link: string } | null = null;

test.beforeAll(async () => {
  test.setTimeout(150_000);
  suite = await startMxSuite({
    name: 'Invitations',
    sender,
    recipientDomain: rcptDomain,
    env: { SYSTEM_SENDER: `Mailstead Team <no-reply@${sender}>`, INVITATION_TTL_SECONDS: String(TTL_SECONDS) },
  });
  // The team inviting is another account than the one that owns the system sender's domain.
  const created = await createAccountWithKey(suite.server.env, 'Team <b>&amp; Co</b>');
  team = {
    api: new ApiClient(suite.server.baseUrl, suite.server.dataDir, created.apiKey, created.accountId),
    accountId: created.accountId,
  };
  // Made first, so that it expires while the other tests run.
  const late = await invite(`late-${stamp}@${rcptDomain}`, 'Developer');
  expiring = { email: late.added.email, expiresAt: Date.parse(late.added.invitation.expires_at), link: late.link };
});

test.afterAll(async () => {
  await suite?.stop();
});

async function invite(email: string, role: string, name?: string) {
  const added = await team.api.post(team.api.account('/members'), { email, role, ...(name ? { name } : {}) });
  expect(added.status).toBe(201);
  expect(added.body).toMatchObject({
    status: 'invited',
    email,
    role,
    invitation: { delivery: 'email', status: 'pending' },
  });
  // Mailed: the link is never in the answer.
  expect(added.body.invitation).not.toHaveProperty('url');
  expect(added.text).not.toMatch(LINK);
  await expect.poll(() => suite.mx.for(email).length, { timeout: 30_000 }).toBe(1);
  const [mail] = suite.mx.for(email);
  const link = mail.parsed.text?.match(LINK)?.[0];
  expect(link, 'the invitation mail carries a link').toBeTruthy();
  return { added: added.body, mail, link: link! };
}

async function openLink(page: Page, link: string) {
  await page.goto(link);
  await expect(page.getByRole('heading').first()).toBeVisible();
}

test('an invitation mail from the system sender carries a link; opening it sets the password and signs the Analyst in with exactly the Analyst scopes', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const email = `analyst-${stamp}@${rcptDomain}`;
  const { mail, link } = await invite(email, 'Analyst', 'Ana <Lyst>');
  // The envelope sender is the sending domain's return path; the header names the system sender.
  expect(mail.from).toMatch(new RegExp(`@rp\\.${sender.replace(/\./g, '\\.')}$`));
  expect(mail.parsed.from?.value[0]).toMatchObject({ address: `no-reply@${sender}`, name: 'Mailstead Team' });
  expect(mail.parsed.subject).toBe('You are invited to join Team <b>&amp; Co</b> on Mailstead');
  expect(mail.parsed.text).toContain('as Analyst');
  // The account's name is text in the HTML part, not markup.
  expect(mail.parsed.html).toContain('Team &lt;b&gt;&amp;amp; Co&lt;/b&gt;');
  expect(mail.parsed.html).not.toContain('<b>&amp; Co</b>');
  // No tracking rewrote the link.
  expect(mail.parsed.html).toContain(`href="${link}"`);

  await openLink(page, link);
  await expect(page.getByRole('heading', { name: 'Join Team <b>&amp; Co</b>' })).toBeVisible();
  await expect(page.getByLabel('Email')).toHaveValue(email);
  await page.getByLabel('Password').fill('analyst password 1');
  await page.getByRole('button', { name: 'Join and sign in' }).click();
  await expect(page).toHaveURL(new RegExp(`/${team.accountId}$`));
  await expect(page.getByTestId('signed-in-as')).toHaveText(email);

  const seen = await page.evaluate(async (accountId) => {
    const me = await (await fetch('/internal/me')).json();
    const createKey = await fetch(`/v2/accounts/${accountId}/api-keys`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ label: 'analyst key', scopes: ['messages:read:all'] }),
    });
    const members = await fetch(`/v2/accounts/${accountId}/members`);
    const invite = await fetch(`/v2/accounts/${accountId}/members`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'x@example.com', role: 'Analyst' }),
    });
    return { me, createKey: createKey.status, members: members.status, invite: invite.status };
  }, team.accountId);
  expect(seen.me.accounts).toEqual([
    expect.objectContaining({ id: team.accountId, role: 'Analyst', is_owner: false, scopes: [...ROLE_SCOPES.Analyst] }),
  ]);
  expect(seen.createKey).toBe(403);
  expect(seen.members).toBe(200);
  expect(seen.invite).toBe(403);

  const listed = await team.api.get(team.api.account('/members'));
  expect(listed.body.data.find((member: { email: string }) => member.email === email)).toMatchObject({
    role: 'Analyst',
    name: 'Ana <Lyst>',
    status: 'active',
  });
});

test('a used link is refused, on the page and by the API', async ({ page }) => {
  const email = `once-${stamp}@${rcptDomain}`;
  const { link } = await invite(email, 'Developer');
  const token = new URL(link).pathname.split('/').at(-1);
  const anonymous = team.api.with(null);
  expect(
    (await anonymous.post('/internal/invitations/accept', { token, password: 'developer password 1' })).status,
  ).toBe(200);
  await openLink(page, link);
  await expect(page.getByRole('heading', { name: 'This invitation cannot be used' })).toBeVisible();
  await expect(page.getByText(/already been used/)).toBeVisible();
  const again = await anonymous.post('/internal/invitations/accept', { token, password: 'another password 2' });
  expect(again.status).toBe(409);
});

test('resending mails a new link and the previous one stops working', async ({ page }) => {
  const email = `resend-${stamp}@${rcptDomain}`;
  const { added, link: first } = await invite(email, 'Billing Manager');
  const resent = await team.api.post(team.api.account(`/member-invitations/${added.invitation.id}/resend`));
  expect(resent.status).toBe(200);
  expect(resent.body).toMatchObject({ delivery: 'email' });
  expect(resent.body).not.toHaveProperty('url');
  await expect.poll(() => suite.mx.for(email).length, { timeout: 30_000 }).toBe(2);
  const second = suite.mx.for(email)[1].parsed.text?.match(LINK)?.[0];
  expect(second).toBeTruthy();
  expect(second).not.toBe(first);
  await openLink(page, first);
  await expect(page.getByText(/not valid/)).toBeVisible();
  await openLink(page, second!);
  await expect(page.getByRole('button', { name: 'Join and sign in' })).toBeVisible();
});

test('an expired link is refused', async ({ page }) => {
  test.setTimeout(120_000);
  const wait = expiring!.expiresAt - Date.now() + 1000;
  if (wait > 0) await page.waitForTimeout(wait);
  await openLink(page, expiring!.link);
  await expect(page.getByRole('heading', { name: 'This invitation cannot be used' })).toBeVisible();
  await expect(page.getByText(/has expired/)).toBeVisible();
  const listed = await team.api.get(team.api.account('/member-invitations'));
  expect(listed.body.data.find((invitation: { email: string }) => invitation.email === expiring!.email)).toMatchObject({
    status: 'expired',
  });
});

test("a mailed link proves the address: the person's user is then added at once by another account, with the same sign-in", async () => {
  const email = `proven-${stamp}@${rcptDomain}`;
  const { added, link } = await invite(email, 'Developer');
  const token = new URL(link).pathname.split('/').at(-1);
  const accepted = await team.api
    .with(null)
    .post('/internal/invitations/accept', { token, password: 'proven password 1' });
  expect(accepted.status).toBe(200);
  expect(accepted.body.user_id).toBe(added.user_id);

  const other = await createAccountWithKey(suite.server.env, 'Another team');
  const otherApi = new ApiClient(suite.server.baseUrl, suite.server.dataDir, other.apiKey, other.accountId);
  const joined = await otherApi.post(otherApi.account('/members'), { email, role: 'Analyst' });
  expect(joined.status).toBe(201);
  expect(joined.body).toMatchObject({ status: 'active', user_id: added.user_id, role: 'Analyst' });
});
