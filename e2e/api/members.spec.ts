import { randomUUID } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { addMemberSchema } from '../../lib/core/members/schemas';
import { badInputCases } from '../support/bad-input';
import { uniqueEmail } from '../support/cli';
import type { ApiClient } from '../support/client';
import { dashboardSession } from '../support/dashboard-session';
import { newAccount } from '../support/shared';

/**
 * Account members (`/v2/accounts/{id}/members`): list, add (an existing user at once, an unknown
 * address by invitation), change role (Mailstead extension), remove; scopes, tenancy, bad
 * input, idempotency. Invitations and their links are in member-invitations.spec.ts.
 */
let api: ApiClient;
let accountId: string;
let ownerId: string;

test.beforeAll(async () => {
  ({ api, accountId, ownerId } = await newAccount('Members'));
});

const members = (suffix = '', client = api) => client.account(`/members${suffix}`);
const invitations = (suffix = '', client = api) => client.account(`/member-invitations${suffix}`);
const add = (body: Record<string, unknown>, client = api, headers?: Record<string, string>) =>
  client.post(members('', client), body, { headers });

/** A person who already has a Mailstead user: the owner of another account. */
async function existingUser() {
  const other = await newAccount('Members other');
  return { email: other.ownerEmail, userId: other.ownerId, account: other };
}

async function keyWith(scopes: string[]): Promise<ApiClient> {
  const created = await api.post(api.account('/api-keys'), { label: `holder of ${scopes.join(' ')}`, scopes });
  expect(created.status).toBe(201);
  return api.with(created.body.secret_key);
}

test('GET /members - the owner alone at first, as a UserAccount with no object field and no pagination', async () => {
  const listed = await api.get(members());
  expect(listed.status).toBe(200);
  expect(listed.body).toEqual({
    object: 'list',
    data: [
      {
        created_at: expect.any(String),
        updated_at: expect.any(String),
        user_id: ownerId,
        account_id: accountId,
        role: 'Administrator',
        email: expect.stringContaining('@'),
        name: null,
        is_owner: true,
        status: 'active',
      },
    ],
  });
});

test('POST /members - an existing user becomes a member at once (201); again is 409; PUT changes the role; DELETE removes', async () => {
  const person = await existingUser();
  const added = await add({ email: person.email.toUpperCase(), name: 'Not their name', role: 'Developer' });
  expect(added.status).toBe(201);
  expect(added.body).toMatchObject({
    user_id: person.userId,
    account_id: accountId,
    role: 'Developer',
    email: person.email,
    is_owner: false,
    status: 'active',
  });
  expect(added.body).not.toHaveProperty('object');
  // Users are global: another account's add does not rename them.
  expect(added.body.name).toBeNull();

  const again = await add({ email: person.email, role: 'Analyst' });
  expect(again.status).toBe(409);
  expect(again.body.message).toMatch(/already a member/);
  expect(again.headers.get('idempotent-replayed')).toBeNull();

  const listed = await api.get(members());
  expect(listed.body.data.map((member: { user_id: string }) => member.user_id)).toEqual([ownerId, person.userId]);

  const changed = await api.put(members(`/${person.userId}`), { role: 'Analyst' });
  expect(changed.status).toBe(200);
  expect(changed.body).toMatchObject({ user_id: person.userId, role: 'Analyst' });
  expect((await api.get(members())).body.data[1].role).toBe('Analyst');

  const removed = await api.delete(members(`/${person.userId}`));
  expect(removed.status).toBe(200);
  expect(removed.body.message).toMatch(/removed/);
  expect((await api.delete(members(`/${person.userId}`))).status).toBe(404);
  expect((await api.put(members(`/${person.userId}`), { role: 'Developer' })).status).toBe(404);
  // Their own account is untouched.
  expect((await person.account.api.get(person.account.api.account('/members'))).body.data).toHaveLength(1);
});

