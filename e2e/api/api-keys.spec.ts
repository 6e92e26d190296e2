import { expect, test } from '@playwright/test';
import type { ApiClient } from '../support/client';
import { newAccount } from '../support/shared';

let api: ApiClient;
let accountId: string;

test.beforeAll(async () => {
  ({ api, accountId } = await newAccount('API keys'));
});

const create = (body: unknown, client = api) => client.post(client.account('/api-keys'), body);

test('POST /v2/accounts/:id/api-keys - 201 shows the secret once; reads never show it', async () => {
  const created = await create({ label: 'deploy', scopes: ['messages:send:all', 'domains:read'] });
  expect(created.status).toBe(201);
  expect(created.body).toMatchObject({
    object: 'api_key',
    account_id: accountId,
    label: 'deploy',
    ip_allow_list: [],
    last_used_at: null,
  });
  expect(created.body.secret_key).toMatch(/^aha-sk-[A-Za-z0-9]{64}$/);
  expect(created.body.public_key).toMatch(/^aha-pk-/);
  expect(created.body.scopes.map((s: { scope: string }) => s.scope).sort()).toEqual([
    'domains:read',
    'messages:send:all',
  ]);
  for (const scope of created.body.scopes)
    expect(scope).toMatchObject({ api_key_id: created.body.id, domain_id: null });

  const fetched = await api.get(api.account(`/api-keys/${created.body.id}`));
  expect(fetched.status).toBe(200);
  expect(fetched.body.secret_key).toBeUndefined();
  expect(fetched.text).not.toContain(created.body.secret_key);
  const listed = await api.get(api.account('/api-keys'));
  expect(listed.text).not.toContain(created.body.secret_key);
  const updated = await api.put(api.account(`/api-keys/${created.body.id}`), { label: 'deploy 2' });
  expect(updated.body.secret_key).toBeUndefined();
});

test('POST api-keys - ip_allow_list is canonicalised and de-duplicated', async () => {
  const created = await create({
    label: 'office',
    scopes: ['domains:read'],
    ip_allow_list: [
      '10.1.2.3/8',
      '10.0.0.0/8',
      '192.168.1.7',
      '2001:db8::1/32',
      '2001:0db8:0000::/32',
      '::ffff:203.0.113.9',
    ],
  });
  expect(created.status).toBe(201);
  expect(created.body.ip_allow_list).toEqual(['10.0.0.0/8', '192.168.1.7/32', '2001:db8::/32', '203.0.113.9/32']);
});

const invalidCreates: [string, unknown, RegExp][] = [
  ['a missing label', { scopes: ['domains:read'] }, /label/],
  ['an empty label', { label: '', scopes: ['domains:read'] }, /label/],
  ['a whitespace label', { label: '   ', scopes: ['domains:read'] }, /label/],
  ['a label of 256 characters', { label: 'x'.repeat(256), scopes: ['domains:read'] }, /label/],
  ['a numeric label', { label: 42, scopes: ['domains:read'] }, /label/],
  ['missing scopes', { label: 'x' }, /scopes/],
  ['no scopes', { label: 'x', scopes: [] }, /scopes/],
  ['scopes as a string', { label: 'x', scopes: 'domains:read' }, /scopes/],
  ['an unknown scope', { label: 'x', scopes: ['domains:read', 'domains:fly'] }, /unknown scope "domains:fly"/],
  ['a scope with a wrong domain form', { label: 'x', scopes: ['accounts:read:{example.com}'] }, /unknown scope/],
  ['a duplicate scope', { label: 'x', scopes: ['domains:read', 'domains:read'] }, /duplicate scope/],
  [
    'a domain scope for a domain the account does not have',
    { label: 'x', scopes: ['messages:send:{not-mine.example}'] },
    /does not have/,
  ],
  ['a domain scope naming an IP', { label: 'x', scopes: ['messages:send:{10.0.0.1}'] }, /IP address/],
  ['a bad IP', { label: 'x', scopes: ['domains:read'], ip_allow_list: ['10.0.0.300'] }, /ip_allow_list/],
  ['0.0.0.0/0', { label: 'x', scopes: ['domains:read'], ip_allow_list: ['0.0.0.0/0'] }, /ip_allow_list/],
  ['::/0', { label: 'x', scopes: ['domains:read'], ip_allow_list: ['::/0'] }, /ip_allow_list/],
  ['a /0 in disguise', { label: 'x', scopes: ['domains:read'], ip_allow_list: ['8.8.8.8/0'] }, /ip_allow_list/],
  [
    '101 distinct entries',
    {
      label: 'x',
      scopes: ['domains:read'],
      ip_allow_list: Array.from({ length: 101 }, (_, i) => `10.0.${Math.floor(i / 250)}.${i % 250}`),
    },
    /at most 100/,
  ],
  ['ip_allow_list of numbers', { label: 'x', scopes: ['domains:read'], ip_allow_list: [1, 2] }, /ip_allow_list/],
];

