import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { encode } from 'next-auth/jwt';
import { SecretBox } from '../../lib/shared/crypto';
import { createContactSchema, updateContactSchema } from '../../lib/core/contacts/schemas';
import { badInputCases } from '../support/bad-input';
import type { ApiClient, ApiResponse } from '../support/client';
import { newAccount, sharedServer } from '../support/shared';

/**
 * The contacts API (marketing-api.md, Contacts; rules R1-R5 of service-spec.md) on the shared
 * server. These paths are not in the AhaSend reference, so the shapes are checked here against the
 * contract's field lists.
 */
let api: ApiClient;
let other: ApiClient;
let ownerId: string;
const stamp = Date.now().toString(36);

test.beforeAll(async () => {
  ({ api, ownerId } = await newAccount('Contacts'));
  ({ api: other } = await newAccount('Contacts (other account)'));
});

test.describe.configure({ mode: 'serial' });

const CONTACT_FIELDS = ['attributes', 'created_at', 'email', 'first_name', 'id', 'last_name', 'object', 'unsubscribed', 'unsubscribed_at', 'updated_at'];
const MEMBERSHIP_FIELDS = ['contact_id', 'created_at', 'list_id', 'object', 'subscription_status', 'updated_at'];
const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** A Contact exactly as the contract lists it: these fields and no others, with their types. */
function expectContact(body: any) {
  expect(Object.keys(body).sort()).toEqual(CONTACT_FIELDS);
  expect(body.object).toBe('contact');
  expect(body.id).toMatch(UUID);
  expect(typeof body.email).toBe('string');
  expect(body.email).toBe(body.email.trim().toLowerCase());
  for (const name of ['first_name', 'last_name']) expect(body[name] === null || typeof body[name] === 'string').toBe(true);
  expect(typeof body.attributes).toBe('object');
  expect(Array.isArray(body.attributes)).toBe(false);
  expect(typeof body.unsubscribed).toBe('boolean');
  if (body.unsubscribed) expect(body.unsubscribed_at).toMatch(RFC3339);
  else expect(body.unsubscribed_at).toBeNull();
  expect(body.created_at).toMatch(RFC3339);
  expect(body.updated_at).toMatch(RFC3339);
}

function expectEnvelope(body: any) {
  expect(Object.keys(body).sort()).toEqual(['data', 'object', 'pagination']);
  expect(body.object).toBe('list');
  expect(Array.isArray(body.data)).toBe(true);
  expect(typeof body.pagination.has_more).toBe('boolean');
}

function expectError(response: ApiResponse, status: number, message?: RegExp | string) {
  expect(response.status, response.text).toBe(status);
  expect(Object.keys(response.body)).toEqual(['message']);
  if (message !== undefined) expect(response.body.message).toMatch(message);
}

const contactsPath = (client = api, suffix = '') => client.account(`/contacts${suffix}`);
/** The path segment of a contact: an email percent-encoded exactly once (R5). */
const segment = (idOrEmail: string) => encodeURIComponent(idOrEmail);
const contactPath = (idOrEmail: string, suffix = '', client = api) => contactsPath(client, `/${segment(idOrEmail)}${suffix}`);
const create = (body: Record<string, unknown>, client = api, headers?: Record<string, string>) => client.post(contactsPath(client), body, { headers });

async function keyWith(scopes: string[]): Promise<ApiClient> {
  const created = await api.post(api.account('/api-keys'), { label: `contacts ${scopes.join(' ')}`, scopes });
  expect(created.status).toBe(201);
  return api.with(created.body.secret_key);
}

test('POST /contacts - 201 with a Contact: email trimmed and lowercased, no attributes, subscribed', async () => {
  const created = await create({ email: `  Ada.${stamp}@Example.ORG `, first_name: 'Ada', last_name: 'Lovelace' });
  expect(created.status, created.text).toBe(201);
  expectContact(created.body);
  expect(created.body).toMatchObject({ email: `ada.${stamp}@example.org`, first_name: 'Ada', last_name: 'Lovelace', attributes: {}, unsubscribed: false, unsubscribed_at: null });
  const read = await api.get(contactPath(created.body.id));
  expect(read.status).toBe(200);
  expect(read.body).toEqual(created.body);
});

