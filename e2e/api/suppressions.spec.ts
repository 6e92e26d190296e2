import { expect, test } from '@playwright/test';
import { createSuppressionSchema } from '../../lib/core/suppressions/schemas';
import { badInputCases } from '../support/bad-input';
import type { ApiClient, ApiResponse } from '../support/client';
import { verifiedDomain, waitForStatus } from '../support/sending';
import { newAccount } from '../support/shared';

/**
 * The suppressions API on the shared server: list (every filter, pagination), create, delete one
 * address, wipe; scopes and tenancy; and the engine's own suppressions from a real hard bounce.
 */
let api: ApiClient;
let accountId: string;
let first: string;
let second: string;
const stamp = Date.now().toString(36);
const DAY_MS = 86_400_000;

test.beforeAll(async () => {
  ({ api, accountId } = await newAccount('Suppressions'));
  first = `sup-${stamp}.example.com`;
  second = `sup2-${stamp}.example.com`;
  await verifiedDomain(api, first);
  await verifiedDomain(api, second);
});

const inDays = (days: number) => new Date(Date.now() + days * DAY_MS).toISOString();
const collection = (client = api, query = '') => client.account(`/suppressions${query ? `?${query}` : ''}`);
const create = (body: Record<string, unknown>, client = api, headers?: Record<string, string>) =>
  client.post(collection(client), { expires_at: inDays(30), ...body }, { headers });
const list = (query = '', client = api) => client.get(collection(client, query));
const emailsOf = (response: ApiResponse) =>
  (response.body.data as { email: string; domain: string | null }[])
    .map((item) => `${item.email} ${item.domain ?? '*'}`)
    .sort();
const remove = (query: string, client = api) => client.delete(collection(client, query));
const wipe = (query = '', client = api) =>
  client.delete(client.account(`/suppressions/all${query ? `?${query}` : ''}`));

async function keyWith(scopes: string[]): Promise<ApiClient> {
  const created = await api.post(api.account('/api-keys'), { label: `suppressions ${scopes.join(' ')}`, scopes });
  expect(created.status).toBe(201);
  return api.with(created.body.secret_key);
}

function expectError(response: ApiResponse, status: number, message?: RegExp | string) {
  expect(response.status, response.text).toBe(status);
  expect(Object.keys(response.body)).toEqual(['message']);
  if (message !== undefined) expect(response.body.message).toMatch(message);
}

test.describe.configure({ mode: 'serial' });

test('POST /suppressions - 201 with a list of one suppression, address normalised, for one domain or all', async () => {
  const expiresAt = inDays(10);
  const created = await create({
    email: '  Ada@Example.ORG ',
    domain: first.toUpperCase(),
    reason: 'asked us to stop',
    expires_at: expiresAt,
  });
  expect(created.status).toBe(201);
  expect(created.headers.get('idempotent-replayed')).toBeNull();
  expect(created.body).toEqual({
    object: 'list',
    data: [
      {
        object: 'suppression',
        id: expect.any(String),
        created_at: expect.any(String),
        email: 'ada@example.org',
        domain: first,
        reason: 'asked us to stop',
        expires_at: new Date(expiresAt).toISOString(),
        kind: 'manual',
      },
    ],
  });
  const everywhere = await create({ email: 'ada@example.org' });
  expect(everywhere.status).toBe(201);
  expect(everywhere.body.data[0]).toMatchObject({ email: 'ada@example.org', domain: null, reason: null });
  const emptyDomain = await create({ email: 'empty-domain@example.org', domain: '' });
  expect(emptyDomain.body.data[0].domain).toBeNull();
});

test('POST /suppressions - the same address and domain again is 409; another domain is not a duplicate', async () => {
  expect((await create({ email: 'dup@example.org', domain: first })).status).toBe(201);
  expectError(await create({ email: 'DUP@example.org', domain: first, expires_at: inDays(60) }), 409, /already exists/);
  expect((await create({ email: 'dup@example.org', domain: second })).status).toBe(201);
  expect((await create({ email: 'dup@example.org' })).status).toBe(201);
  expectError(await create({ email: 'dup@example.org', domain: null }), 409);
});

