import { randomUUID } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { createContactSchema, updateContactSchema } from '../../lib/core/contacts/schemas';
import { badInputCases } from '../support/bad-input';
import type { ApiClient } from '../support/client';
import {
  CONTACT_FIELDS,
  MEMBERSHIP_FIELDS,
  RFC3339,
  contactAccounts,
  contactHelpers,
  expectContact,
  expectEnvelope,
  expectError,
  segment,
} from '../support/contact-fixtures';
import { newAccount } from '../support/shared';

/**
 * The contacts API (marketing-api.md, Contacts; rules R1-R5 of service-spec.md) on the shared
 * server: CRUD, the rules, listing and filters, bad input, memberships. These paths are not in the
 * AhaSend reference, so the shapes are checked here against the contract's field lists. Hostile
 * values, tenancy, scopes and concurrency are in contacts-boundaries.spec.ts; attribute definitions in
 * contacts-attributes.spec.ts.
 */
let api: ApiClient;
let other: ApiClient;
const stamp = Date.now().toString(36);

test.beforeAll(async () => {
  ({ api, other } = await contactAccounts());
});

test.describe.configure({ mode: 'serial' });

const { contactsPath, contactPath, create } = contactHelpers(() => api);

test('POST /contacts - 201 with a Contact: email trimmed and lowercased, no attributes, subscribed', async () => {
  const created = await create({ email: `  Ada.${stamp}@Example.ORG `, first_name: 'Ada', last_name: 'Lovelace' });
  expect(created.status, created.text).toBe(201);
  expectContact(created.body);
  expect(created.body).toMatchObject({
    email: `ada.${stamp}@example.org`,
    first_name: 'Ada',
    last_name: 'Lovelace',
    attributes: {},
    unsubscribed: false,
    unsubscribed_at: null,
  });
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
  const suppression = await api.post(api.account('/suppressions'), {
    email,
    expires_at: new Date(Date.now() + 30 * 86_400_000).toISOString(),
    reason: 'kept',
  });
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
  expect(out.body).toMatchObject({
    id: created.body.id,
    unsubscribed: true,
    unsubscribed_at: expect.stringMatching(RFC3339),
  });
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
  expectError(
    await create({ email, attributes: { plan: 'gold' } }),
    400,
    /^attributes\.plan: attribute `plan` is not defined for this account$/,
  );
  expectError(
    await create({ email, attributes: { age: '12', vip: 'true' } }),
    400,
    /^attributes\.age: .*\(and 1 more: vip\)$/,
  );
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
  for (const raw of [
    '{"__proto__": {"polluted": true}}',
    '{"constructor": {"prototype": {"polluted": true}}}',
    '{"__proto__": 1}',
  ]) {
    const response = await api.request('POST', contactsPath(), {
      rawBody: `{"email": "${email}", "attributes": ${raw}}`,
      headers: { 'content-type': 'application/json' },
    });
    expectError(
      response,
      400,
      /attributes\.(__proto__|constructor): attribute `(__proto__|constructor)` is not defined/,
    );
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
  for (const suffix of ['/unsubscribe', '/resubscribe'])
    expect((await api.post(contactsPath(api, `/${encoded}${suffix}`))).status).toBe(200);
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
  expectError(
    await api.put(contactPath(created.body.id), { email: `TAKEN.${stamp}@example.org` }),
    409,
    /already exists/,
  );
  const unsubscribed = await api.put(contactPath(created.body.id), { unsubscribed: true });
  expect(unsubscribed.body).toMatchObject({ unsubscribed: true, unsubscribed_at: expect.stringMatching(RFC3339) });
  expect((await api.put(contactPath(created.body.id), {})).body.first_name).toBe('First');
});

test('GET /contacts - filters by email, unsubscribed and creation time, with pagination', async () => {
  const { api: own } = await newAccount('Contacts paging');
  const ids: string[] = [];
  for (let index = 0; index < 5; index++)
    ids.push((await create({ email: `page${index}@example.org`, first_name: `P${index}` }, own)).body.id);
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
  expect(
    (await own.get(contactsPath(own, '?email=PAGE3@example.org'))).body.data.map(
      (contact: { id: string }) => contact.id,
    ),
  ).toEqual([ids[3]]);
  expect((await own.get(contactsPath(own, '?unsubscribed=true'))).body.data).toEqual([]);
  expect((await own.get(contactsPath(own, '?unsubscribed=false&email='))).body.data).toHaveLength(5);
  const future = new Date(Date.now() + 3_600_000).toISOString();
  expect((await own.get(contactsPath(own, `?created_after=${encodeURIComponent(future)}`))).body.data).toEqual([]);
  expect((await own.get(contactsPath(own, `?created_before=${encodeURIComponent(future)}`))).body.data).toHaveLength(5);
  expect(
    (await own.get(contactsPath(own, '?search=PAGE1'))).body.data.map((contact: { id: string }) => contact.id),
  ).toEqual([ids[1]]);
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
    [
      `after=${Buffer.from(JSON.stringify({ id: '01a20000-0000-7000-8000-000000000000' })).toString('base64url')}&before=x`,
      'before',
    ],
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
  const valid = {
    email: `bad.${stamp}@example.org`,
    first_name: 'B',
    last_name: 'I',
    attributes: {},
    unsubscribed: false,
  };
  const cases: { name: string; body: Record<string, unknown>; field: string; message?: RegExp }[] = [
    ...badInputCases(createContactSchema, valid),
    { name: 'an invalid email', body: { email: 'no at sign' }, field: 'email', message: /invalid email address/ },
    {
      name: 'an email with a quoted local part',
      body: { email: '"a b"@example.org' },
      field: 'email',
      message: /invalid email address/,
    },
    { name: 'an email with two @', body: { email: 'a@b@example.org' }, field: 'email' },
    {
      name: 'an email with SQL in it',
      body: { email: "x'; drop table contacts; --@example.org" },
      field: 'email',
      message: /invalid email address/,
    },
    { name: 'an empty email', body: { email: '' }, field: 'email' },
    {
      name: 'a 256-character first name',
      body: { email: valid.email, first_name: 'n'.repeat(256) },
      field: 'first_name',
    },
    { name: 'unsubscribed as a string', body: { email: valid.email, unsubscribed: 'true' }, field: 'unsubscribed' },
  ];
  for (const badCase of cases) {
    test(`POST ${badCase.name}`, async () => {
      expectError(
        await create(badCase.body),
        400,
        badCase.message ?? new RegExp(`^${badCase.field.replace('.', '\\.')}`),
      );
    });
  }
  for (const badCase of badInputCases(updateContactSchema, { first_name: 'X' })) {
    test(`PUT ${badCase.name}`, async () => {
      const target = await create({ email: `put-bad.${randomUUID()}@example.org` });
      expectError(await api.put(contactPath(target.body.id), badCase.body), 400, new RegExp(badCase.field));
    });
  }
  test('a body that is not JSON', async () => {
    expectError(
      await api.request('POST', contactsPath(), {
        rawBody: '{"email":',
        headers: { 'content-type': 'application/json' },
      }),
      400,
    );
  });
});

test('GET /contacts/{id_or_email}/lists - memberships with the contract fields, deleted lists included', async () => {
  const email = `lists.${stamp}@example.org`;
  const contact = await create({ email });
  const kept = await api.post(api.account('/lists'), { name: 'Kept' });
  const gone = await api.post(api.account('/lists'), { name: 'Gone' });
  expect((await api.post(api.account(`/lists/${kept.body.id}/members`), { contact: email })).status).toBe(201);
  expect(
    (
      await api.post(api.account(`/lists/${gone.body.id}/members`), {
        contact: contact.body.id,
        subscription_status: 'unsubscribed',
      })
    ).status,
  ).toBe(201);
  expect((await api.delete(api.account(`/lists/${gone.body.id}`))).status).toBe(200);
  const lists = await api.get(contactPath(email, '/lists'));
  expectEnvelope(lists.body);
  for (const membership of lists.body.data) {
    expect(Object.keys(membership).sort()).toEqual(MEMBERSHIP_FIELDS);
    expect(membership.contact_id).toBe(contact.body.id);
  }
  expect(
    lists.body.data.map((membership: { list_id: string; subscription_status: string }) => [
      membership.list_id,
      membership.subscription_status,
    ]),
  ).toEqual([
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
  expect(document.paths['/v2/accounts/{account_id}/contacts/{id_or_email}/lists'].get.security).toEqual([
    { BearerAuth: ['lists:read'] },
  ]);
  expect(document.paths['/v2/accounts/{account_id}/contacts'].post.description).toMatch(/R1/);
  expect(document.components.schemas.Contact.required.sort()).toEqual(CONTACT_FIELDS);
});