test('POST /contacts - the same address again, in any case, is 409', async () => {
  expect((await create({ email: `dup.${stamp}@example.org` })).status).toBe(201);
  expectError(await create({ email: ` DUP.${stamp}@EXAMPLE.org` }), 409, /already exists/);
  // Another account may hold the same address: contacts are per account.
  expect((await create({ email: `dup.${stamp}@example.org` }, other)).status).toBe(201);
});

test('R1: a contact created through the API joins no list', async () => {
  const created = await create({ email: `r1.${stamp}@example.org` });
  const lists = await api.get(contactPath(created.body.id, '/lists'));
  expect(lists.status).toBe(200);
  expectEnvelope(lists.body);
  expect(lists.body.data).toEqual([]);
  const list = await api.post(api.account('/lists'), { name: `R1 ${stamp}` });
  expect(list.body.member_counts).toEqual({ unconfirmed: 0, confirmed: 0, unsubscribed: 0, complained: 0 });
});

test('R2: creating, updating, unsubscribing, resubscribing or deleting a contact never touches suppressions', async () => {
  const email = `r2.${stamp}@example.org`;
  const suppression = await api.post(api.account('/suppressions'), { email, expires_at: new Date(Date.now() + 30 * 86_400_000).toISOString(), reason: 'kept' });
  expect(suppression.status).toBe(201);
  const before = await api.get(api.account('/suppressions'));
  const created = await create({ email, unsubscribed: true });
  expect(created.status).toBe(201);
  expect((await api.put(contactPath(email), { first_name: 'R2', unsubscribed: false })).status).toBe(200);
  expect((await api.post(contactPath(email, '/unsubscribe'))).status).toBe(200);
  expect((await api.post(contactPath(email, '/resubscribe'))).status).toBe(200);
  expect((await api.delete(contactPath(email))).status).toBe(200);
  // An unsubscribed contact of a new address does not suppress it either.
  expect((await create({ email: `r2-new.${stamp}@example.org`, unsubscribed: true })).status).toBe(201);
  expect((await api.post(contactPath(`r2-new.${stamp}@example.org`, '/unsubscribe'))).status).toBe(200);
  const after = await api.get(api.account('/suppressions'));
  expect(after.body.data).toEqual(before.body.data);
});

test('R3: unsubscribe is reversible and keeps its history; delete is not the same', async () => {
  const email = `r3.${stamp}@example.org`;
  const created = await create({ email });
  const out = await api.post(contactPath(email, '/unsubscribe'));
  expect(out.status).toBe(200);
  expectContact(out.body);
  expect(out.body).toMatchObject({ id: created.body.id, unsubscribed: true, unsubscribed_at: expect.stringMatching(RFC3339) });
  // Again: nothing changes, the first time stays.
  const again = await api.post(contactPath(created.body.id, '/unsubscribe'));
  expect(again.body.unsubscribed_at).toBe(out.body.unsubscribed_at);
  const filtered = await api.get(contactsPath(api, `?unsubscribed=true&email=${segment(email)}`));
  expect(filtered.body.data.map((contact: { id: string }) => contact.id)).toEqual([created.body.id]);
  const back = await api.post(contactPath(email, '/resubscribe'));
  expect(back.body).toMatchObject({ id: created.body.id, unsubscribed: false, unsubscribed_at: null, attributes: {} });
  expect((await api.get(contactsPath(api, `?unsubscribed=true&email=${segment(email)}`))).body.data).toEqual([]);
  // Deleting is final: the address is gone, and creating it again makes a new contact.
  expect((await api.delete(contactPath(email))).body).toEqual({ message: `contact ${email} deleted` });
  expectError(await api.get(contactPath(email)), 404, 'contact not found');
  const recreated = await create({ email });
  expect(recreated.body.id).not.toBe(created.body.id);
});

test('R4: a write with an unknown attribute key, or a non-object, is 400 naming the key; reads return what was stored', async () => {
  const email = `r4.${stamp}@example.org`;
  expectError(await create({ email, attributes: { plan: 'gold' } }), 400, /^attributes\.plan: attribute `plan` is not defined for this account$/);
  expectError(await create({ email, attributes: { age: '12', vip: 'true' } }), 400, /^attributes\.age: .*\(and 1 more: vip\)$/);
  expectError(await create({ email, attributes: ['x'] }), 400, /^attributes: must be an object/);
  expectError(await create({ email, attributes: 'plan=gold' }), 400, /^attributes: must be an object/);
  const created = await create({ email, attributes: {} });
  expect(created.body.attributes).toEqual({});
  expectError(await api.put(contactPath(email), { attributes: { score: 1 } }), 400, /attributes\.score/);
  // Removing an undefined key is refused too: the API writes only defined keys.
  expectError(await api.put(contactPath(email), { attributes: { score: null } }), 400, /attributes\.score/);
});