test.describe('POST /suppressions - bad bodies are 400 naming the field', () => {
  // Wrong types, missing required fields and oversize values, derived from the schema.
  const valid = { email: 'valid@example.org', expires_at: inDays(30), reason: 'r' };
  const cases: { name: string; body: Record<string, unknown>; field: string; message?: RegExp }[] = [
    ...badInputCases(createSuppressionSchema, valid),
    {
      name: 'an invalid email address',
      body: { email: 'not an address', expires_at: inDays(1) },
      field: 'email',
      message: /invalid email address/,
    },
    {
      name: 'expires_at in the past',
      body: { email: 'a@example.org', expires_at: '2020-01-01T00:00:00Z' },
      field: 'expires_at',
      message: /in the future/,
    },
    {
      name: 'expires_at without a time zone',
      body: { email: 'a@example.org', expires_at: '2030-01-01T00:00:00' },
      field: 'expires_at',
      message: /RFC 3339/,
    },
    {
      name: 'a domain that is not a domain name',
      body: { email: 'a@example.org', expires_at: inDays(1), domain: 'not a domain' },
      field: 'domain',
    },
    {
      name: 'a domain of no account',
      body: { email: 'a@example.org', expires_at: inDays(1), domain: `nobody-${stamp}.example.com` },
      field: 'domain',
      message: /not a domain of this account/,
    },
  ];
  for (const badCase of cases) {
    test(`${badCase.name}`, async () => {
      const response = await api.post(collection(), badCase.body);
      expectError(response, 400, badCase.message);
      expect(response.body.message).toContain(badCase.field);
    });
  }

  test('a body that is not JSON', async () => {
    const response = await api.request('POST', collection(), {
      rawBody: '{"email":',
      headers: { 'content-type': 'application/json' },
    });
    expectError(response, 400);
  });
});

test('POST /suppressions - parallel creates with one Idempotency-Key create one suppression', async () => {
  const headers = { 'Idempotency-Key': `sup-${stamp}` };
  const body = { email: 'parallel@example.org', domain: first, expires_at: inDays(5) };
  const responses = await Promise.all(Array.from({ length: 8 }, () => create(body, api, headers)));
  const created = responses.filter((response) => response.status === 201);
  expect(created.length).toBeGreaterThanOrEqual(1);
  for (const response of responses) {
    if (response.status === 201) expect(response.body).toEqual(created[0].body);
    else expectError(response, 409, /already in progress/);
  }
  const replay = await create(body, api, headers);
  expect(replay.status).toBe(201);
  expect(replay.headers.get('idempotent-replayed')).toBe('true');
  expect(replay.body).toEqual(created[0].body);
  expect((await list('email=parallel@example.org')).body.data).toHaveLength(1);
  // Without the key, the same request is a duplicate.
  expectError(await create(body), 409);
});