for (const [name, body, message] of invalidCreates) {
  test(`POST api-keys - ${name} is 400`, async () => {
    const response = await create(body);
    expect(response.status).toBe(400);
    expect(Object.keys(response.body)).toEqual(['message']);
    expect(response.body.message).toMatch(message);
  });
}

test('POST api-keys - 100 entries that de-duplicate below the limit are accepted', async () => {
  const entries = Array.from({ length: 150 }, (_, i) => `10.0.0.${i % 100}`);
  const created = await create({ label: 'many', scopes: ['domains:read'], ip_allow_list: entries });
  expect(created.status).toBe(201);
  expect(created.body.ip_allow_list).toHaveLength(100);
});

test('POST api-keys - unknown body fields are ignored', async () => {
  const created = await create({ label: 'extras', scopes: ['domains:read'], sandbox: true, colour: 'blue' });
  expect(created.status).toBe(201);
  expect(created.body.colour).toBeUndefined();
});

test('POST api-keys - a key cannot grant scopes it does not hold (403)', async () => {
  const manager = await create({ label: 'manager', scopes: ['api-keys:write', 'domains:read'] });
  const asManager = api.with(manager.body.secret_key);
  const escalation = await create({ label: 'escalate', scopes: ['messages:send:all'] }, asManager);
  expect(escalation.status).toBe(403);
  expect(escalation.body.message).toMatch(/messages:send:all/);
  const wildcard = await create({ label: 'escalate', scopes: ['*'] }, asManager);
  expect(wildcard.status).toBe(403);
  const allowed = await create({ label: 'subset', scopes: ['domains:read'] }, asManager);
  expect(allowed.status).toBe(201);
});

test("GET api-keys/:id - another account's key id is 404; a malformed id is 400", async () => {
  const other = await newAccount('API keys other');
  const foreign = await other.api.post(other.api.account('/api-keys'), { label: 'theirs', scopes: ['domains:read'] });
  for (const request of [
    () => api.get(api.account(`/api-keys/${foreign.body.id}`)),
    () => api.put(api.account(`/api-keys/${foreign.body.id}`), { label: 'mine now' }),
    () => api.delete(api.account(`/api-keys/${foreign.body.id}`)),
  ]) {
    const response = await request();
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ message: 'api key not found' });
  }
  expect((await other.api.get(other.api.account(`/api-keys/${foreign.body.id}`))).body.label).toBe('theirs');
  const malformed = await api.get(api.account('/api-keys/12345'));
  expect(malformed.status).toBe(400);
  expect(malformed.body.message).toMatch(/key_id/);
});

