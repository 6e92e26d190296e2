import { expect, test } from '@playwright/test';
import type { ApiClient } from '../support/client';
import { newAccount } from '../support/shared';

let api: ApiClient;

test.beforeAll(async () => {
  ({ api } = await newAccount('Idempotency'));
});

const keyPath = () => api.account('/api-keys');
const withKey = (key: string) => ({ headers: { 'Idempotency-Key': key } });
let counter = 0;
const freshKey = () => `test-${Date.now()}-${counter++}`;

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
  const reformatted = await api.request('POST', keyPath(), { rawBody: JSON.stringify({ label: 'idem-a', scopes: ['domains:read'] }, null, 2), headers: { 'content-type': 'application/json', 'Idempotency-Key': key } });
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
      expect(response.headers.get('idempotent-replayed')).toBe('false');
      expect(Number(response.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(Number.isInteger(Number(response.headers.get('retry-after')))).toBe(true);
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
  expect(retry.status).toBe(409);
  expect(retry.headers.get('idempotent-replayed')).toBe('false');
  expect(Number(retry.headers.get('retry-after'))).toBeGreaterThan(200);
});

test('authentication and IP allow-list failures are never stored', async () => {
  const key = freshKey();
  const body = { label: 'idem-auth', scopes: ['domains:read'] };
  const unauthenticated = await api.post(keyPath(), body, { ...withKey(key), apiKey: `aha-sk-${'z'.repeat(64)}` });
  expect(unauthenticated.status).toBe(401);
  const restricted = await api.post(keyPath(), { label: 'restricted', scopes: ['api-keys:write', 'domains:read'], ip_allow_list: ['198.51.100.0/24'] });
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
  const theirs = await other.api.post(other.api.account('/api-keys'), { label: 'idem-shared', scopes: ['domains:read'] }, withKey(key));
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