test('GET /suppressions - filters by domain, email and creation time; empty values are absent; unknown domain 404', async () => {
  const { api: own } = await newAccount('Suppression filters');
  const domain = `filters-${stamp}.example.com`;
  await own.post(own.account('/domains'), { domain });
  const before = new Date(Date.now() - 1000).toISOString();
  expect((await create({ email: 'one@example.org', domain }, own)).status).toBe(201);
  await new Promise((resolve) => setTimeout(resolve, 1100));
  const middle = new Date(Date.now() - 50).toISOString();
  expect((await create({ email: 'two@example.org' }, own)).status).toBe(201);
  expect((await create({ email: 'Three@Example.org', domain, reason: 'third' }, own)).status).toBe(201);
  const after = new Date(Date.now() + 1000).toISOString();

  const all = await list('', own);
  expect(all.status).toBe(200);
  expect(all.body.pagination).toEqual({ has_more: false });
  // Newest first.
  expect(all.body.data.map((item: { email: string }) => item.email)).toEqual([
    'three@example.org',
    'two@example.org',
    'one@example.org',
  ]);
  expect(emailsOf(await list(`domain=${domain.toUpperCase()}.`, own))).toEqual([
    `one@example.org ${domain}`,
    `three@example.org ${domain}`,
  ]);
  expect(emailsOf(await list('email=THREE@example.org', own))).toEqual([`three@example.org ${domain}`]);
  expect(emailsOf(await list(`email=three@example.org&domain=${domain}`, own))).toEqual([
    `three@example.org ${domain}`,
  ]);
  expect(emailsOf(await list('email=nobody@example.org', own))).toEqual([]);
  expect(emailsOf(await list(`from_time=${encodeURIComponent(middle)}`, own))).toEqual([
    `three@example.org ${domain}`,
    'two@example.org *',
  ]);
  expect(emailsOf(await list(`to_time=${encodeURIComponent(middle)}`, own))).toEqual([`one@example.org ${domain}`]);
  expect(
    emailsOf(await list(`from_time=${encodeURIComponent(before)}&to_time=${encodeURIComponent(after)}`, own)),
  ).toHaveLength(3);
  // What the official CLI sends on every `suppressions list`.
  expect(emailsOf(await list('domain=&cursor=&email=&from_time=&to_time=&limit=', own))).toHaveLength(3);

  expectError(await list(`domain=unknown-${stamp}.example.com`, own), 404, 'domain not found');
  // Another account's domain is unknown here too.
  expectError(await list(`domain=${first}`, own), 404, 'domain not found');
});

test('GET /suppressions - pagination with after, before and the legacy cursor', async () => {
  const { api: own } = await newAccount('Suppression pages');
  for (let i = 0; i < 5; i++) expect((await create({ email: `page${i}@example.org` }, own)).status).toBe(201);
  const ids = (await list('', own)).body.data.map((item: { id: string }) => item.id);
  const page = await list('limit=2', own);
  expect(page.body.data.map((item: { id: string }) => item.id)).toEqual(ids.slice(0, 2));
  expect(page.body.pagination.has_more).toBe(true);
  const next = await list(`limit=2&after=${page.body.pagination.next_cursor}`, own);
  expect(next.body.data.map((item: { id: string }) => item.id)).toEqual(ids.slice(2, 4));
  const legacy = await list(`limit=2&cursor=${page.body.pagination.next_cursor}`, own);
  expect(legacy.body.data).toEqual(next.body.data);
  const back = await list(`limit=2&before=${next.body.pagination.previous_cursor}`, own);
  expect(back.body.data.map((item: { id: string }) => item.id)).toEqual(ids.slice(0, 2));
  const last = await list(`limit=2&after=${next.body.pagination.next_cursor}`, own);
  expect(last.body.data.map((item: { id: string }) => item.id)).toEqual(ids.slice(4));
  expect(last.body.pagination.has_more).toBe(false);
});

const badQueries: [string, string, RegExp][] = [
  ['limit=0', 'limit', /limit must be between 1 and 100/],
  ['limit=101', 'limit', /limit must be between 1 and 100/],
  ['limit=many', 'limit', /limit must be between 1 and 100/],
  ['after=not-a-cursor', 'after', /invalid after cursor/],
  ['cursor=bm9wZQ', 'cursor', /invalid cursor/],
  ['email=nope', 'email', /invalid email address/],
  [`email=${'x'.repeat(321)}@example.org`, 'email', /at most 320 characters/],
  [`domain=${'d'.repeat(301)}`, 'domain', /domain/],
  ['from_time=yesterday', 'from_time', /RFC 3339/],
  ['to_time=2026-13-01T00:00:00Z', 'to_time', /RFC 3339/],
];
for (const [query, field, message] of badQueries) {
  test(`GET /suppressions?${query.slice(0, 40)} - 400 naming ${field}`, async () => {
    const response = await list(query);
    expectError(response, 400, message);
    expect(response.body.message).toContain(field);
  });
}