test('PUT api-keys/:id - null and omitted fields stay, [] clears the allow list', async () => {
  const created = await create({ label: 'edit me', scopes: ['domains:read'], ip_allow_list: ['127.0.0.1'] });
  const path = api.account(`/api-keys/${created.body.id}`);
  const renamed = await api.put(path, { label: 'edited', scopes: null });
  expect(renamed.status).toBe(200);
  expect(renamed.body).toMatchObject({ label: 'edited', ip_allow_list: ['127.0.0.1/32'] });
  expect(renamed.body.scopes.map((s: { scope: string }) => s.scope)).toEqual(['domains:read']);
  const cleared = await api.put(path, { ip_allow_list: [] });
  expect(cleared.body.ip_allow_list).toEqual([]);
  const rescoped = await api.put(path, { scopes: ['domains:read', 'domains:write'] });
  expect(rescoped.body.scopes.map((s: { scope: string }) => s.scope).sort()).toEqual(['domains:read', 'domains:write']);
  const keptScopeId = renamed.body.scopes[0].id;
  expect(rescoped.body.scopes.find((s: { scope: string }) => s.scope === 'domains:read').id).toBe(keptScopeId);
});

const invalidUpdates: [string, unknown, RegExp][] = [
  ['an empty body', {}, /at least one of/],
  ['only nulls', { label: null, scopes: null, ip_allow_list: null }, /at least one of/],
  ['the same values', { label: 'same', scopes: ['domains:read'] }, /nothing to change/],
  ['the same scopes in another order', { scopes: ['domains:read'] }, /nothing to change/],
  ['an empty label', { label: '' }, /label/],
  ['an empty scope list', { scopes: [] }, /scopes/],
  ['a label of the wrong type', { label: ['x'] }, /label/],
];

for (const [name, body, message] of invalidUpdates) {
  test(`PUT api-keys/:id - ${name} is 400`, async () => {
    const created = await create({ label: 'same', scopes: ['domains:read'] });
    const response = await api.put(api.account(`/api-keys/${created.body.id}`), body);
    expect(response.status).toBe(400);
    expect(response.body.message).toMatch(message);
  });
}

test('PUT api-keys/:id - self-lockout is 409 and nothing is saved', async () => {
  const created = await create({ label: 'self', scopes: ['api-keys:write', 'api-keys:read'] });
  const self = api.with(created.body.secret_key);
  const path = api.account(`/api-keys/${created.body.id}`);
  const lockout = await self.put(path, { ip_allow_list: ['203.0.113.0/24'] });
  expect(lockout.status).toBe(409);
  expect(lockout.headers.get('idempotent-replayed')).toBeNull();
  expect((await self.get(path)).body.ip_allow_list).toEqual([]);
  // Including the caller's own address is fine.
  expect((await self.put(path, { ip_allow_list: ['203.0.113.0/24', '127.0.0.1'] })).status).toBe(200);
  // Another key may restrict it: no guard applies.
  const restricted = await api.put(path, { ip_allow_list: ['203.0.113.0/24'] });
  expect(restricted.status).toBe(200);
  expect((await self.get('/v2/ping')).status).toBe(403);
});