test('R4: hostile attribute keys (__proto__, constructor) are refused by name and pollute nothing', async () => {
  const email = `r4-proto.${stamp}@example.org`;
  for (const raw of ['{"__proto__": {"polluted": true}}', '{"constructor": {"prototype": {"polluted": true}}}', '{"__proto__": 1}']) {
    const response = await api.request('POST', contactsPath(), { rawBody: `{"email": "${email}", "attributes": ${raw}}`, headers: { 'content-type': 'application/json' } });
    expectError(response, 400, /attributes\.(__proto__|constructor): attribute `(__proto__|constructor)` is not defined/);
  }
  const created = await create({ email });
  expect(created.body.attributes).toEqual({});
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
});

test('R5: an email with + in the path is percent-encoded once and decoded once', async () => {
  const email = `a+b.${stamp}@x.com`;
  const created = await create({ email });
  expect(created.status).toBe(201);
  const encoded = `a%2Bb.${stamp}%40x.com`;
  expect(segment(email)).toBe(encoded);
  const read = await api.get(contactsPath(api, `/${encoded}`));
  expect(read.status, read.text).toBe(200);
  expect(read.body.id).toBe(created.body.id);
  // Decoded twice, %252B would become "+"; decoded once it is "%2B", an address we do not have.
  expectError(await api.get(contactsPath(api, `/a%252Bb.${stamp}%2540x.com`)), 404, 'contact not found');
  // A + sent unencoded is a literal +, never a space.
  expect((await api.get(contactsPath(api, `/a+b.${stamp}@x.com`))).body.id).toBe(created.body.id);
  // The id works the same, and the address in any case.
  expect((await api.get(contactPath(created.body.id))).body.email).toBe(email);
  expect((await api.get(contactPath(email.toUpperCase()))).body.id).toBe(created.body.id);
  for (const suffix of ['/unsubscribe', '/resubscribe']) expect((await api.post(contactsPath(api, `/${encoded}${suffix}`))).status).toBe(200);
  expect((await api.put(contactsPath(api, `/${encoded}`), { first_name: 'Plus' })).body.first_name).toBe('Plus');
  expect((await api.delete(contactsPath(api, `/${encoded}`))).status).toBe(200);
});

test('PUT /contacts/{id_or_email} - partial update: omitted fields stay, null clears, a taken email is 409', async () => {
  const email = `put.${stamp}@example.org`;
  const created = await create({ email, first_name: 'First', last_name: 'Last' });
  const renamed = await api.put(contactPath(email), { last_name: null });
  expect(renamed.status).toBe(200);
  expectContact(renamed.body);
  expect(renamed.body).toMatchObject({ first_name: 'First', last_name: null, email });
  expect(Date.parse(renamed.body.updated_at)).toBeGreaterThanOrEqual(Date.parse(created.body.updated_at));
  const moved = await api.put(contactPath(created.body.id), { email: ` New.${stamp}@Example.org` });
  expect(moved.body.email).toBe(`new.${stamp}@example.org`);
  expectError(await api.get(contactPath(email)), 404);
  await create({ email: `taken.${stamp}@example.org` });
  expectError(await api.put(contactPath(created.body.id), { email: `TAKEN.${stamp}@example.org` }), 409, /already exists/);
  const unsubscribed = await api.put(contactPath(created.body.id), { unsubscribed: true });
  expect(unsubscribed.body).toMatchObject({ unsubscribed: true, unsubscribed_at: expect.stringMatching(RFC3339) });
  expect((await api.put(contactPath(created.body.id), {})).body.first_name).toBe('First');
});

