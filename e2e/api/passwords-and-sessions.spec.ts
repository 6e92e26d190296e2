import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { encode } from 'next-auth/jwt';
import { SecretBox } from '../../lib/shared/crypto';
import { createAccountWithKey, OWNER_PASSWORD, runCli, uniqueEmail } from '../support/cli';
import { ApiClient } from '../support/client';
import { sessionCookieOf } from '../support/dashboard-session';
import { ownServer } from '../support/own-server';
import type { ServerHandle } from '../support/server';

/**
 * Passwords and sessions from outside the browser, on a server of its own that trusts the test as a
 * proxy, so that X-Forwarded-For names a client address per test and the limits counted per address
 * start fresh: the operator's reset link, the reset endpoints' single use, the same-origin rule on
 * every new endpoint, and the limits on reset requests and password changes.
 */
// Of this run: counters kept in Redis (PostgreSQL run) outlive a run, and are namespaced by the key.
const SECRET = `passwords-and-sessions-${Date.now()}`.padEnd(40, '0');
const server = ownServer({ TRUST_PROXY: '127.0.0.1/32' }, SECRET);
const LINK = /https:\/\/127\.0\.0\.1:\d+\/reset-password\/([A-Za-z0-9_-]{43})/;
const EVIL = { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' };

let client: ApiClient;
let addressCounter = 0;
/** A client address of this test's own, so that its counters start fresh. */
const newAddress = () => `198.51.100.${++addressCounter}`;

test.beforeAll(() => {
  client = new ApiClient(server().baseUrl, server().dataDir);
});

const sameOrigin = (address: string) => ({ origin: new URL(server().baseUrl).origin, 'x-forwarded-for': address });

/** A session cookie minted the way next-auth mints it, with the server's own key (no dashboard build here). */
function sessionCookie(handle: ServerHandle, userId: string): Promise<string> {
  const { baseUrl, dataDir, env } = handle;
  return sessionCookieOf(
    { baseUrl, dataDir, secret: env.DATABASE_URL ? SECRET : undefined, databaseUrl: env.DATABASE_URL },
    userId,
  );
}

/** The same cookie without the session id cookies carried before session rows: it could not be ended alone. */
async function cookieWithoutSessionId(handle: ServerHandle, userId: string): Promise<string> {
  const masterKey = handle.env.DATABASE_URL
    ? Buffer.from(SECRET, 'utf8')
    : Buffer.from(readFileSync(path.join(handle.dataDir, 'master.key'), 'utf8').trim(), 'base64');
  const secret = new SecretBox(masterKey).deriveKey('dashboard-session').toString('base64url');
  return `__Secure-next-auth.session-token=${await encode({ token: { userId, sessionVersion: 0 }, secret })}`;
}

async function person(name: string) {
  const email = uniqueEmail(name);
  const created = await createAccountWithKey(server().env, `Passwords ${name}`, email);
  return { ...created, email };
}

async function resetLink(email: string): Promise<string> {
  const made = await runCli(['users', 'reset-password', email], server().env);
  expect(made.code, made.stderr).toBe(0);
  return LINK.exec(made.stdout)![1];
}

const complete = (token: string, password: string, headers = sameOrigin(newAddress())) =>
  client.post('/internal/password-resets/complete', { token, password }, { headers });

test('users reset-password - prints a link for the address in any case; an unknown one is exit 1, none is a usage error', async () => {
  const { email } = await person('cli');
  const made = await runCli(['users', 'reset-password', email.toUpperCase()], server().env);
  expect(made.code, made.stderr).toBe(0);
  expect(made.stdout).toMatch(new RegExp(`^reset link for ${email}, works once until \\S+:\\n${LINK.source}\\n$`));

  const unknown = await runCli(['users', 'reset-password', `nobody-${email}`], server().env);
  expect(unknown.code).toBe(1);
  expect(unknown.stderr).toContain(`no user has the email nobody-${email}`);
  const missing = await runCli(['users', 'reset-password'], server().env);
  expect(missing.code).toBe(2);
  expect(missing.stderr).toContain('users reset-password EMAIL');
});

test('POST /internal/password-resets/complete - a link works once (then 409), an unknown one is 404, and only its own user changes', async () => {
  const ada = await person('ada');
  const bob = await person('bob');
  const token = await resetLink(ada.email);
  const inspected = await client.post(
    '/internal/password-resets/inspect',
    { token },
    { headers: sameOrigin(newAddress()) },
  );
  expect(inspected.status, inspected.text).toBe(200);
  expect(inspected.body).toMatchObject({ email: ada.email });

  const done = await complete(token, 'ada new password');
  expect(done.status, done.text).toBe(200);
  expect(done.body).toMatchObject({ email: ada.email });
  const reused = await complete(token, 'someone else again');
  expect(reused.status).toBe(409);
  expect(reused.body.message).toMatch(/already been used/);
  const unknown = await complete('A'.repeat(43), 'whatever password');
  expect(unknown.status).toBe(404);
  const malformed = await complete('short', 'whatever password');
  expect(malformed.status).toBe(400);
  expect(malformed.body.message).toMatch(/token/);

  // Ada's link did not reach Bob: his old password is still the one that lets him change it.
  const bobCookie = await sessionCookie(server(), bob.ownerId);
  const bobCheck = await client.post(
    '/internal/me/password',
    { current_password: OWNER_PASSWORD, new_password: 'bob changed it' },
    { headers: { cookie: bobCookie, ...sameOrigin(newAddress()) } },
  );
  expect(bobCheck.status, bobCheck.text).toBe(200);
});

test('a session cookie without a session id is refused (401, sign in again), though its signature and version are right', async () => {
  const owner = await person('no-sid');
  const headers = (cookie: string) => ({ cookie, ...sameOrigin(newAddress()) });
  const current = await client.get('/internal/me', { headers: headers(await sessionCookie(server(), owner.ownerId)) });
  expect(current.status, current.text).toBe(200);
  const old = await client.get('/internal/me', {
    headers: headers(await cookieWithoutSessionId(server(), owner.ownerId)),
  });
  expect(old.status).toBe(401);
  expect(old.body.message).toMatch(/sign in again/);
});

test('every new endpoint refuses a cross-origin POST (403) and changes nothing', async () => {
  const owner = await person('csrf');
  const member = await person('csrf-member');
  const cookie = await sessionCookie(server(), owner.ownerId);
  const token = await resetLink(owner.email);
  const cases: [string, string, unknown, Record<string, string>][] = [
    ['POST', '/internal/password-resets', { email: owner.email }, {}],
    ['POST', '/internal/password-resets/inspect', { token }, {}],
    ['POST', '/internal/password-resets/complete', { token, password: 'forged password' }, {}],
    [
      'POST',
      '/internal/me/password',
      { current_password: OWNER_PASSWORD, new_password: 'forged password' },
      { cookie },
    ],
    ['POST', '/internal/me/sessions/end-others', {}, { cookie }],
    ['DELETE', `/internal/me/sessions/${member.ownerId}`, undefined, { cookie }],
    ['POST', `/internal/accounts/${owner.accountId}/members/${member.ownerId}/end-sessions`, {}, { cookie }],
  ];
  for (const [method, url, body, headers] of cases) {
    for (const origin of [EVIL, {}]) {
      const refused = await client.request(method, url, { body, headers: { ...headers, ...origin } });
      expect(refused.status, `${method} ${url} ${JSON.stringify(origin)}`).toBe(403);
      expect(refused.body).toEqual({ message: 'cross-origin request refused' });
    }
  }
  // The link is unspent and the password unchanged.
  expect((await complete(token, 'the real new one')).status).toBe(200);
});

test('session endpoints need a session: 401 without one', async () => {
  for (const [method, url] of [
    ['GET', '/internal/me/sessions'],
    ['POST', '/internal/me/sessions/end-others'],
    ['POST', '/internal/me/password'],
  ]) {
    const refused = await client.request(method, url, {
      body: method === 'GET' ? undefined : {},
      headers: sameOrigin(newAddress()),
    });
    expect(refused.status, url).toBe(401);
  }
});

test('POST /internal/password-resets - the same 202 for a user and a stranger; without SYSTEM_SENDER it names the operator command', async () => {
  const { email } = await person('same-answer');
  const known = await client.post('/internal/password-resets', { email }, { headers: sameOrigin(newAddress()) });
  const unknown = await client.post(
    '/internal/password-resets',
    { email: `stranger-${email}` },
    { headers: sameOrigin(newAddress()) },
  );
  expect(known.status).toBe(202);
  expect(unknown.status).toBe(202);
  expect(known.body).toEqual(unknown.body);
  expect(known.body).toMatchObject({ delivery: 'operator' });
  expect(known.body.message).toContain('npx mailstead users reset-password EMAIL');
});

test('POST /internal/password-resets - limited per address and per email: the eleventh is 429 with Retry-After', async () => {
  const address = newAddress();
  for (let i = 0; i < 10; i++) {
    const asked = await client.post(
      '/internal/password-resets',
      { email: `a${i}@example.com` },
      { headers: sameOrigin(address) },
    );
    expect(asked.status).toBe(202);
  }
  const limited = await client.post(
    '/internal/password-resets',
    { email: 'b@example.com' },
    { headers: sameOrigin(address) },
  );
  expect(limited.status).toBe(429);
  expect(limited.headers.get('retry-after')).toBe('90');
  // Another address still gets through; one email asked for from many addresses does not.
  expect(
    (await client.post('/internal/password-resets', { email: 'b@example.com' }, { headers: sameOrigin(newAddress()) }))
      .status,
  ).toBe(202);
  const target = `Target-${Date.now()}@Example.com`;
  for (let i = 0; i < 10; i++)
    await client.post(
      '/internal/password-resets',
      { email: i % 2 ? target : target.toLowerCase() },
      { headers: sameOrigin(newAddress()) },
    );
  const byEmail = await client.post(
    '/internal/password-resets',
    { email: target },
    { headers: sameOrigin(newAddress()) },
  );
  expect(byEmail.status).toBe(429);
});

test('POST /internal/me/password - a wrong current password is 400 naming it; ten wrong ones and the right one is 429', async () => {
  const { ownerId } = await person('change-limit');
  const headers = { cookie: await sessionCookie(server(), ownerId), ...sameOrigin(newAddress()) };
  const change = (current: string) =>
    client.post('/internal/me/password', { current_password: current, new_password: 'the new password' }, { headers });
  const short = await client.post(
    '/internal/me/password',
    { current_password: OWNER_PASSWORD, new_password: 'short' },
    { headers },
  );
  expect(short.status).toBe(400);
  expect(short.body.message).toMatch(/^new_password: must be at least 10 characters/);
  for (let i = 0; i < 10; i++) {
    const wrong = await change(`wrong guess ${i}`);
    expect(wrong.status).toBe(400);
    expect(wrong.body.message).toBe('current_password: is not your current password');
  }
  const limited = await change(OWNER_PASSWORD);
  expect(limited.status).toBe(429);
});

test('POST /internal/accounts/{account_id}/members/{user_id}/end-sessions - never the owner nor yourself; a Developer is 403; a stranger 404', async () => {
  const owner = await person('admin-end');
  const developerEmail = uniqueEmail('developer');
  const added = await runCli(
    [
      'accounts',
      'add-member',
      owner.accountId,
      '--email',
      developerEmail,
      '--password',
      'developer password',
      '--role',
      'Developer',
    ],
    server().env,
  );
  expect(added.code, added.stderr).toBe(0);
  const developerId = /\(([0-9a-f-]{36})\)/.exec(added.stdout)![1];
  const ownerHeaders = { cookie: await sessionCookie(server(), owner.ownerId), ...sameOrigin(newAddress()) };
  const developerHeaders = { cookie: await sessionCookie(server(), developerId), ...sameOrigin(newAddress()) };
  const end = (userId: string, headers: Record<string, string>) =>
    client.post(`/internal/accounts/${owner.accountId}/members/${userId}/end-sessions`, {}, { headers });

  expect((await end(owner.ownerId, developerHeaders)).status).toBe(403);
  expect((await end(owner.ownerId, ownerHeaders)).status).toBe(400);
  const stranger = await person('stranger');
  expect((await end(stranger.ownerId, ownerHeaders)).status).toBe(404);
  const ended = await end(developerId, ownerHeaders);
  expect(ended.status, ended.text).toBe(200);
  // Every session of the developer ended, the cookie made before included.
  expect((await client.get('/internal/me', { headers: developerHeaders })).status).toBe(401);
});