test('the owner cannot be removed (403) nor have their role changed (403); a member cannot remove or re-role themselves (400)', async () => {
  const ownerRemoval = await api.delete(members(`/${ownerId}`));
  expect(ownerRemoval.status).toBe(403);
  expect(ownerRemoval.body.message).toBe('the account owner cannot be removed');
  const ownerRole = await api.put(members(`/${ownerId}`), { role: 'Developer' });
  expect(ownerRole.status).toBe(403);
  expect(ownerRole.body.message).toMatch(/owner/);

  // An Administrator who is not the owner, acting through their dashboard session.
  const person = await existingUser();
  expect((await add({ email: person.email, role: 'Administrator' })).status).toBe(201);
  const session = await dashboardSession(person.userId);
  const self = await api.request('DELETE', members(`/${person.userId}`), { apiKey: null, headers: session });
  expect(self.status).toBe(400);
  expect(self.body.message).toBe('you cannot remove yourself from the account');
  const selfRole = await api.request('PUT', members(`/${person.userId}`), {
    apiKey: null,
    headers: session,
    body: { role: 'Analyst' },
  });
  expect(selfRole.status).toBe(400);
  // The same session may remove the owner? No: the owner rule holds for everyone.
  expect((await api.request('DELETE', members(`/${ownerId}`), { apiKey: null, headers: session })).status).toBe(403);
  expect((await api.delete(members(`/${person.userId}`))).status).toBe(200);
  // Removal takes effect at once: the session no longer reaches the account.
  expect((await api.request('GET', members(), { apiKey: null, headers: session })).status).toBe(401);
});

test('scopes - a key without accounts:members:* is 403 on every endpoint; each scope opens only its own', async () => {
  const none = await keyWith(['accounts:read']);
  const someone = randomUUID();
  for (const [method, path, body] of [
    ['GET', members('', none)],
    ['POST', members('', none), { email: uniqueEmail(), role: 'Analyst' }],
    ['PUT', members(`/${someone}`, none), { role: 'Analyst' }],
    ['DELETE', members(`/${someone}`, none)],
    ['GET', invitations('', none)],
    ['POST', invitations(`/${someone}/resend`, none)],
    ['DELETE', invitations(`/${someone}`, none)],
  ] as const) {
    const response = await none.request(method, path, { body });
    expect(response.status, `${method} ${path}`).toBe(403);
    expect(response.body.message).toMatch(/accounts:members:/);
  }
  const reader = await keyWith(['accounts:members:read']);
  expect((await reader.get(members('', reader))).status).toBe(200);
  expect((await add({ email: uniqueEmail(), role: 'Analyst' }, reader)).status).toBe(403);
  expect((await reader.put(members(`/${ownerId}`, reader), { role: 'Analyst' })).status).toBe(403);
});

test('scopes - accounts:members:add alone cannot hand out a role stronger than the key (no Administrator from a narrow key)', async () => {
  const adder = await keyWith(['accounts:members:add', 'accounts:read', 'accounts:members:read']);
  const refused = await add({ email: uniqueEmail('escalate'), role: 'Administrator' }, adder);
  expect(refused.status).toBe(403);
  expect(refused.body.message).toMatch(/role Administrator holds scopes you do not/);
  const developer = await add({ email: uniqueEmail('escalate'), role: 'Developer' }, adder);
  expect(developer.status).toBe(403);
  // Billing Manager needs scopes this key lacks too; a key holding them all may grant it.
  const billing = await keyWith([
    'accounts:members:add',
    'accounts:read',
    'accounts:billing',
    'accounts:members:read',
    'statistics-transactional:read:all',
    'sub-accounts:usage',
  ]);
  expect((await add({ email: uniqueEmail('billing'), role: 'Billing Manager' }, billing)).status).toBe(201);
  // Nor may a narrow key re-role or remove a member whose role is stronger than it.
  const person = await existingUser();
  expect((await add({ email: person.email, role: 'Developer' })).status).toBe(201);
  const updater = await keyWith([
    'accounts:members:update',
    'accounts:members:remove',
    ...['accounts:read', 'accounts:members:read'],
  ]);
  expect((await updater.put(members(`/${person.userId}`, updater), { role: 'Analyst' })).status).toBe(403);
  expect((await updater.delete(members(`/${person.userId}`, updater))).status).toBe(403);
  expect((await api.delete(members(`/${person.userId}`))).status).toBe(200);
});