test('GET /contacts - filters by email, unsubscribed and creation time, with pagination', async () => {
  const { api: own } = await newAccount('Contacts paging');
  const ids: string[] = [];
  for (let index = 0; index < 5; index++) ids.push((await create({ email: `page${index}@example.org`, first_name: `P${index}` }, own)).body.id);
  const first = await own.get(contactsPath(own, '?limit=2'));
  expectEnvelope(first.body);
  first.body.data.forEach(expectContact);
  expect(first.body.data.map((contact: { id: string }) => contact.id)).toEqual([ids[4], ids[3]]);
  expect(first.body.pagination).toEqual({ has_more: true, next_cursor: expect.any(String) });
  const second = await own.get(contactsPath(own, `?limit=2&after=${first.body.pagination.next_cursor}`));
  expect(second.body.data.map((contact: { id: string }) => contact.id)).toEqual([ids[2], ids[1]]);
  const back = await own.get(contactsPath(own, `?limit=2&before=${second.body.pagination.previous_cursor}`));
  expect(back.body.data.map((contact: { id: string }) => contact.id)).toEqual([ids[4], ids[3]]);
  const legacy = await own.get(contactsPath(own, `?limit=2&cursor=${first.body.pagination.next_cursor}`));
  expect(legacy.body.data.map((contact: { id: string }) => contact.id)).toEqual([ids[2], ids[1]]);
  expect((await own.get(contactsPath(own, '?email=PAGE3@example.org'))).body.data.map((contact: { id: string }) => contact.id)).toEqual([ids[3]]);
  expect((await own.get(contactsPath(own, '?unsubscribed=true'))).body.data).toEqual([]);
  expect((await own.get(contactsPath(own, '?unsubscribed=false&email='))).body.data).toHaveLength(5);
  const future = new Date(Date.now() + 3_600_000).toISOString();
  expect((await own.get(contactsPath(own, `?created_after=${encodeURIComponent(future)}`))).body.data).toEqual([]);
  expect((await own.get(contactsPath(own, `?created_before=${encodeURIComponent(future)}`))).body.data).toHaveLength(5);
  expect((await own.get(contactsPath(own, '?search=PAGE1'))).body.data.map((contact: { id: string }) => contact.id)).toEqual([ids[1]]);
  expect((await own.get(contactsPath(own, `?search=${encodeURIComponent("' or 1=1 --")}`))).body.data).toEqual([]);
  expect((await own.get(contactsPath(own, `?search=${encodeURIComponent('%')}`))).body.data).toEqual([]);
});

test.describe('GET /contacts - bad filters are 400 naming them', () => {
  const cases: [string, string][] = [
    ['unsubscribed=yes', 'unsubscribed'],
    ['created_after=yesterday', 'created_after'],
    ['created_before=2024-01-01', 'created_before'],
    ['email=not-an-address', 'email'],
    ['limit=0', 'limit'],
    ['limit=101', 'limit'],
    ['after=nonsense', 'after'],
    [`after=${Buffer.from(JSON.stringify({ id: '01a20000-0000-7000-8000-000000000000' })).toString('base64url')}&before=x`, 'before'],
    ['list_id=12', 'list_id'],
    ['attribute_key=plan', 'attribute_value'],
  ];
  for (const [query, field] of cases) {
    test(`?${query.slice(0, 40)}`, async () => {
      expectError(await api.get(contactsPath(api, `?${query}`)), 400, new RegExp(field));
    });
  }
});

test.describe('POST and PUT /contacts - bad bodies are 400 naming the field', () => {
  const valid = { email: `bad.${stamp}@example.org`, first_name: 'B', last_name: 'I', attributes: {}, unsubscribed: false };
  const cases: { name: string; body: Record<string, unknown>; field: string; message?: RegExp }[] = [
    ...badInputCases(createContactSchema, valid),
    { name: 'an invalid email', body: { email: 'no at sign' }, field: 'email', message: /invalid email address/ },
    { name: 'an email with a quoted local part', body: { email: '"a b"@example.org' }, field: 'email', message: /invalid email address/ },
    { name: 'an email with two @', body: { email: 'a@b@example.org' }, field: 'email' },
    { name: 'an email with SQL in it', body: { email: "x'; drop table contacts; --@example.org" }, field: 'email', message: /invalid email address/ },
    { name: 'an empty email', body: { email: '' }, field: 'email' },
    { name: 'a 256-character first name', body: { email: valid.email, first_name: 'n'.repeat(256) }, field: 'first_name' },
    { name: 'unsubscribed as a string', body: { email: valid.email, unsubscribed: 'true' }, field: 'unsubscribed' },
  ];
  for (const badCase of cases) {
    test(`POST ${badCase.name}`, async () => {
      expectError(await create(badCase.body), 400, badCase.message ?? new RegExp(`^${badCase.field.replace('.', '\\.')}`));
    });
  }
  for (const badCase of badInputCases(updateContactSchema, { first_name: 'X' })) {
    test(`PUT ${badCase.name}`, async () => {
      const target = await create({ email: `put-bad.${randomUUID()}@example.org` });
      expectError(await api.put(contactPath(target.body.id), badCase.body), 400, new RegExp(badCase.field));
    });
  }
  test('a body that is not JSON', async () => {
    expectError(await api.request('POST', contactsPath(), { rawBody: '{"email":', headers: { 'content-type': 'application/json' } }), 400);
  });
});

