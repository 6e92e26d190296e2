import { expect, test } from '@playwright/test';
import { generateSync } from 'otplib';
import { runCli, uniqueEmail } from '../support/cli';
import type { ApiClient } from '../support/client';
import { dashboardSession } from '../support/dashboard-session';
import { newAccount, sharedServer } from '../support/shared';

/**
 * Two-factor sign-in over the session-only endpoints: setup needs a right code, the account rule
 * refuses a member's session (never an API key) until they have set it up, the owner cannot turn the
 * rule on without it, and no cookie-authenticated write is taken from another origin.
 */
let owner: Awaited<ReturnType<typeof newAccount>>;
let anonymous: ApiClient;
let ownerSession: Record<string, string>;
const ME = '/internal/me/two-factor';

test.beforeAll(async () => {
  owner = await newAccount('Two-factor API');
  anonymous = owner.api.with(null);
  ownerSession = await dashboardSession(owner.ownerId);
});

const get = (path: string, session: Record<string, string>) => anonymous.get(path, { headers: session });
const post = (path: string, body: unknown, session: Record<string, string>) =>
  anonymous.post(path, body, { headers: session });
const put = (path: string, body: unknown, session: Record<string, string>) =>
  anonymous.put(path, body, { headers: session });
const requirement = () => `/internal/accounts/${owner.accountId}/two-factor-requirement`;

/** Some authenticator app's code for `secret` now, or one step later (a code not yet used). */
const codeFor = (secret: string, offsetSeconds = 0) =>
  generateSync({ secret, epoch: Math.floor(Date.now() / 1000) + offsetSeconds });

async function member(role: string, password = 'member password') {
  const email = uniqueEmail('two-factor-member');
  const added = await runCli(
    ['accounts', 'add-member', owner.accountId, '--email', email, '--password', password, '--role', role],
    sharedServer().cliEnv,
  );
  expect(added.code, added.stderr).toBe(0);
  const userId = /\(([0-9a-f-]{36})\)/.exec(added.stdout)![1];
  return { userId, session: await dashboardSession(userId) };
}

/** Setup through the API, as the section does: a secret, then a right code; answers the recovery codes. */
async function turnOn(session: Record<string, string>): Promise<{ secret: string; codes: string[] }> {
  const setup = await post(`${ME}/setup`, {}, session);
  expect(setup.status, setup.text).toBe(200);
  const enabled = await post(`${ME}/enable`, { code: codeFor(setup.body.secret) }, session);
  expect(enabled.status, enabled.text).toBe(200);
  return { secret: setup.body.secret, codes: enabled.body.recovery_codes };
}

test('setup: a QR code and the secret, a wrong code refused (400 naming code), a right one answers 10 recovery codes once', async () => {
  const person = await member('Developer');
  expect((await get(ME, person.session)).body).toMatchObject({ is_enabled: false, recovery_codes_remaining: 0 });
  const setup = await post(`${ME}/setup`, {}, person.session);
  expect(setup.status).toBe(200);
  expect(setup.body.qr_code).toMatch(/^data:image\/svg\+xml;base64,/);
  expect(setup.body.otpauth_uri).toMatch(/^otpauth:\/\/totp\/Mailstead:/);
  const right = codeFor(setup.body.secret);
  const wrong = await post(`${ME}/enable`, { code: right === '123456' ? '654321' : '123456' }, person.session);
  expect(wrong.status).toBe(400);
  expect(wrong.body.message).toMatch(/^code: /);
  const malformed = await post(`${ME}/enable`, { code: 'abc' }, person.session);
  expect(malformed.status).toBe(400);
  expect(malformed.body.message).toMatch(/^code: must be the 6-digit code/);
  expect((await get(ME, person.session)).body.is_enabled).toBe(false);

  const enabled = await post(`${ME}/enable`, { code: right }, person.session);
  expect(enabled.status).toBe(200);
  expect(enabled.body.recovery_codes).toHaveLength(10);
  expect((await get(ME, person.session)).body).toMatchObject({ is_enabled: true, recovery_codes_remaining: 10 });
  // Once on, neither the secret nor the codes can be had again.
  expect((await post(`${ME}/setup`, {}, person.session)).status).toBe(409);
  expect((await post(`${ME}/enable`, { code: right }, person.session)).status).toBe(409);
});