test('DELETE /suppressions - one domain of an address, or all of them; none left is 404; email is required', async () => {
  for (const domain of [first, second, null])
    expect((await create({ email: 'del@example.org', domain })).status).toBe(201);
  const one = await remove(`email=DEL@example.org&domain=${second}`);
  expect(one.status).toBe(200);
  expect(one.body).toEqual({ message: 'suppression of del@example.org deleted' });
  expect(emailsOf(await list('email=del@example.org'))).toEqual(['del@example.org *', `del@example.org ${first}`]);
  expectError(await remove(`email=del@example.org&domain=${second}`), 404, 'suppression not found');
  const rest = await remove('email=del@example.org');
  expect(rest.body).toEqual({ message: '2 suppressions of del@example.org deleted' });
  expect((await list('email=del@example.org')).body.data).toEqual([]);
  expectError(await remove('email=del@example.org'), 404);
  expectError(await remove(''), 400, /email/);
  expectError(await remove('email='), 400, /email/);
  expectError(await remove('email=nope'), 400, /email: invalid email address/);
  expectError(await remove(`email=del@example.org&domain=unknown-${stamp}.example.com`), 404);
});

test('DELETE /suppressions/all - wipes one domain (unknown domain 404), then everything', async () => {
  const { api: own } = await newAccount('Suppression wipe');
  const domain = `wipe-${stamp}.example.com`;
  const other = `wipe2-${stamp}.example.com`;
  for (const name of [domain, other]) await own.post(own.account('/domains'), { domain: name });
  for (const [email, on] of [
    ['w1@example.org', domain],
    ['w2@example.org', domain],
    ['w3@example.org', other],
    ['w4@example.org', null],
  ] as const) {
    expect((await create({ email, domain: on }, own)).status).toBe(201);
  }
  expectError(await wipe(`domain=unknown-${stamp}.example.com`, own), 404, 'domain not found');
  const one = await wipe(`domain=${domain}`, own);
  expect(one.status).toBe(200);
  expect(one.body).toEqual({ message: `2 suppressions deleted for ${domain}` });
  expect(emailsOf(await list('', own))).toEqual(['w3@example.org ' + other, 'w4@example.org *']);
  // The CLI sends `domain=` when no domain is given.
  expect((await wipe('domain=', own)).body).toEqual({ message: '2 suppressions deleted' });
  expect((await list('', own)).body.data).toEqual([]);
  expect((await wipe('', own)).body).toEqual({ message: '0 suppressions deleted' });
});

test('scopes: read, write, delete and wipe each need their own scope (403)', async () => {
  const reader = await keyWith(['suppressions:read']);
  const deleter = await keyWith(['suppressions:delete']);
  const nothing = await keyWith(['domains:read']);
  expect((await list('', reader)).status).toBe(200);
  expectError(await list('', nothing), 403, /suppressions:read/);
  expectError(await create({ email: 'scoped@example.org' }, reader), 403, /suppressions:write/);
  expectError(await remove('email=scoped@example.org', reader), 403, /suppressions:delete/);
  expectError(await wipe('', deleter), 403, /suppressions:wipe/);
  expectError(await wipe('', reader), 403, /suppressions:wipe/);
  // The scope check comes before validation: a bad body without the scope is still 403.
  expectError(await reader.post(collection(reader), { email: 12 }), 403);
});