test('hostile values: SQL metacharacters, unicode and very long names are stored and returned as given', async () => {
  const names = ["Robert'); DROP TABLE contacts;--", 'Zoë 张伟 🙂', '\\%_$1 ${x} {{ name }}', 'x'.repeat(255)];
  for (const [index, name] of names.entries()) {
    const email = `hostile${index}.${stamp}@example.org`;
    const created = await create({ email, first_name: name, last_name: name });
    expect(created.status, created.text).toBe(201);
    expect((await api.get(contactPath(email))).body).toMatchObject({ first_name: name, last_name: name });
  }
  // An internationalised domain is stored as its A-label.
  const idn = await create({ email: `idn.${stamp}@bücher.example` });
  expect(idn.body.email).toBe(`idn.${stamp}@xn--bcher-kva.example`);
  expectError(await create({ email: `${'l'.repeat(65)}@example.org` }), 400, /email/);
  expectError(await create({ email: `x@${'d'.repeat(320)}.org` }), 400, /email/);
});

test('unknown contacts and ids that are not contacts are 404 on every route', async () => {
  for (const idOrEmail of [randomUUID(), `nobody.${stamp}@example.org`, 'import', 'not an address', "' or '1'='1"]) {
    expectError(await api.get(contactPath(idOrEmail)), 404, 'contact not found');
    expectError(await api.put(contactPath(idOrEmail), { first_name: 'x' }), 404, 'contact not found');
    expectError(await api.delete(contactPath(idOrEmail)), 404, 'contact not found');
    expectError(await api.post(contactPath(idOrEmail, '/unsubscribe')), 404, 'contact not found');
    expectError(await api.post(contactPath(idOrEmail, '/resubscribe')), 404, 'contact not found');
    // `/contacts/import/lists` is the import route's (an import id that is not one): 404 all the same.
    expectError(await api.get(contactPath(idOrEmail, '/lists')), 404, idOrEmail === 'import' ? /not found/ : 'contact not found');
  }
});

test("tenancy: another account's contact is 404 by id and by email, and never listed", async () => {
  const email = `tenant.${stamp}@example.org`;
  const theirs = await create({ email }, other);
  expect(theirs.status).toBe(201);
  for (const idOrEmail of [theirs.body.id, email]) {
    expectError(await api.get(contactPath(idOrEmail)), 404);
    expectError(await api.put(contactPath(idOrEmail), { first_name: 'stolen' }), 404);
    expectError(await api.post(contactPath(idOrEmail, '/unsubscribe')), 404);
    expectError(await api.delete(contactPath(idOrEmail)), 404);
  }
  expect((await api.get(contactsPath(api, `?email=${segment(email)}`))).body.data).toEqual([]);
  // Another account's id in our URL is refused before anything is looked up.
  expect((await api.get(`/v2/accounts/${other.accountId}/contacts/${theirs.body.id}`)).status).toBe(401);
  expect((await other.get(contactPath(email, '', other))).body).toMatchObject({ first_name: null, unsubscribed: false });
});