test.describe('a key cannot edit or delete a stronger key', () => {
  let manager: ApiClient;
  let adminKeyId: string;

  test.beforeAll(async () => {
    const admin = await create({ label: 'strong', scopes: ['*'] });
    adminKeyId = admin.body.id;
    manager = api.with(
      (await create({ label: 'key manager', scopes: ['api-keys:write', 'api-keys:read', 'api-keys:delete'] })).body
        .secret_key,
    );
  });

  const changes: [string, Record<string, unknown>][] = [
    ['its scopes', { scopes: ['domains:read'] }],
    ['its ip_allow_list (a lock-out)', { ip_allow_list: ['203.0.113.0/24'] }],
    ['its label', { label: 'renamed by a weaker key' }],
  ];
  for (const [name, change] of changes) {
    test(`PUT api-keys/:id - changing ${name} of the * key is 403 naming the missing scopes`, async () => {
      const response = await manager.put(manager.account(`/api-keys/${adminKeyId}`), change);
      expect(response.status).toBe(403);
      expect(response.body).toEqual({ message: 'insufficient permissions: this key holds scopes you do not: *' });
    });
  }

  test('DELETE api-keys/:id - deleting the * key is 403 naming the missing scopes; the key is unchanged', async () => {
    const response = await manager.delete(manager.account(`/api-keys/${adminKeyId}`));
    expect(response.status).toBe(403);
    expect(response.body).toEqual({ message: 'insufficient permissions: this key holds scopes you do not: *' });
    const kept = await api.get(api.account(`/api-keys/${adminKeyId}`));
    expect(kept.body).toMatchObject({ label: 'strong', ip_allow_list: [] });
    expect(kept.body.scopes.map((s: { scope: string }) => s.scope)).toEqual(['*']);
  });

  test('PUT and DELETE api-keys/:id - a key holding one scope the caller lacks is 403 naming only that scope', async () => {
    const target = await create({ label: 'partly stronger', scopes: ['api-keys:read', 'domains:write'] });
    for (const response of [
      await manager.put(manager.account(`/api-keys/${target.body.id}`), { label: 'x' }),
      await manager.delete(manager.account(`/api-keys/${target.body.id}`)),
    ]) {
      expect(response.status).toBe(403);
      expect(response.body).toEqual({
        message: 'insufficient permissions: this key holds scopes you do not: domains:write',
      });
    }
  });

  test("PUT and DELETE api-keys/:id - a key with a subset of the caller's scopes can be edited and deleted", async () => {
    const target = await create({ label: 'weaker', scopes: ['api-keys:read'] });
    const path = manager.account(`/api-keys/${target.body.id}`);
    const updated = await manager.put(path, {
      label: 'weaker, renamed',
      scopes: ['api-keys:read', 'api-keys:write'],
      ip_allow_list: ['127.0.0.1'],
    });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ label: 'weaker, renamed', ip_allow_list: ['127.0.0.1/32'] });
    expect((await manager.delete(path)).status).toBe(200);
    expect((await api.get(api.account(`/api-keys/${target.body.id}`))).status).toBe(404);
  });
});

test('DELETE api-keys/:id - answers with the AhaSend message; a second delete is 404', async () => {
  const created = await create({ label: 'bye', scopes: ['domains:read'] });
  const path = api.account(`/api-keys/${created.body.id}`);
  const deleted = await api.delete(path);
  expect(deleted.status).toBe(200);
  expect(deleted.body).toEqual({ message: `api key ${created.body.id} (bye) deleted successfully` });
  expect((await api.delete(path)).status).toBe(404);
  expect((await api.get(path)).status).toBe(404);
});

test('scopes: each operation needs its own scope (403 names it)', async () => {
  const reader = api.with((await create({ label: 'reader', scopes: ['api-keys:read'] })).body.secret_key);
  const cases: [() => Promise<{ status: number; body: any }>, number][] = [
    [() => reader.get(reader.account('/api-keys')), 200],
    [() => reader.post(reader.account('/api-keys'), { label: 'x', scopes: ['domains:read'] }), 403],
    [() => reader.put(reader.account('/api-keys/01a20000-0000-7000-8000-000000000000'), { label: 'x' }), 403],
    [() => reader.delete(reader.account('/api-keys/01a20000-0000-7000-8000-000000000000')), 403],
    [() => reader.get(reader.account()), 403],
    [() => reader.put(reader.account(), { name: 'x' }), 403],
  ];
  for (const [request, status] of cases) {
    const response = await request();
    expect(response.status).toBe(status);
    if (status === 403)
      expect(response.body.message).toMatch(/insufficient permissions for the required scope: (api-keys|accounts):/);
  }
});

test('scope is checked before validation: a key without api-keys:write sending garbage gets 403', async () => {
  const reader = api.with((await create({ label: 'reader2', scopes: ['api-keys:read'] })).body.secret_key);
  const response = await reader.request('POST', reader.account('/api-keys'), {
    rawBody: '{not json',
    headers: { 'content-type': 'application/json' },
  });
  expect(response.status).toBe(403);
});
