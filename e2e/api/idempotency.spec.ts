import { expect, test } from '@playwright/test';
import type { ApiClient } from '../support/client';
import { verifiedDomain } from '../support/sending';
import { newAccount } from '../support/shared';

let api: ApiClient;
let sender: string;
let otherDomain: string;
const stamp = Date.now().toString(36);

test.beforeAll(async () => {
  ({ api } = await newAccount('Idempotency'));
  sender = `idem-${stamp}.example.com`;
  otherDomain = `idem-other-${stamp}.example.com`;
  await verifiedDomain(api, sender);
  await verifiedDomain(api, otherDomain);
});

const keyPath = () => api.account('/api-keys');
const withKey = (key: string) => ({ headers: { 'Idempotency-Key': key } });
let counter = 0;
const freshKey = () => `test-${Date.now()}-${counter++}`;

/** A client with a new key of this account holding `scopes`. */
async function keyWith(scopes: string[]): Promise<ApiClient> {
  const created = await api.post(keyPath(), { label: `holder of ${scopes.join(' ')}`, scopes });
  expect(created.status).toBe(201);
  return api.with(created.body.secret_key);
}

const sendBody = () => ({
  from: { email: `news@${sender}` },
  recipients: [{ email: 'r@example.org' }],
  subject: 'S',
  text_content: 'T',
  sandbox: true,
});

function expectInProgress(response: { status: number; headers: Headers; body: unknown }) {
  expect(response.status).toBe(409);
  expect(response.body).toEqual({ message: 'A request with this idempotency key is already in progress' });
  expect(response.headers.get('idempotent-replayed')).toBe('false');
  // The lease is 5 minutes, but a live request ends in a second or two: that is how long to wait.
  expect(['1', '2']).toContain(response.headers.get('retry-after'));
}

async function countKeysLabelled(label: string): Promise<number> {
  const listed = await api.get(api.account('/api-keys?limit=100'));
  return listed.body.data.filter((key: { label: string }) => key.label === label).length;
}

test('a fresh execution carries no Idempotent-Replayed header; a replay carries true and the same secret', async () => {
  const key = freshKey();
  const body = { label: 'idem-replay', scopes: ['domains:read'] };
  const first = await api.post(keyPath(), body, withKey(key));
  expect(first.status).toBe(201);
  expect(first.headers.get('idempotent-replayed')).toBeNull();
  const replay = await api.post(keyPath(), body, withKey(key));
  expect(replay.status).toBe(201);
  expect(replay.headers.get('idempotent-replayed')).toBe('true');
  expect(replay.body).toEqual(first.body);
  expect(replay.body.secret_key).toBe(first.body.secret_key);
  expect(await countKeysLabelled('idem-replay')).toBe(1);
});

test('the same key with a different body, path or method is 422 without idempotency headers', async () => {
  const key = freshKey();
  await api.post(keyPath(), { label: 'idem-a', scopes: ['domains:read'] }, withKey(key));
  const otherBody = await api.post(keyPath(), { label: 'idem-b', scopes: ['domains:read'] }, withKey(key));
  expect(otherBody.status).toBe(422);
  expect(otherBody.body).toEqual({ message: 'idempotency key was already used with a different request payload' });
  expect(otherBody.headers.get('idempotent-replayed')).toBeNull();
  expect(otherBody.headers.get('retry-after')).toBeNull();
  // Whitespace changes the body hash too: the match is on the exact bytes.
  const reformatted = await api.request('POST', keyPath(), {
    rawBody: JSON.stringify({ label: 'idem-a', scopes: ['domains:read'] }, null, 2),
    headers: { 'content-type': 'application/json', 'Idempotency-Key': key },
  });
  expect(reformatted.status).toBe(422);
});

test('20 parallel requests with one key execute once', async () => {
  const key = freshKey();
  const body = { label: 'idem-parallel', scopes: ['domains:read'] };
  const responses = await Promise.all(Array.from({ length: 20 }, () => api.post(keyPath(), body, withKey(key))));
  const statuses = responses.map((response) => response.status);
  expect(statuses.filter((status) => status === 201).length).toBeGreaterThanOrEqual(1);
  for (const response of responses) {
    if (response.status === 409) {
      expectInProgress(response);
    } else {
      expect(response.status).toBe(201);
    }
  }
  const secrets = new Set(responses.filter((r) => r.status === 201).map((r) => r.body.secret_key));
  expect(secrets.size).toBe(1);
  expect(await countKeysLabelled('idem-parallel')).toBe(1);
});

test('API-key create: a 4xx is not stored and the key stays in progress (409) until its lease ends', async () => {
  const key = freshKey();
  const invalid = { label: '', scopes: ['domains:read'] };
  const first = await api.post(keyPath(), invalid, withKey(key));
  expect(first.status).toBe(400);
  expect(first.headers.get('idempotent-replayed')).toBeNull();
  const retry = await api.post(keyPath(), invalid, withKey(key));
  expectInProgress(retry);
});

test("a replay is shown only to a caller with the scope: a domains:read key replaying a * key's API-key creation gets 403 and no secret", async () => {
  const key = freshKey();
  const body = { label: 'idem-stolen', scopes: ['domains:read'] };
  const original = await api.post(keyPath(), body, withKey(key));
  expect(original.status).toBe(201);
  const reader = await keyWith(['domains:read']);
  const replay = await reader.post(keyPath(), body, withKey(key));
  expect(replay.status).toBe(403);
  expect(replay.body).toEqual({ message: 'insufficient permissions for the required scope: api-keys:write' });
  expect(replay.text).not.toContain(original.body.secret_key);
  expect(replay.headers.get('idempotent-replayed')).toBeNull();
});