test('scopes: contacts:read reads, contacts:write writes, contacts:delete deletes, lists:read lists memberships', async () => {
  const email = `scopes.${stamp}@example.org`;
  await create({ email });
  const reader = await keyWith(['contacts:read']);
  const writer = await keyWith(['contacts:write']);
  const deleter = await keyWith(['contacts:delete']);
  const lists = await keyWith(['lists:read']);
  expect((await reader.get(contactsPath(reader))).status).toBe(200);
  expect((await reader.get(contactPath(email, '', reader))).status).toBe(200);
  expectError(await reader.post(contactsPath(reader), { email: `nope.${stamp}@example.org` }), 403);
  expectError(await reader.put(contactPath(email, '', reader), { first_name: 'x' }), 403);
  expectError(await reader.post(contactPath(email, '/unsubscribe', reader)), 403);
  expectError(await reader.get(contactPath(email, '/lists', reader)), 403);
  expectError(await writer.get(contactPath(email, '', writer)), 403);
  expectError(await writer.delete(contactPath(email, '', writer)), 403);
  expect((await writer.post(contactPath(email, '/unsubscribe', writer))).status).toBe(200);
  expect((await writer.post(contactPath(email, '/resubscribe', writer))).status).toBe(200);
  expect((await lists.get(contactPath(email, '/lists', lists))).status).toBe(200);
  expectError(await lists.get(contactPath(email, '', lists)), 403);
  // The scope is checked before the body is read: a bad body still answers 403.
  expectError(await reader.post(contactsPath(reader), { email: 12 }), 403);
  expect((await deleter.delete(contactPath(email, '', deleter))).status).toBe(200);
});