test("tenancy: another account's key cannot reach these suppressions, and its own lists never show them", async () => {
  expect((await create({ email: 'private@example.org', domain: first })).status).toBe(201);
  const { api: neighbour } = await newAccount('Suppression neighbour');
  // This account's path with the neighbour's key.
  const intruder = neighbour.with(neighbour.apiKey, accountId);
  expectError(await list('', intruder), 401);
  expectError(await remove('email=private@example.org', intruder), 401);
  expectError(await wipe('', intruder), 401);
  expectError(await create({ email: 'x@example.org' }, intruder), 401);
  // Its own account: nothing of ours, and our address and domain are unknown there.
  expect((await list('', neighbour)).body.data).toEqual([]);
  expectError(await list('email=private@example.org&domain=' + first, neighbour), 404);
  expectError(await remove('email=private@example.org', neighbour), 404);
  expectError(await create({ email: 'x@example.org', domain: first }, neighbour), 400, /not a domain of this account/);
  expect((await wipe('', neighbour)).body).toEqual({ message: '0 suppressions deleted' });
  expect(emailsOf(await list('email=private@example.org'))).toEqual([`private@example.org ${first}`]);
  expectError(await list('', api.with(api.apiKey, 'not-a-uuid')), 400);
});

test('a suppression stops blocking at expires_at: it leaves the list and the address is mailed again', async () => {
  const recipient = `expiring-${stamp}@example.org`;
  const created = await create({
    email: recipient,
    domain: first,
    expires_at: new Date(Date.now() + 4000).toISOString(),
  });
  expect(created.status).toBe(201);
  const send = () =>
    api.post(api.account('/messages'), {
      from: { email: `news@${first}` },
      recipients: [{ email: recipient }],
      subject: 'S',
      text_content: 'T',
      sandbox: true,
    });
  const blocked = await send();
  await waitForStatus(api, blocked.body.data[0].id, 'Sandbox Suppressed');
  await expect.poll(async () => (await list(`email=${recipient}`)).body.data.length, { timeout: 10_000 }).toBe(0);
  const sent = await send();
  await waitForStatus(api, sent.body.data[0].id, 'Sandbox Delivered');
  // Expired, it no longer counts as a duplicate either.
  expect((await create({ email: recipient, domain: first })).status).toBe(201);
});

test('a real hard bounce suppresses the address for the sender domain with its reason and a 30-day expiry; the next send is Suppressed until it is deleted', async () => {
  // Recipients in a domain that does not exist: the delivery bounces (BadDomain), a hard bounce.
  const recipient = `gone@nx-${stamp}.example.net`;
  const send = () =>
    api.post(api.account('/messages'), {
      from: { email: `news@${first}` },
      recipients: [{ email: recipient }],
      subject: 'Real',
      text_content: 'T',
    });
  const sent = await send();
  expect(sent.status).toBe(202);
  const bounced = await waitForStatus(api, sent.body.data[0].id, 'Bounced');
  expect(bounced.bounce_classification).toBe('BadDomain');
  const listed = await list(`email=${recipient}`);
  expect(listed.body.data).toEqual([
    {
      object: 'suppression',
      id: expect.any(String),
      created_at: expect.any(String),
      email: recipient,
      domain: first,
      reason: expect.stringMatching(/^hard bounce \(BadDomain\)/),
      expires_at: expect.any(String),
      kind: 'bounce',
    },
  ]);
  const item = listed.body.data[0];
  expect(Date.parse(item.expires_at) - Date.parse(item.created_at)).toBe(30 * DAY_MS);
  expect(emailsOf(await list(`domain=${first}&email=${recipient}`))).toEqual([`${recipient} ${first}`]);
  // Only for that sender domain: the other domain is not covered.
  expect((await list(`domain=${second}&email=${recipient}`)).body.data).toEqual([]);

  const again = await send();
  await waitForStatus(api, again.body.data[0].id, 'Suppressed');
  expect((await remove(`email=${recipient}&domain=${first}`)).status).toBe(200);
  const third = await send();
  await waitForStatus(api, third.body.data[0].id, 'Bounced');
});