test('a secret-bearing replay is bound to the key that made it: another * key gets 422, the creator the same secret', async () => {
  const key = freshKey();
  const body = { label: 'idem-bound', scopes: ['domains:read'] };
  const original = await api.post(keyPath(), body, withKey(key));
  expect(original.status).toBe(201);
  const otherAdmin = await keyWith(['*']);
  const foreign = await otherAdmin.post(keyPath(), body, withKey(key));
  expect(foreign.status).toBe(422);
  expect(foreign.body).toEqual({ message: 'idempotency key was already used with a different request payload' });
  expect(foreign.text).not.toContain(original.body.secret_key);
  expect(foreign.headers.get('idempotent-replayed')).toBeNull();
  expect(foreign.headers.get('retry-after')).toBeNull();
  const again = await api.post(keyPath(), body, withKey(key));
  expect(again.status).toBe(201);
  expect(again.headers.get('idempotent-replayed')).toBe('true');
  expect(again.body.secret_key).toBe(original.body.secret_key);
  expect(await countKeysLabelled('idem-bound')).toBe(1);
});

test('a send is replayed only to a caller allowed to send from its domain', async () => {
  const key = freshKey();
  const original = await api.post(api.account('/messages'), sendBody(), withKey(key));
  expect(original.status).toBe(202);
  const refusals: [string, string[], RegExp][] = [
    ['no send scope', ['domains:read'], /^insufficient permissions for the required scope: messages:send:all$/],
    [
      'a send scope for another domain',
      [`messages:send:{${otherDomain}}`],
      new RegExp(`messages:send:\\{${sender.replace(/\./g, '\\.')}\\}`),
    ],
  ];
  for (const [name, scopes, message] of refusals) {
    const caller = await keyWith(scopes);
    const replay = await caller.post(caller.account('/messages'), sendBody(), withKey(key));
    expect(replay.status, name).toBe(403);
    expect(replay.body.message, name).toMatch(message);
    expect(replay.headers.get('idempotent-replayed'), name).toBeNull();
  }
  // A key allowed to send from the domain sees the stored 202.
  const sender2 = await keyWith([`messages:send:{${sender}}`]);
  const allowed = await sender2.post(sender2.account('/messages'), sendBody(), withKey(key));
  expect(allowed.status).toBe(202);
  expect(allowed.headers.get('idempotent-replayed')).toBe('true');
  expect(allowed.body).toEqual(original.body);
});

test('a key still in progress answers a caller without the scope with 403, not 409', async () => {
  const key = freshKey();
  const invalid = { label: '', scopes: ['domains:read'] };
  // An API-key create that ends in a 4xx stays in progress (the spec's rule for secret-bearing creates).
  expect((await api.post(keyPath(), invalid, withKey(key))).status).toBe(400);
  const reader = await keyWith(['domains:read']);
  const refused = await reader.post(keyPath(), invalid, withKey(key));
  expect(refused.status).toBe(403);
  expect(refused.headers.get('idempotent-replayed')).toBeNull();
  expect(refused.headers.get('retry-after')).toBeNull();
  expectInProgress(await api.post(keyPath(), invalid, withKey(key)));
});

test('authentication and IP allow-list failures are never stored', async () => {
  const key = freshKey();
  const body = { label: 'idem-auth', scopes: ['domains:read'] };
  const unauthenticated = await api.post(keyPath(), body, { ...withKey(key), apiKey: `aha-sk-${'z'.repeat(64)}` });
  expect(unauthenticated.status).toBe(401);
  const restricted = await api.post(keyPath(), {
    label: 'restricted',
    scopes: ['api-keys:write', 'domains:read'],
    ip_allow_list: ['198.51.100.0/24'],
  });
  const blocked = await api.with(restricted.body.secret_key).post(keyPath(), body, withKey(key));
  expect(blocked.status).toBe(403);
  const real = await api.post(keyPath(), body, withKey(key));
  expect(real.status).toBe(201);
  expect(real.headers.get('idempotent-replayed')).toBeNull();
});

test('the header is ignored on operations that do not declare it', async () => {
  const key = freshKey();
  const first = await api.get(api.account(), withKey(key));
  const second = await api.put(api.account(), { name: 'Idempotency renamed' }, withKey(key));
  expect(first.status).toBe(200);
  expect(second.status).toBe(200);
  expect(second.headers.get('idempotent-replayed')).toBeNull();
});

test('keys are scoped to the account: another account may use the same key', async () => {
  const key = freshKey();
  const other = await newAccount('Idempotency other');
  const mine = await api.post(keyPath(), { label: 'idem-shared', scopes: ['domains:read'] }, withKey(key));
  const theirs = await other.api.post(
    other.api.account('/api-keys'),
    { label: 'idem-shared', scopes: ['domains:read'] },
    withKey(key),
  );
  expect(mine.status).toBe(201);
  expect(theirs.status).toBe(201);
  expect(theirs.headers.get('idempotent-replayed')).toBeNull();
  expect(theirs.body.account_id).toBe(other.accountId);
});

test('an Idempotency-Key longer than 255 characters is 400', async () => {
  const response = await api.post(keyPath(), { label: 'long', scopes: ['domains:read'] }, withKey('k'.repeat(256)));
  expect(response.status).toBe(400);
  expect(response.body.message).toMatch(/Idempotency-Key/);
});