test('POST /contacts - parallel creates with one Idempotency-Key create one contact', async () => {
  const key = randomUUID();
  const email = `idem.${stamp}@example.org`;
  const responses = await Promise.all(Array.from({ length: 10 }, () => create({ email, first_name: 'Idem' }, api, { 'Idempotency-Key': key })));
  const created = responses.filter((response) => response.status === 201);
  expect(created.length).toBeGreaterThanOrEqual(1);
  for (const response of responses) {
    if (response.status === 409) {
      expect(response.headers.get('idempotent-replayed')).toBe('false');
      expect(Number(response.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    } else expect(response.status).toBe(201);
  }
  expect(new Set(created.map((response) => response.body.id)).size).toBe(1);
  const replay = await create({ email, first_name: 'Idem' }, api, { 'Idempotency-Key': key });
  expect(replay.status).toBe(201);
  expect(replay.headers.get('idempotent-replayed')).toBe('true');
  expect(replay.body.id).toBe(created[0].body.id);
  expect((await api.get(contactsPath(api, `?email=${segment(email)}`))).body.data).toHaveLength(1);
  expect((await create({ email, first_name: 'Other' }, api, { 'Idempotency-Key': key })).status).toBe(422);
});

test('POST /contacts - parallel creates of one address without a key make one contact and 409s', async () => {
  const email = `race.${stamp}@example.org`;
  const responses = await Promise.all(Array.from({ length: 8 }, () => create({ email })));
  expect(responses.map((response) => response.status).sort()).toEqual([201, 409, 409, 409, 409, 409, 409, 409]);
});

test('/internal contact attribute routes take dashboard sessions only', async () => {
  const path = `/internal/accounts/${api.accountId}/contact-attributes`;
  expect((await api.get(path, { checkContract: false })).status).toBe(401);
  expect((await api.post(path, { key: 'plan', type: 'string' }, { checkContract: false })).status).toBe(401);
  // And no v2 endpoint manages definitions (R4).
  expect((await api.get(api.account('/contact-attributes'))).status).toBe(404);
});

test('GET /contacts/{id_or_email}/lists - memberships with the contract fields, deleted lists included', async () => {
  const email = `lists.${stamp}@example.org`;
  const contact = await create({ email });
  const kept = await api.post(api.account('/lists'), { name: 'Kept' });
  const gone = await api.post(api.account('/lists'), { name: 'Gone' });
  expect((await api.post(api.account(`/lists/${kept.body.id}/members`), { contact: email })).status).toBe(201);
  expect((await api.post(api.account(`/lists/${gone.body.id}/members`), { contact: contact.body.id, subscription_status: 'unsubscribed' })).status).toBe(201);
  expect((await api.delete(api.account(`/lists/${gone.body.id}`))).status).toBe(200);
  const lists = await api.get(contactPath(email, '/lists'));
  expectEnvelope(lists.body);
  for (const membership of lists.body.data) {
    expect(Object.keys(membership).sort()).toEqual(MEMBERSHIP_FIELDS);
    expect(membership.contact_id).toBe(contact.body.id);
  }
  expect(lists.body.data.map((membership: { list_id: string; subscription_status: string }) => [membership.list_id, membership.subscription_status])).toEqual([
    [gone.body.id, 'unsubscribed'],
    [kept.body.id, 'confirmed'],
  ]);
  const paged = await api.get(contactPath(email, '/lists?limit=1'));
  expect(paged.body.pagination.has_more).toBe(true);
  const rest = await api.get(contactPath(email, `/lists?limit=1&after=${paged.body.pagination.next_cursor}`));
  expect(rest.body.data[0].list_id).toBe(kept.body.id);
  // Deleting the contact removes its memberships, deleted lists' included.
  expect((await api.delete(contactPath(email))).status).toBe(200);
  expect((await api.get(api.account(`/lists/${kept.body.id}`))).body.member_counts.confirmed).toBe(0);
});

test('the OpenAPI document lists the contacts endpoints with their scopes and decisions', async () => {
  const document = (await api.get('/v2/openapi.json', { apiKey: null })).body;
  const item = document.paths['/v2/accounts/{account_id}/contacts/{id_or_email}'];
  expect(item.get.security).toEqual([{ BearerAuth: ['contacts:read'] }]);
  expect(item.put.description).toMatch(/Partial update/);
  expect(item.delete.security).toEqual([{ BearerAuth: ['contacts:delete'] }]);
  expect(document.paths['/v2/accounts/{account_id}/contacts/{id_or_email}/lists'].get.security).toEqual([{ BearerAuth: ['lists:read'] }]);
  expect(document.paths['/v2/accounts/{account_id}/contacts'].post.description).toMatch(/R1/);
  expect(document.components.schemas.Contact.required.sort()).toEqual(CONTACT_FIELDS);
});

/**
 * The owner's dashboard session, minted the way next-auth mints it with the server's own key (the
 * API suites run without a dashboard build, so there is no sign-in page to go through).
 */
async function ownerSession(): Promise<Record<string, string>> {
  const { baseUrl, dataDir } = sharedServer();
  const secretFromEnv = process.env.MAILSTEAD_TEST_DATABASE_URL ? process.env.MAILSTEAD_TEST_SECRET : undefined;
  const masterKey = secretFromEnv ? Buffer.from(secretFromEnv, 'utf8') : Buffer.from(readFileSync(path.join(dataDir, 'master.key'), 'utf8').trim(), 'base64');
  const secret = new SecretBox(masterKey).deriveKey('dashboard-session').toString('base64url');
  const token = await encode({ token: { userId: ownerId, sessionVersion: 0 }, secret });
  return { cookie: `__Secure-next-auth.session-token=${token}`, origin: new URL(baseUrl).origin };
}

test.describe('attribute definitions (R4) through the dashboard session', () => {
  let session: Record<string, string>;
  let dashboard: ApiClient;
  const definitions = () => `/internal/accounts/${api.accountId}/contact-attributes`;
  const call = (method: string, path: string, body?: unknown) => dashboard.request(method, path, { body, headers: session, checkContract: false });

  test.beforeAll(async () => {
    session = await ownerSession();
    dashboard = api.with(null);
  });

  test('R4: definitions are created, listed, relabelled and deleted by a session; bad keys and types are 400', async () => {
    const me = await call('GET', '/internal/me');
    expect(me.status, me.text).toBe(200);
    for (const [key, type] of [['plan', 'string'], ['age', 'number'], ['vip', 'boolean'], ['birthday', 'date'], ['seen_at', 'datetime']]) {
      const created = await call('POST', definitions(), { key, type, label: key.toUpperCase() });
      expect(created.status, created.text).toBe(201);
      expect(created.body).toEqual({ object: 'contact_attribute', key, type, label: key.toUpperCase(), created_at: expect.stringMatching(RFC3339), updated_at: expect.stringMatching(RFC3339) });
    }
    expectError(await call('POST', definitions(), { key: 'plan', type: 'string' }), 409, /already exists/);
    for (const key of ['__proto__', 'constructor!', 'Plan', '1st', 'email', 'x'.repeat(64), "a'; drop"]) {
      expectError(await call('POST', definitions(), { key, type: 'string' }), 400, /^key: /);
    }
    expectError(await call('POST', definitions(), { key: 'colour', type: 'color' }), 400, /^type: must be one of string, number, boolean, date, datetime/);
    const listed = await call('GET', definitions());
    expect(listed.body.data.map((definition: { key: string }) => definition.key)).toEqual(['age', 'birthday', 'plan', 'seen_at', 'vip']);
    expect((await call('PUT', `${definitions()}/plan`, { label: 'Plan name' })).body).toMatchObject({ key: 'plan', type: 'string', label: 'Plan name' });
    expectError(await call('PUT', `${definitions()}/nothing`, { label: 'x' }), 404);
  });

  test('R4: writes accept only canonical values, naming the key and the expected form; reads return what was stored', async () => {
    const email = `r4-values.${stamp}@example.org`;
    const refused: [Record<string, unknown>, RegExp][] = [
      [{ age: '12' }, /^attributes\.age: attribute `age` must be a number, e\.g\. 42$/],
      [{ vip: 'true' }, /^attributes\.vip: attribute `vip` must be a boolean, e\.g\. true$/],
      [{ birthday: '2024-1-5' }, /^attributes\.birthday: attribute `birthday` must be a date as "YYYY-MM-DD"/],
      [{ birthday: '2023-02-30' }, /attributes\.birthday/],
      [{ seen_at: '2024-01-05 10:30' }, /^attributes\.seen_at: attribute `seen_at` must be an RFC 3339 datetime/],
      [{ plan: 42 }, /^attributes\.plan: attribute `plan` must be a string/],
      [{ plan: { nested: 'object' } }, /attributes\.plan/],
      [{ unknown_key: 1 }, /^attributes\.unknown_key: attribute `unknown_key` is not defined/],
      [{ plan: 'x'.repeat(10_001) }, /^attributes\.plan: attribute `plan` must be at most 10000 characters$/],
    ];
    for (const [attributes, message] of refused) expectError(await create({ email, attributes }), 400, message);
    const attributes = { plan: "gold'); --", age: 42.5, vip: false, birthday: '2024-02-29', seen_at: '2024-01-05T10:30:00+02:00' };
    const created = await create({ email, attributes });
    expect(created.status, created.text).toBe(201);
    expect(created.body.attributes).toEqual(attributes);
    const updated = await api.put(contactPath(email), { attributes: { vip: null, age: 7 } });
    expect(updated.body.attributes).toEqual({ plan: "gold'); --", age: 7, birthday: '2024-02-29', seen_at: '2024-01-05T10:30:00+02:00' });
    expectError(await api.put(contactPath(email), { attributes: { age: '7' } }), 400, /attributes\.age/);
    expect((await api.get(contactsPath(api, '?attribute_key=plan&attribute_value=' + encodeURIComponent("gold'); --")))).body.data.map((contact: { email: string }) => contact.email)).toEqual([email]);
  });

  test("R4: a type change is 409 while contacts hold values, saying how many; deleting clears the values", async () => {
    expectError(await call('PUT', `${definitions()}/age`, { type: 'string' }), 409, /^1 contact holds a value of type number for age/);
    const deleted = await call('DELETE', `${definitions()}/age`);
    expect(deleted.status, deleted.text).toBe(200);
    expect(deleted.body.message).toMatch(/removed from 1 contact$/);
    expect((await api.get(contactPath(`r4-values.${stamp}@example.org`))).body.attributes).not.toHaveProperty('age');
    expect((await call('POST', definitions(), { key: 'age', type: 'string' })).status).toBe(201);
    expect((await api.put(contactPath(`r4-values.${stamp}@example.org`), { attributes: { age: 'forty' } })).body.attributes.age).toBe('forty');
  });

  test('R3: the subscription history of a contact, newest first, kept across unsubscribe and resubscribe', async () => {
    const email = `r3-history.${stamp}@example.org`;
    await create({ email, unsubscribed: true });
    await api.post(contactPath(email, '/resubscribe'));
    await call('POST', contactPath(email, '/unsubscribe'));
    const history = await call('GET', `/internal/accounts/${api.accountId}/contacts/${segment(email)}/subscription-events`);
    expect(history.status, history.text).toBe(200);
    expect(history.body.data.map((event: { type: string; source: string }) => `${event.type} ${event.source}`)).toEqual(['unsubscribed dashboard', 'resubscribed api', 'unsubscribed api']);
    expect(history.body.data[0]).toEqual({ object: 'contact_subscription_event', type: 'unsubscribed', source: 'dashboard', list_id: null, created_at: expect.stringMatching(RFC3339) });
  });

  test('attribute definitions of another account are not reachable with this session', async () => {
    const path = `/internal/accounts/${other.accountId}/contact-attributes`;
    const response = await call('GET', path);
    expect([401, 403, 404]).toContain(response.status);
  });
});
