import { randomUUID } from 'node:crypto';
import { expect, test } from '@playwright/test';
import type { ApiClient } from '../support/client';
import { newAccount } from '../support/shared';

/**
 * The SMTP credentials resource (`/v2/accounts/{id}/smtp-credentials`): create (password once),
 * list, get, delete (no update), bad input, scopes, tenancy and idempotency. What a credential can
 * submit is in e2e/smtp/submission.spec.ts.
 */
const stamp = Date.now().toString(36);

let api: ApiClient;
let domainA: string;
let domainB: string;

test.beforeAll(async () => {
  ({ api } = await newAccount('SMTP credentials'));
  domainA = `sc-a-${stamp}.example.com`;
  domainB = `sc-b-${stamp}.example.com`;
  for (const domain of [domainA, domainB])
    expect((await api.post(api.account('/domains'), { domain })).status).toBe(201);
});

const credentials = (suffix = '') => api.account(`/smtp-credentials${suffix}`);
const create = (body: Record<string, unknown>, client = api, headers?: Record<string, string>) =>
  client.post(client.account('/smtp-credentials'), body, { headers });

async function keyWith(scopes: string[]): Promise<ApiClient> {
  const created = await api.post(api.account('/api-keys'), { label: `holder of ${scopes.join(' ')}`, scopes });
  expect(created.status).toBe(201);
  return api.with(created.body.secret_key);
}

test('POST /smtp-credentials - 201 with a generated username and password, shown once; GET, list and DELETE', async () => {
  const created = await create({
    name: 'App server',
    scope: 'scoped',
    domains: [domainB.toUpperCase(), domainA],
    sandbox: true,
  });
  expect(created.status).toBe(201);
  expect(created.body).toEqual({
    object: 'credential_smtp',
    id: expect.stringMatching(/^[0-9a-f-]{36}$/),
    created_at: expect.any(String),
    updated_at: expect.any(String),
    name: 'App server',
    username: expect.stringMatching(/^smtp-[a-z0-9]{20}$/),
    password: expect.stringMatching(/^[A-Za-z0-9]{40}$/),
    sandbox: true,
    scope: 'scoped',
    domains: [domainA, domainB].sort(),
  });
  const { password, ...shown } = created.body;

  const got = await api.get(credentials(`/${shown.id}`));
  expect(got.status).toBe(200);
  expect(got.body).toEqual(shown);
  expect(got.text).not.toContain(password);

  const listed = await api.get(credentials());
  expect(listed.status).toBe(200);
  expect(listed.body.data).toContainEqual(shown);
  expect(listed.text).not.toContain(password);

  const global = await create({ name: 'Everything', scope: 'global', domains: [domainA] });
  expect(global.status).toBe(201);
  expect(global.body).toMatchObject({ scope: 'global', domains: [], sandbox: false });
  expect(global.body.username).not.toBe(shown.username);

  const deleted = await api.delete(credentials(`/${shown.id}`));
  expect(deleted.status).toBe(200);
  expect(deleted.body.message).toMatch(/deleted/);
  expect((await api.get(credentials(`/${shown.id}`))).status).toBe(404);
  expect((await api.delete(credentials(`/${shown.id}`))).status).toBe(404);
  // No update endpoint, as in the contract: the method is not allowed.
  expect((await api.put(credentials(`/${global.body.id}`), { name: 'renamed' }, { checkContract: false })).status).toBe(
    405,
  );
});

test('the AhaSend CLI way: no scope sent is global only when ""; a random Idempotency-Key replays the same password; cursor= paging', async () => {
  const key = randomUUID();
  const first = await create({ name: 'From the CLI', scope: '' }, api, { 'Idempotency-Key': key });
  expect(first.status).toBe(201);
  expect(first.body.scope).toBe('global');
  const replay = await create({ name: 'From the CLI', scope: '' }, api, { 'Idempotency-Key': key });
  expect(replay.status).toBe(201);
  expect(replay.headers.get('idempotent-replayed')).toBe('true');
  expect(replay.body).toEqual(first.body);
  const mismatch = await create({ name: 'Something else', scope: '' }, api, { 'Idempotency-Key': key });
  expect(mismatch.status).toBe(422);

  await create({ name: 'Page filler', scope: 'global' });
  const page1 = await api.get(credentials('?limit=1'));
  expect(page1.body.data).toHaveLength(1);
  expect(page1.body.pagination.has_more).toBe(true);
  const page2 = await api.get(credentials(`?limit=1&cursor=${page1.body.pagination.next_cursor}`));
  expect(page2.status).toBe(200);
  expect(page2.body.data[0].id).not.toBe(page1.body.data[0].id);
});