test("tenancy - another account's members and invitations are 404 here, and its list is not ours", async () => {
  const other = await newAccount('Members tenancy');
  const invited = await add({ email: uniqueEmail('tenant'), role: 'Analyst' }, other.api);
  expect(invited.status).toBe(201);
  expect((await api.delete(members(`/${other.ownerId}`))).status).toBe(404);
  expect((await api.put(members(`/${other.ownerId}`), { role: 'Analyst' })).status).toBe(404);
  expect((await api.delete(members(`/${invited.body.user_id}`))).status).toBe(404);
  expect((await api.delete(invitations(`/${invited.body.invitation.id}`))).status).toBe(404);
  expect((await api.post(invitations(`/${invited.body.invitation.id}/resend`))).status).toBe(404);
  expect((await api.get(invitations())).body.data.map((invitation: { id: string }) => invitation.id)).not.toContain(
    invited.body.invitation.id,
  );
  // Our key on their path is refused before anything else.
  expect((await api.get(`/v2/accounts/${other.accountId}/members`)).status).toBe(401);
  expect((await other.api.get(other.api.account('/member-invitations'))).body.data).toHaveLength(1);
});

const validBody = { email: 'valid@example.com', name: 'Valid Name', role: 'Analyst' };

for (const { name, body, field } of [
  ...badInputCases(addMemberSchema, validBody),
  { name: 'role not one of the four', body: { ...validBody, role: 'Owner' }, field: 'role' },
  { name: 'role in lower case', body: { ...validBody, role: 'developer' }, field: 'role' },
  { name: 'email not an address', body: { ...validBody, email: 'not-an-email' }, field: 'email' },
  {
    name: 'email with a header injection',
    body: { ...validBody, email: 'a@example.com\r\nBcc: victim@example.com' },
    field: 'email',
  },
  { name: 'email with a display name', body: { ...validBody, email: 'Evil <evil@example.com>' }, field: 'email' },
  {
    name: 'name with a line break',
    body: { ...validBody, email: 'x@example.com', name: 'Ada\r\nBcc: victim@example.com' },
    field: 'name',
  },
  { name: 'name with a NUL', body: { ...validBody, email: 'x@example.com', name: 'Ada\u0000' }, field: 'name' },
]) {
  test(`POST /members - bad input: ${name} is 400 naming the field`, async () => {
    const response = await add(body);
    expect(response.status).toBe(400);
    expect(response.body.message).toContain(field);
  });
}

for (const [name, body] of [
  ['role missing', {}],
  ['role not one of the four', { role: 'Root' }],
  ['role of the wrong type', { role: 7 }],
] as const) {
  test(`PUT /members/{user_id} - bad input: ${name} is 400`, async () => {
    const response = await api.put(members(`/${ownerId}`), body);
    expect(response.status).toBe(400);
    expect(response.body.message).toContain('role');
  });
}

test('unknown and malformed ids - 404 for unknown, 400 for malformed', async () => {
  expect((await api.delete(members(`/${randomUUID()}`))).status).toBe(404);
  expect((await api.put(members(`/${randomUUID()}`), { role: 'Analyst' })).status).toBe(404);
  expect((await api.delete(invitations(`/${randomUUID()}`))).status).toBe(404);
  for (const id of ['not-a-uuid', '1', "'; drop table users; --"]) {
    expect((await api.delete(members(`/${encodeURIComponent(id)}`))).status, id).toBe(400);
    expect((await api.put(members(`/${encodeURIComponent(id)}`), { role: 'Analyst' })).status, id).toBe(400);
    expect((await api.post(invitations(`/${encodeURIComponent(id)}/resend`))).status, id).toBe(400);
  }
});

