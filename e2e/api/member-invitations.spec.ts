import { expect, test } from '@playwright/test';
import { OWNER_PASSWORD, uniqueEmail } from '../support/cli';
import { dashboardSession } from '../support/dashboard-session';
import type { ApiClient } from '../support/client';
import { newAccount } from '../support/shared';

/**
 * Invitations: POST members for an address with no user, pending invitations (`/member-invitations`,
 * extensions), and the anonymous invitation link endpoints. The shared server has no SYSTEM_SENDER,
 * so links come back in the answer; mailed invitations are in e2e/smtp/member-invitation.spec.ts.
 */
let api: ApiClient;
let accountId: string;

test.beforeAll(async () => {
  ({ api, accountId } = await newAccount('Members'));
});

const members = (suffix = '', client = api) => client.account(`/members${suffix}`);
const invitations = (suffix = '', client = api) => client.account(`/member-invitations${suffix}`);
const add = (body: Record<string, unknown>, client = api, headers?: Record<string, string>) =>
  client.post(members('', client), body, { headers });

const anonymous = () => api.with(null);
const tokenOf = (url: string) => new URL(url).pathname.split('/').at(-1)!;

test('POST /members - an address with no user gets an invitation: UserAccount shape, status invited, the link in the answer', async () => {
  const email = uniqueEmail('invitee');
  const added = await add({ email, name: 'Ada Invitee', role: 'Analyst' });
  expect(added.status).toBe(201);
  expect(added.body).toEqual({
    created_at: expect.any(String),
    updated_at: expect.any(String),
    user_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
    account_id: accountId,
    role: 'Analyst',
    email,
    name: 'Ada Invitee',
    is_owner: false,
    status: 'invited',
    invitation: {
      object: 'member_invitation',
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      account_id: accountId,
      user_id: added.body.user_id,
      email,
      name: 'Ada Invitee',
      role: 'Analyst',
      status: 'pending',
      expires_at: expect.any(String),
      last_sent_at: expect.any(String),
      created_at: expect.any(String),
      updated_at: expect.any(String),
      delivery: 'link',
      url: expect.stringMatching(/^https:\/\/127\.0\.0\.1:\d+\/invite\/[A-Za-z0-9]{43}$/),
    },
  });
  const expiresIn = Date.parse(added.body.invitation.expires_at) - Date.now();
  expect(expiresIn).toBeGreaterThan(6.9 * 24 * 3600 * 1000);
  expect(expiresIn).toBeLessThanOrEqual(7 * 24 * 3600 * 1000);

  // Not a member yet; listed as pending, without its link.
  expect((await api.get(members())).body.data.map((member: { email: string }) => member.email)).not.toContain(email);
  const pending = await api.get(invitations());
  expect(pending.status).toBe(200);
  const listed = pending.body.data.find((invitation: { email: string }) => invitation.email === email);
  expect(listed).toMatchObject({ id: added.body.invitation.id, status: 'pending', delivery: 'link' });
  expect(listed).not.toHaveProperty('url');

  const twice = await add({ email, role: 'Developer' });
  expect(twice.status).toBe(409);
  expect(twice.body.message).toMatch(/pending invitation/);

  // The link: who it is for, then used once.
  const token = tokenOf(added.body.invitation.url);
  const inspected = await anonymous().post('/internal/invitations/inspect', { token });
  expect(inspected.status).toBe(200);
  expect(inspected.body).toMatchObject({ email, role: 'Analyst', account_name: 'Members' });
  const accepted = await anonymous().post('/internal/invitations/accept', {
    token,
    password: 'a new password 1',
    name: 'Ada',
  });
  expect(accepted.status).toBe(200);
  expect(accepted.body).toEqual({ account_id: accountId, user_id: added.body.user_id, email });
  const member = (await api.get(members())).body.data.find((candidate: { email: string }) => candidate.email === email);
  expect(member).toMatchObject({ user_id: added.body.user_id, role: 'Analyst', name: 'Ada', status: 'active' });
  expect(
    (await api.get(invitations())).body.data.map((invitation: { email: string }) => invitation.email),
  ).not.toContain(email);

  const reused = await anonymous().post('/internal/invitations/accept', { token, password: 'another password 2' });
  expect(reused.status).toBe(409);
  expect(reused.body.message).toMatch(/already been used/);
  expect((await anonymous().post('/internal/invitations/inspect', { token })).status).toBe(409);
});

test('member-invitations - resend replaces the link (the old one is refused); revoke refuses it; DELETE /members/{user_id} of an invitation revokes it', async () => {
  const email = uniqueEmail('resend');
  const added = await add({ email, role: 'Developer' });
  const first = tokenOf(added.body.invitation.url);
  const resent = await api.post(invitations(`/${added.body.invitation.id}/resend`));
  expect(resent.status).toBe(200);
  expect(resent.body).toMatchObject({
    id: added.body.invitation.id,
    status: 'pending',
    delivery: 'link',
    url: expect.stringContaining('/invite/'),
  });
  const second = tokenOf(resent.body.url);
  expect(second).not.toBe(first);
  const old = await anonymous().post('/internal/invitations/inspect', { token: first });
  expect(old.status).toBe(404);
  expect(old.body.message).toMatch(/not valid/);
  expect((await anonymous().post('/internal/invitations/inspect', { token: second })).status).toBe(200);

  const revoked = await api.delete(invitations(`/${added.body.invitation.id}`));
  expect(revoked.status).toBe(200);
  expect(
    (await anonymous().post('/internal/invitations/accept', { token: second, password: 'a new password 1' })).status,
  ).toBe(404);
  expect((await api.delete(invitations(`/${added.body.invitation.id}`))).status).toBe(404);
  expect((await api.post(invitations(`/${added.body.invitation.id}/resend`))).status).toBe(404);

  // Revoked: the address may be invited again.
  const again = await add({ email, role: 'Analyst' });
  expect(again.status).toBe(201);
  const viaMembers = await api.delete(members(`/${again.body.user_id}`));
  expect(viaMembers.status).toBe(200);
  expect(viaMembers.body.message).toMatch(/invitation .* revoked/);
  expect(
    (await anonymous().post('/internal/invitations/inspect', { token: tokenOf(again.body.invitation.url) })).status,
  ).toBe(404);
});