test('new recovery codes need the password or an unused code; turning off needs the password', async () => {
  const person = await member('Developer', 'regenerate password');
  const { secret } = await turnOn(person.session);
  const refused = await post(`${ME}/recovery-codes`, { password: 'not it' }, person.session);
  expect(refused.status).toBe(403);
  expect(refused.body.message).toMatch(/^password: /);
  expect((await post(`${ME}/recovery-codes`, {}, person.session)).status).toBe(400);
  const byCode = await post(`${ME}/recovery-codes`, { code: codeFor(secret, 30) }, person.session);
  expect(byCode.status, byCode.text).toBe(200);
  expect(byCode.body.recovery_codes).toHaveLength(10);
  // The same code again: spent.
  expect((await post(`${ME}/recovery-codes`, { code: codeFor(secret, 30) }, person.session)).status).toBe(403);
  expect((await post(`${ME}/recovery-codes`, { password: 'regenerate password' }, person.session)).status).toBe(200);

  expect((await post(`${ME}/disable`, { password: 'not it' }, person.session)).status).toBe(403);
  const off = await post(`${ME}/disable`, { password: 'regenerate password' }, person.session);
  expect(off.status).toBe(200);
  expect((await get(ME, person.session)).body).toMatchObject({ is_enabled: false, recovery_codes_remaining: 0 });
});

test('CSRF: cookie-authenticated writes from another origin are refused (403)', async () => {
  const foreign = { ...ownerSession, origin: 'https://evil.example' };
  for (const [path, body] of [
    [`${ME}/setup`, {}],
    [`${ME}/enable`, { code: '123456' }],
    [`${ME}/disable`, { password: 'x' }],
    [`${ME}/recovery-codes`, { password: 'x' }],
  ] as const) {
    const response = await post(path, body, foreign);
    expect(response.status, path).toBe(403);
    expect(response.body.message).toBe('cross-origin request refused');
  }
  const rule = await put(requirement(), { require_two_factor: false }, foreign);
  expect(rule.status).toBe(403);
  expect(rule.body.message).toBe('cross-origin request refused');
  // Nor from a page of another site that the browser labels so.
  const crossSite = await post(`${ME}/setup`, {}, { cookie: ownerSession.cookie, 'sec-fetch-site': 'cross-site' });
  expect(crossSite.status).toBe(403);
});

test('two-factor settings are the person’s: an API key is refused', async () => {
  expect((await owner.api.get(ME)).status).toBe(401);
  expect((await owner.api.post(`${ME}/setup`, {})).status).toBe(401);
});

test('the account rule: Administrators only, not without 2FA of one’s own; then a member’s session is refused (403) except for setup, API keys are not', async () => {
  const analyst = await member('Analyst');
  const denied = await put(requirement(), { require_two_factor: true }, analyst.session);
  expect(denied.status).toBe(403);

  const withoutOwn = await put(requirement(), { require_two_factor: true }, ownerSession);
  expect(withoutOwn.status).toBe(409);
  expect(withoutOwn.body.message).toMatch(/set up two-factor sign-in for yourself first/);

  await turnOn(ownerSession);
  const on = await put(requirement(), { require_two_factor: true }, ownerSession);
  expect(on.status, on.text).toBe(200);
  expect((await get(requirement(), ownerSession)).body).toMatchObject({ require_two_factor: true });
  expect((await get(`/v2/accounts/${owner.accountId}`, ownerSession)).status).toBe(200);

  // The analyst has no second factor: every account path refuses the session, naming why.
  for (const path of [`/v2/accounts/${owner.accountId}`, `/v2/accounts/${owner.accountId}/domains`, requirement()]) {
    const refused = await get(path, analyst.session);
    expect(refused.status, path).toBe(403);
    expect(refused.body.message).toMatch(/requires two-factor sign-in/);
  }
  const status = await get(ME, analyst.session);
  expect(status.status).toBe(200);
  expect(status.body.required_by).toEqual([{ id: owner.accountId, name: 'Two-factor API' }]);
  expect((await owner.api.get(owner.api.account())).status).toBe(200);

  await turnOn(analyst.session);
  expect((await get(`/v2/accounts/${owner.accountId}`, analyst.session)).status).toBe(200);
  // Turning it off would lock them out: refused while the account requires it.
  const off = await post(`${ME}/disable`, { password: 'member password' }, analyst.session);
  expect(off.status).toBe(409);
  expect(off.body.message).toMatch(/requires two-factor sign-in/);

  expect((await put(requirement(), { require_two_factor: 'yes' }, ownerSession)).status).toBe(400);
  expect((await put(requirement(), { require_two_factor: false }, ownerSession)).status).toBe(200);
});