const badBodies: [string, Record<string, unknown>, RegExp][] = [
  ['no name', { scope: 'global' }, /name/],
  ['an empty name', { name: ' ', scope: 'global' }, /name/],
  ['a name of 256 characters', { name: 'x'.repeat(256), scope: 'global' }, /name.*255/],
  ['no scope', { name: 'n' }, /scope/],
  ['an unknown scope', { name: 'n', scope: 'everything' }, /scope/],
  ['scoped without domains', { name: 'n', scope: 'scoped' }, /domains/],
  ['scoped with no domain', { name: 'n', scope: 'scoped', domains: [] }, /domains/],
  ['domains that are not a list', { name: 'n', scope: 'scoped', domains: 'a.example.com' }, /domains/],
  [
    'a domain of another account',
    { name: 'n', scope: 'scoped', domains: ['example.com'] },
    /domains: example\.com is not a domain of this account/,
  ],
  ['sandbox as a string', { name: 'n', scope: 'global', sandbox: 'true' }, /sandbox/],
];
for (const [name, body, message] of badBodies) {
  test(`POST /smtp-credentials - ${name} is 400 naming the field`, async () => {
    const response = await create(body);
    expect(response.status).toBe(400);
    expect(Object.keys(response.body)).toEqual(['message']);
    expect(response.body.message).toMatch(message);
  });
}

test('GET/DELETE /smtp-credentials/:id - a malformed id is 400, an unknown one 404', async () => {
  for (const response of [await api.get(credentials('/not-a-uuid')), await api.delete(credentials('/not-a-uuid'))]) {
    expect(response.status).toBe(400);
    expect(response.body.message).toMatch(/smtp_credential_id/);
  }
  const unknown = randomUUID();
  for (const response of [await api.get(credentials(`/${unknown}`)), await api.delete(credentials(`/${unknown}`))]) {
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ message: 'smtp credential not found' });
  }
});

test('scopes: none is 403; read cannot write; a domain key sees and deletes only credentials of its domains', async () => {
  const global = (await create({ name: 'Global', scope: 'global' })).body;
  const ofA = (await create({ name: 'Of A', scope: 'scoped', domains: [domainA] })).body;
  const ofB = (await create({ name: 'Of B', scope: 'scoped', domains: [domainB] })).body;

  const none = await keyWith(['domains:read']);
  for (const response of [
    await none.get(credentials()),
    await none.get(credentials(`/${global.id}`)),
    await create({ name: 'x', scope: 'global' }, none),
    await none.delete(credentials(`/${global.id}`)),
  ]) {
    expect(response.status).toBe(403);
    expect(response.body).toEqual({ message: expect.stringMatching(/permission|scope/) });
  }

  const reader = await keyWith(['smtp-credentials:read:all']);
  expect((await reader.get(credentials(`/${global.id}`))).status).toBe(200);
  expect((await create({ name: 'x', scope: 'global' }, reader)).status).toBe(403);
  expect((await reader.delete(credentials(`/${ofA.id}`))).status).toBe(403);

  const ofDomainA = await keyWith([
    `smtp-credentials:read:{${domainA}}`,
    `smtp-credentials:write:{${domainA}}`,
    `smtp-credentials:delete:{${domainA}}`,
  ]);
  const visible = (await ofDomainA.get(credentials('?limit=100'))).body.data.map((item: { id: string }) => item.id);
  expect(visible).toContain(ofA.id);
  expect(visible).not.toContain(ofB.id);
  expect(visible).not.toContain(global.id);
  expect((await ofDomainA.get(credentials(`/${ofA.id}`))).status).toBe(200);
  expect((await ofDomainA.get(credentials(`/${ofB.id}`))).status).toBe(403);
  expect((await ofDomainA.get(credentials(`/${global.id}`))).status).toBe(403);
  // A global credential needs smtp-credentials:write:all; a scoped one needs every domain it names.
  expect((await create({ name: 'x', scope: 'global' }, ofDomainA)).status).toBe(403);
  expect((await create({ name: 'x', scope: 'scoped', domains: [domainA, domainB] }, ofDomainA)).status).toBe(403);
  const mine = await create({ name: 'Mine', scope: 'scoped', domains: [domainA] }, ofDomainA);
  expect(mine.status).toBe(201);
  expect((await ofDomainA.delete(credentials(`/${ofB.id}`))).status).toBe(403);
  expect((await ofDomainA.delete(credentials(`/${global.id}`))).status).toBe(403);
  expect((await ofDomainA.delete(credentials(`/${mine.body.id}`))).status).toBe(200);
});

test("tenancy: another account's credential is 404 under this account, and never listed", async () => {
  const { api: other } = await newAccount('SMTP credential stranger');
  const theirs = (await other.post(other.account('/smtp-credentials'), { name: 'Theirs', scope: 'global' })).body;
  for (const response of [
    await api.get(credentials(`/${theirs.id}`)),
    await api.delete(credentials(`/${theirs.id}`)),
  ]) {
    expect(response.status).toBe(404);
  }
  const listed = (await api.get(credentials('?limit=100'))).body.data.map((item: { id: string }) => item.id);
  expect(listed).not.toContain(theirs.id);
  expect((await other.get(other.account(`/smtp-credentials/${theirs.id}`))).status).toBe(200);
});