test('hostile values - names and addresses are stored and returned as written, never interpreted', async () => {
  for (const name of [
    '<script>alert(1)</script>',
    '{{ account.secret }}',
    "Robert'); DROP TABLE users;--",
    '𝓤𝓷𝓲𝓬𝓸𝓭𝓮 名前 👋',
    '   padded   ',
  ]) {
    const email = uniqueEmail('hostile');
    const added = await add({ email, name, role: 'Analyst' });
    expect(added.status, name).toBe(201);
    expect(added.body.name).toBe(name.trim());
    expect(added.body.invitation.name).toBe(name.trim());
  }
  const quoted = await add({ email: `"o'brien+tag"-${Date.now()}@example.com`.replace(/"/g, ''), role: 'Analyst' });
  expect(quoted.status).toBe(201);
  const listed = await api.get(invitations());
  expect(listed.body.data.map((invitation: { name: string | null }) => invitation.name)).toContain(
    '<script>alert(1)</script>',
  );
});

test('idempotency - parallel POSTs with one Idempotency-Key make one member; a replay says so; another body is 422', async () => {
  const person = await existingUser();
  const key = `members-${randomUUID()}`;
  const body = { email: person.email, role: 'Analyst' };
  const answers = await Promise.all(Array.from({ length: 5 }, () => add(body, api, { 'Idempotency-Key': key })));
  // One ran; the others either found it running (409 with the in-progress pair) or replayed it.
  const fresh = answers.filter((answer) => answer.status === 201 && answer.headers.get('idempotent-replayed') === null);
  expect(fresh).toHaveLength(1);
  for (const answer of answers.filter((candidate) => candidate !== fresh[0])) {
    if (answer.status === 409) expect(answer.headers.get('idempotent-replayed')).toBe('false');
    else
      expect([answer.status, answer.headers.get('idempotent-replayed'), answer.body]).toEqual([
        201,
        'true',
        fresh[0].body,
      ]);
  }
  const created = fresh;
  const replay = await add(body, api, { 'Idempotency-Key': key });
  expect(replay.status).toBe(201);
  expect(replay.headers.get('idempotent-replayed')).toBe('true');
  expect(replay.body).toEqual(created[0].body);
  expect((await add({ ...body, role: 'Developer' }, api, { 'Idempotency-Key': key })).status).toBe(422);
  const listed = await api.get(members());
  expect(listed.body.data.filter((member: { user_id: string }) => member.user_id === person.userId)).toHaveLength(1);

  // An invitation replays with its link (stored encrypted), to the same key only.
  const inviteKey = `invite-${randomUUID()}`;
  const inviteBody = { email: uniqueEmail('idem'), role: 'Analyst' };
  const invited = await add(inviteBody, api, { 'Idempotency-Key': inviteKey });
  const invitedAgain = await add(inviteBody, api, { 'Idempotency-Key': inviteKey });
  expect(invitedAgain.headers.get('idempotent-replayed')).toBe('true');
  expect(invitedAgain.body).toEqual(invited.body);
  expect(
    (await api.get(invitations())).body.data.filter(
      (invitation: { email: string }) => invitation.email === inviteBody.email,
    ),
  ).toHaveLength(1);
});

test('OpenAPI document - the change-role and invitation operations are marked as Mailstead extensions', async () => {
  const document = await api.get('/v2/openapi.json', { apiKey: null });
  const paths = document.body.paths;
  expect(paths['/v2/accounts/{account_id}/members/{user_id}'].put['x-mailstead-extension']).toBe(true);
  expect(paths['/v2/accounts/{account_id}/members/{user_id}'].delete['x-mailstead-extension']).toBeUndefined();
  expect(paths['/v2/accounts/{account_id}/member-invitations'].get['x-mailstead-extension']).toBe(true);
  expect(paths['/v2/accounts/{account_id}/members'].post.security).toEqual([{ BearerAuth: ['accounts:members:add'] }]);
});