test("accepting for an address that became a proven user meanwhile needs that user's password, and never replaces it", async () => {
  // Invited here while unknown; then the operator makes the address the owner of another account.
  const email = uniqueEmail('race');
  const first = await add({ email, role: 'Analyst' });
  const elsewhere = await newAccount('Members elsewhere', email);
  const token = tokenOf(first.body.invitation.url);
  const wrong = await anonymous().post('/internal/invitations/accept', { token, password: 'some other password' });
  expect(wrong.status).toBe(403);
  expect(wrong.body.message).toMatch(/already has a Mailstead user/);
  const right = await anonymous().post('/internal/invitations/accept', { token, password: OWNER_PASSWORD });
  expect(right.status).toBe(200);
  expect(right.body.user_id).toBe(elsewhere.ownerId);
});

test("a user made from a link handed to the inviter (not mailed) is not added at once elsewhere: another account's POST invites them instead", async () => {
  // With no SYSTEM_SENDER the inviter holds the link, so whoever accepts it proved nothing about the address.
  const email = uniqueEmail('unproven');
  const invited = await add({ email, role: 'Analyst' });
  expect(invited.body.invitation.delivery).toBe('link');
  expect(
    (
      await anonymous().post('/internal/invitations/accept', {
        token: tokenOf(invited.body.invitation.url),
        password: 'made up password 1',
      })
    ).status,
  ).toBe(200);
  const elsewhere = await newAccount('Members unproven');
  const added = await add({ email, role: 'Administrator' }, elsewhere.api);
  expect(added.status).toBe(201);
  expect(added.body.status).toBe('invited');
  expect(
    (await elsewhere.api.get(members('', elsewhere.api))).body.data.map((member: { email: string }) => member.email),
  ).not.toContain(email);
  // Nor twice to its own account: it is a member there already.
  const twice = await add({ email, role: 'Developer' });
  expect(twice.status).toBe(409);
  expect(twice.body.message).toMatch(/already a member/);
});

test("an inviter who accepts their own link for someone's address neither blocks nor enters that person's invitation from another account", async () => {
  // The attack: account A invites victim@, takes the handed link and sets a password of its own.
  const email = uniqueEmail('victim');
  const attacker = await newAccount('Members attacker');
  const bait = await add({ email, role: 'Administrator' }, attacker.api);
  const made = await anonymous().post('/internal/invitations/accept', {
    token: tokenOf(bait.body.invitation.url),
    password: 'attacker password 1',
  });
  expect(made.status).toBe(200);

  // Account B invites the real person; the person opens B's link and chooses their own password.
  const team = await newAccount('Members team');
  const invited = await add({ email, role: 'Developer' }, team.api);
  expect(invited.body.status).toBe('invited');
  const accepted = await anonymous().post('/internal/invitations/accept', {
    token: tokenOf(invited.body.invitation.url),
    password: 'the real password 2',
    name: 'Real Person',
  });
  expect(accepted.status).toBe(200);
  expect(accepted.body).toEqual({ account_id: team.accountId, user_id: invited.body.user_id, email });
  expect(accepted.body.user_id).not.toBe(made.body.user_id);

  // B's member is the person's own user; the attacker's user stays in A and cannot open B.
  const teamMembers = (await team.api.get(members('', team.api))).body.data.filter(
    (member: { email: string }) => member.email === email,
  );
  expect(teamMembers).toEqual([
    expect.objectContaining({
      user_id: accepted.body.user_id,
      role: 'Developer',
      name: 'Real Person',
      status: 'active',
    }),
  ]);
  const attackerSession = await dashboardSession(made.body.user_id);
  expect(
    (await team.api.request('GET', members('', team.api), { apiKey: null, headers: attackerSession })).status,
  ).toBe(401);
  expect(
    (await attacker.api.request('GET', members('', attacker.api), { apiKey: null, headers: attackerSession })).status,
  ).toBe(200);
  const personSession = await dashboardSession(accepted.body.user_id);
  expect((await team.api.request('GET', members('', team.api), { apiKey: null, headers: personSession })).status).toBe(
    200,
  );
  expect(
    (await attacker.api.request('GET', members('', attacker.api), { apiKey: null, headers: personSession })).status,
  ).toBe(401);
});

test('invitation links: malformed and unknown tokens are refused without detail', async () => {
  for (const token of ['', 'short', 'x'.repeat(43) + '/', '../../etc/passwd'.padEnd(43, 'a'), 12345]) {
    const response = await anonymous().post('/internal/invitations/inspect', { token });
    expect(response.status, JSON.stringify(token)).toBe(400);
  }
  const unknown = await anonymous().post('/internal/invitations/accept', {
    token: 'A'.repeat(43),
    password: 'a new password 1',
  });
  expect(unknown.status).toBe(404);
  const weak = await anonymous().post('/internal/invitations/accept', { token: 'A'.repeat(43), password: 'short' });
  expect(weak.status).toBe(400);
  expect(weak.body.message).toMatch(/password/);
});
