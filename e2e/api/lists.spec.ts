import { randomUUID } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { addListMembersSchema, createListSchema, updateListMemberSchema, updateListSchema } from '../../lib/core/lists/schemas';
import { badInputCases } from '../support/bad-input';
import type { ApiClient, ApiResponse } from '../support/client';
import { newAccount } from '../support/shared';

/**
 * The lists API (marketing-api.md, Lists; rules R6-R12 of service-spec.md) on the shared server.
 * These paths are not in the AhaSend reference, so the shapes are checked here against the
 * contract's field lists. `complained` can only come from a complaint report, which is not built
 * yet; R9's freeze is covered by the verb tests (tests/lib/core/lists), its 400 here.
 */
let api: ApiClient;
let other: ApiClient;
const stamp = Date.now().toString(36);
const emails = Array.from({ length: 6 }, (_, index) => `member${index}.${stamp}@example.org`);
const contactIds: string[] = [];

test.beforeAll(async () => {
  ({ api } = await newAccount('Lists'));
  ({ api: other } = await newAccount('Lists (other account)'));
  for (const email of emails) {
    const created = await api.post(api.account('/contacts'), { email, first_name: email.slice(0, 7) });
    expect(created.status).toBe(201);
    contactIds.push(created.body.id);
  }
});

test.describe.configure({ mode: 'serial' });

const LIST_FIELDS = ['created_at', 'description', 'id', 'member_counts', 'name', 'object', 'updated_at'];
const MEMBERSHIP_FIELDS = ['contact_id', 'created_at', 'list_id', 'object', 'subscription_status', 'updated_at'];
const CONTACT_FIELDS = ['attributes', 'created_at', 'email', 'first_name', 'id', 'last_name', 'object', 'unsubscribed', 'unsubscribed_at', 'updated_at'];
const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

function expectList(body: any) {
  expect(Object.keys(body).sort()).toEqual(LIST_FIELDS);
  expect(body.object).toBe('contact_list');
  expect(body.id).toMatch(UUID);
  expect(typeof body.name).toBe('string');
  expect(body.description === null || typeof body.description === 'string').toBe(true);
  expect(Object.keys(body.member_counts).sort()).toEqual(['complained', 'confirmed', 'unconfirmed', 'unsubscribed']);
  for (const count of Object.values(body.member_counts)) expect(Number.isInteger(count)).toBe(true);
  expect(body.created_at).toMatch(RFC3339);
  expect(body.updated_at).toMatch(RFC3339);
}

function expectMembership(body: any, withContact = false) {
  expect(Object.keys(body).sort()).toEqual(withContact ? [...MEMBERSHIP_FIELDS, 'contact'].sort() : MEMBERSHIP_FIELDS);
  expect(body.object).toBe('list_membership');
  expect(body.list_id).toMatch(UUID);
  expect(body.contact_id).toMatch(UUID);
  expect(['unconfirmed', 'confirmed', 'unsubscribed', 'complained']).toContain(body.subscription_status);
  expect(body.created_at).toMatch(RFC3339);
  expect(body.updated_at).toMatch(RFC3339);
  if (withContact) {
    expect(Object.keys(body.contact).sort()).toEqual(CONTACT_FIELDS);
    expect(body.contact.id).toBe(body.contact_id);
  }
}

function expectEnvelope(body: any) {
  expect(Object.keys(body).sort()).toEqual(['data', 'object', 'pagination']);
  expect(body.object).toBe('list');
  expect(typeof body.pagination.has_more).toBe('boolean');
}

function expectError(response: ApiResponse, status: number, message?: RegExp | string) {
  expect(response.status, response.text).toBe(status);
  expect(Object.keys(response.body)).toEqual(['message']);
  if (message !== undefined) expect(response.body.message).toMatch(message);
}

const lists = (client = api, suffix = '') => client.account(`/lists${suffix}`);
const membersOf = (listId: string, suffix = '', client = api) => lists(client, `/${listId}/members${suffix}`);
const memberPath = (listId: string, idOrEmail: string, client = api) => membersOf(listId, `/${encodeURIComponent(idOrEmail)}`, client);
async function newList(name = `List ${randomUUID().slice(0, 8)}`, client = api): Promise<string> {
  const created = await client.post(lists(client), { name });
  expect(created.status, created.text).toBe(201);
  return created.body.id;
}
const counts = async (listId: string) => (await api.get(lists(api, `/${listId}`))).body.member_counts;

async function keyWith(scopes: string[]): Promise<ApiClient> {
  const created = await api.post(api.account('/api-keys'), { label: `lists ${scopes.join(' ')}`, scopes });
  expect(created.status).toBe(201);
  return api.with(created.body.secret_key);
}

test('POST /lists - 201 with a ContactList; GET, PUT and GET /lists show it', async () => {
  const created = await api.post(lists(), { name: '  Weekly news ', description: 'Every Monday' });
  expect(created.status).toBe(201);
  expectList(created.body);
  expect(created.body).toMatchObject({ name: 'Weekly news', description: 'Every Monday', member_counts: { unconfirmed: 0, confirmed: 0, unsubscribed: 0, complained: 0 } });
  const read = await api.get(lists(api, `/${created.body.id}`));
  expect(read.body).toEqual(created.body);
  const renamed = await api.put(lists(api, `/${created.body.id}`), { name: 'Weekly' });
  expectList(renamed.body);
  expect(renamed.body).toMatchObject({ name: 'Weekly', description: 'Every Monday' });
  expect((await api.put(lists(api, `/${created.body.id}`), { description: null })).body.description).toBeNull();
  const all = await api.get(lists());
  expectEnvelope(all.body);
  all.body.data.forEach(expectList);
  expect(all.body.data.map((list: { id: string }) => list.id)).toContain(created.body.id);
});

test('GET /lists - newest first with cursor pagination', async () => {
  const { api: own } = await newAccount('Lists paging');
  const ids: string[] = [];
  for (let index = 0; index < 3; index++) ids.push(await newList(`Page ${index}`, own));
  const first = await own.get(lists(own, '?limit=2'));
  expect(first.body.data.map((list: { id: string }) => list.id)).toEqual([ids[2], ids[1]]);
  expect(first.body.pagination.has_more).toBe(true);
  const second = await own.get(lists(own, `?limit=2&after=${first.body.pagination.next_cursor}`));
  expect(second.body.data.map((list: { id: string }) => list.id)).toEqual([ids[0]]);
  expect(second.body.pagination).toEqual({ has_more: false, previous_cursor: expect.any(String) });
});

test('R6: a list is a static container: it holds exactly the contacts added to it', async () => {
  const listId = await newList();
  expect((await api.post(api.account('/contacts'), { email: `r6.${stamp}@example.org` })).status).toBe(201);
  expect(await counts(listId)).toEqual({ unconfirmed: 0, confirmed: 0, unsubscribed: 0, complained: 0 });
  expect((await api.post(membersOf(listId), { contacts: emails.slice(0, 2) })).status).toBe(201);
  const members = await api.get(membersOf(listId));
  expect(members.body.data.map((member: { contact_id: string }) => member.contact_id).sort()).toEqual(contactIds.slice(0, 2).sort());
});

test("R7: a membership's status is per list and independent of the contact's unsubscribed flag", async () => {
  const first = await newList();
  const second = await newList();
  await api.post(membersOf(first), { contact: emails[0], subscription_status: 'unsubscribed' });
  await api.post(membersOf(second), { contact: emails[0] });
  expect((await api.get(memberPath(first, emails[0]).replace(/\/members\/.*/, `/members?subscription_status=unsubscribed`))).body.data.map((member: { contact_id: string }) => member.contact_id)).toEqual([contactIds[0]]);
  expect((await api.post(api.account(`/contacts/${encodeURIComponent(emails[0])}/unsubscribe`))).body.unsubscribed).toBe(true);
  expect(await counts(second)).toMatchObject({ confirmed: 1, unsubscribed: 0 });
  expect((await api.post(api.account(`/contacts/${encodeURIComponent(emails[0])}/resubscribe`))).body.unsubscribed).toBe(false);
  expect(await counts(first)).toMatchObject({ confirmed: 0, unsubscribed: 1 });
  for (const status of ['unconfirmed', 'confirmed', 'unsubscribed']) {
    const updated = await api.put(memberPath(second, emails[0]), { subscription_status: status });
    expect(updated.status).toBe(200);
    expectMembership(updated.body);
    expect(updated.body.subscription_status).toBe(status);
  }
});

test('R8: a membership created without a status is confirmed; an existing one keeps its status unless one is given', async () => {
  const listId = await newList();
  const added = await api.post(membersOf(listId), { contact: contactIds[1] });
  expect(added.status).toBe(201);
  expectMembership(added.body);
  expect(added.body).toMatchObject({ list_id: listId, contact_id: contactIds[1], subscription_status: 'confirmed' });
  await api.put(memberPath(listId, contactIds[1]), { subscription_status: 'unconfirmed' });
  expect((await api.post(membersOf(listId), { contact: emails[1] })).body.subscription_status).toBe('unconfirmed');
  expect((await api.post(membersOf(listId), { contact: emails[1], subscription_status: 'confirmed' })).body.subscription_status).toBe('confirmed');
  const bulk = await api.post(membersOf(listId), { contacts: [emails[2], contactIds[3]], subscription_status: 'unconfirmed' });
  expect(bulk.status).toBe(201);
  expect(Object.keys(bulk.body).sort()).toEqual(['data', 'object']);
  bulk.body.data.forEach((membership: unknown) => expectMembership(membership));
  expect(bulk.body.data.map((membership: { subscription_status: string }) => membership.subscription_status)).toEqual(['unconfirmed', 'unconfirmed']);
  expect(await counts(listId)).toEqual({ unconfirmed: 2, confirmed: 1, unsubscribed: 0, complained: 0 });
});

test('R9: complained is never writable (400) on add, bulk add or update', async () => {
  const listId = await newList();
  await api.post(membersOf(listId), { contact: emails[0] });
  expectError(await api.post(membersOf(listId), { contact: emails[1], subscription_status: 'complained' }), 400, /^subscription_status: complained is set only by a complaint report/);
  expectError(await api.post(membersOf(listId), { contacts: [emails[1]], subscription_status: 'complained' }), 400, /subscription_status/);
  expectError(await api.put(memberPath(listId, emails[0]), { subscription_status: 'complained' }), 400, /subscription_status/);
  expect(await counts(listId)).toEqual({ unconfirmed: 0, confirmed: 1, unsubscribed: 0, complained: 0 });
});

test('R10: deleting a list hides it (404 everywhere) and keeps its memberships, unsubscribes included', async () => {
  const listId = await newList('To delete');
  await api.post(membersOf(listId), { contact: emails[4], subscription_status: 'unsubscribed' });
  const deleted = await api.delete(lists(api, `/${listId}`));
  expect(deleted.status).toBe(200);
  expect(Object.keys(deleted.body)).toEqual(['message']);
  expectError(await api.get(lists(api, `/${listId}`)), 404, 'list not found');
  expectError(await api.put(lists(api, `/${listId}`), { name: 'back' }), 404);
  expectError(await api.delete(lists(api, `/${listId}`)), 404);
  expectError(await api.get(membersOf(listId)), 404);
  expectError(await api.post(membersOf(listId), { contact: emails[4] }), 404);
  expectError(await api.put(memberPath(listId, emails[4]), { subscription_status: 'confirmed' }), 404);
  expectError(await api.delete(memberPath(listId, emails[4])), 404);
  expect((await api.get(lists())).body.data.map((list: { id: string }) => list.id)).not.toContain(listId);
  const memberships = await api.get(api.account(`/contacts/${encodeURIComponent(emails[4])}/lists`));
  expect(memberships.body.data).toContainEqual(expect.objectContaining({ list_id: listId, contact_id: contactIds[4], subscription_status: 'unsubscribed' }));
});

test('R11: removing a contact from a list deletes the membership row; adding again starts afresh', async () => {
  const listId = await newList();
  await api.post(membersOf(listId), { contact: emails[5], subscription_status: 'unsubscribed' });
  const removed = await api.delete(memberPath(listId, emails[5]));
  expect(removed.status).toBe(200);
  expect(Object.keys(removed.body)).toEqual(['message']);
  expect(await counts(listId)).toEqual({ unconfirmed: 0, confirmed: 0, unsubscribed: 0, complained: 0 });
  expect((await api.get(api.account(`/contacts/${contactIds[5]}/lists`))).body.data.map((membership: { list_id: string }) => membership.list_id)).not.toContain(listId);
  expectError(await api.delete(memberPath(listId, emails[5])), 404, /not a member/);
  expectError(await api.put(memberPath(listId, emails[5]), { subscription_status: 'confirmed' }), 404, /not a member/);
  expect((await api.post(membersOf(listId), { contact: emails[5] })).body.subscription_status).toBe('confirmed');
});

test('R12: include_contacts=true needs contacts:read as well as lists:read', async () => {
  const listId = await newList();
  await api.post(membersOf(listId), { contacts: emails.slice(0, 3) });
  const listsOnly = await keyWith(['lists:read']);
  const both = await keyWith(['lists:read', 'contacts:read']);
  const contactsOnly = await keyWith(['contacts:read']);
  expectError(await listsOnly.get(membersOf(listId, '?include_contacts=true', listsOnly)), 403);
  expectError(await contactsOnly.get(membersOf(listId, '?include_contacts=true', contactsOnly)), 403);
  const plain = await listsOnly.get(membersOf(listId, '?include_contacts=false', listsOnly));
  expect(plain.status).toBe(200);
  plain.body.data.forEach((membership: unknown) => expectMembership(membership));
  const expanded = await both.get(membersOf(listId, '?include_contacts=true&limit=2', both));
  expect(expanded.status).toBe(200);
  expectEnvelope(expanded.body);
  expanded.body.data.forEach((membership: unknown) => expectMembership(membership, true));
  expect(expanded.body.data.map((membership: { contact: { email: string } }) => membership.contact.email)).toEqual([emails[2], emails[1]]);
  const rest = await both.get(membersOf(listId, `?include_contacts=true&limit=2&after=${expanded.body.pagination.next_cursor}`, both));
  expect(rest.body.data.map((membership: { contact: { email: string } }) => membership.contact.email)).toEqual([emails[0]]);
  const back = await both.get(membersOf(listId, `?limit=2&before=${rest.body.pagination.previous_cursor}`, both));
  expect(back.body.data.map((membership: { contact_id: string }) => membership.contact_id)).toEqual([contactIds[2], contactIds[1]]);
});

test('POST /lists/{id}/members - an unknown contact is 404 and adds nobody, even in a bulk request', async () => {
  const listId = await newList();
  expectError(await api.post(membersOf(listId), { contact: `nobody.${stamp}@example.org` }), 404, /contact not found/);
  expectError(await api.post(membersOf(listId), { contact: randomUUID() }), 404, /contact not found/);
  expectError(await api.post(membersOf(listId), { contact: 'not an address' }), 404, /contact not found/);
  expectError(await api.post(membersOf(listId), { contacts: [emails[0], `nobody.${stamp}@example.org`] }), 404, /nobody/);
  expect(await counts(listId)).toEqual({ unconfirmed: 0, confirmed: 0, unsubscribed: 0, complained: 0 });
});

test('POST /lists/{id}/members - up to 1,000 contacts in one request; 1,001 is 400', async () => {
  const { api: own } = await newAccount('Lists bulk');
  const listId = await newList('Bulk', own);
  // Contacts made by the hundred, in parallel, to keep the test short; 1,000 requests pass the
  // account's rate limit, so a 429 waits its Retry-After and tries again.
  const addresses = Array.from({ length: 1000 }, (_, index) => `bulk${index}@example.org`);
  const createContact = async (email: string): Promise<number> => {
    for (;;) {
      const response = await own.post(own.account('/contacts'), { email });
      if (response.status !== 429) return response.status;
      await new Promise((resolve) => setTimeout(resolve, Number(response.headers.get('retry-after') ?? 1) * 1000));
    }
  };
  for (let start = 0; start < addresses.length; start += 100) {
    const statuses = await Promise.all(addresses.slice(start, start + 100).map(createContact));
    expect(statuses.every((status) => status === 201)).toBe(true);
  }
  const added = await own.post(membersOf(listId, '', own), { contacts: addresses });
  expect(added.status, added.text).toBe(201);
  expect(added.body.data).toHaveLength(1000);
  expect((await own.get(lists(own, `/${listId}`))).body.member_counts.confirmed).toBe(1000);
  expectError(await own.post(membersOf(listId, '', own), { contacts: [...addresses, 'one-more@example.org'] }), 400, /^contacts: must hold at most 1000 contacts/);
});

test('parallel adds of the same members neither fail nor duplicate', async () => {
  const listId = await newList();
  const responses = await Promise.all([
    ...Array.from({ length: 6 }, () => api.post(membersOf(listId), { contacts: emails })),
    ...emails.map((email) => api.post(membersOf(listId), { contact: email })),
    api.post(membersOf(listId), { contacts: [...emails].reverse(), subscription_status: 'confirmed' }),
  ]);
  for (const response of responses) expect(response.status, response.text).toBe(201);
  expect(await counts(listId)).toEqual({ unconfirmed: 0, confirmed: 6, unsubscribed: 0, complained: 0 });
  expect((await api.get(membersOf(listId))).body.data).toHaveLength(6);
});

test.describe('bad input is 400 naming the field', () => {
  const cases: { name: string; method: 'post' | 'put'; path: () => Promise<string>; body: Record<string, unknown>; field: string }[] = [];
  const aList = async () => lists(api, `/${await newList()}`);
  const members = async () => membersOf(await newList());
  const aMember = async () => {
    const listId = await newList();
    await api.post(membersOf(listId), { contact: emails[0] });
    return memberPath(listId, emails[0]);
  };
  for (const badCase of badInputCases(createListSchema, { name: 'n', description: 'd' })) cases.push({ ...badCase, method: 'post', path: async () => lists() });
  for (const badCase of badInputCases(updateListSchema, { name: 'n' })) cases.push({ ...badCase, method: 'put', path: aList });
  for (const badCase of badInputCases(addListMembersSchema, { contact: emails[0], subscription_status: 'confirmed' })) cases.push({ ...badCase, method: 'post', path: members });
  for (const badCase of badInputCases(updateListMemberSchema, { subscription_status: 'confirmed' })) cases.push({ ...badCase, method: 'put', path: aMember });
  cases.push(
    { name: 'an empty name', method: 'post', path: async () => lists(), body: { name: '   ' }, field: 'name' },
    { name: 'a 256-character name', method: 'post', path: async () => lists(), body: { name: 'n'.repeat(256) }, field: 'name' },
    { name: 'neither contact nor contacts', method: 'post', path: members, body: { subscription_status: 'confirmed' }, field: 'contact' },
    { name: 'both contact and contacts', method: 'post', path: members, body: { contact: emails[0], contacts: [emails[1]] }, field: 'contact' },
    { name: 'an empty contacts array', method: 'post', path: members, body: { contacts: [] }, field: 'contacts' },
    { name: 'a number in contacts', method: 'post', path: members, body: { contacts: [emails[0], 7] }, field: 'contacts.1' },
    { name: 'an unknown status', method: 'post', path: members, body: { contact: emails[0], subscription_status: 'subscribed' }, field: 'subscription_status' },
    { name: 'a missing status', method: 'put', path: aMember, body: {}, field: 'subscription_status' },
  );
  for (const badCase of cases) {
    test(`${badCase.method.toUpperCase()} ${badCase.name}`, async () => {
      const path = await badCase.path();
      const response = badCase.method === 'post' ? await api.post(path, badCase.body) : await api.put(path, badCase.body);
      expectError(response, 400, new RegExp(`^${badCase.field.replace(/\./g, '\\.')}`));
    });
  }
  test('GET members with a bad filter', async () => {
    const listId = await newList();
    expectError(await api.get(membersOf(listId, '?subscription_status=subscribed')), 400, /^subscription_status/);
    expectError(await api.get(membersOf(listId, '?include_contacts=yes')), 400, /^include_contacts/);
    expectError(await api.get(membersOf(listId, '?limit=1000')), 400, /^limit/);
  });
});

test('hostile list names: SQL metacharacters, unicode and long text come back as given', async () => {
  for (const name of ["'; DELETE FROM contact_lists; --", 'Ünïcødé 名单 🙂', '%_\\', 'n'.repeat(255)]) {
    const created = await api.post(lists(), { name, description: name });
    expect(created.status, created.text).toBe(201);
    expect((await api.get(lists(api, `/${created.body.id}`))).body).toMatchObject({ name, description: name });
  }
});

test('unknown and malformed list ids are 404', async () => {
  for (const listId of [randomUUID(), 'not-a-uuid', "1' or '1'='1"]) {
    const path = lists(api, `/${encodeURIComponent(listId)}`);
    expectError(await api.get(path), 404, 'list not found');
    expectError(await api.put(path, { name: 'x' }), 404);
    expectError(await api.delete(path), 404);
    expectError(await api.get(`${path}/members`), 404);
    expectError(await api.post(`${path}/members`, { contact: emails[0] }), 404);
  }
});

test("tenancy: another account's lists and contacts are 404", async () => {
  const theirList = await newList('Theirs', other);
  const theirContact = (await other.post(other.account('/contacts'), { email: `theirs.${stamp}@example.org` })).body.id;
  expectError(await api.get(lists(api, `/${theirList}`)), 404);
  expectError(await api.put(lists(api, `/${theirList}`), { name: 'mine' }), 404);
  expectError(await api.delete(lists(api, `/${theirList}`)), 404);
  expectError(await api.get(membersOf(theirList)), 404);
  expectError(await api.post(membersOf(theirList), { contact: emails[0] }), 404);
  const ourList = await newList();
  expectError(await api.post(membersOf(ourList), { contact: theirContact }), 404);
  expectError(await api.post(membersOf(ourList), { contact: `theirs.${stamp}@example.org` }), 404);
  expect((await other.get(lists(other, `/${theirList}`))).body.member_counts.confirmed).toBe(0);
  expect((await api.get(lists())).body.data.map((list: { id: string }) => list.id)).not.toContain(theirList);
});

test('scopes: lists:read reads, lists:write writes, lists:delete deletes', async () => {
  const listId = await newList();
  const reader = await keyWith(['lists:read']);
  const writer = await keyWith(['lists:write']);
  const deleter = await keyWith(['lists:delete']);
  expect((await reader.get(lists(reader))).status).toBe(200);
  expect((await reader.get(membersOf(listId, '', reader))).status).toBe(200);
  expectError(await reader.post(lists(reader), { name: 'x' }), 403);
  expectError(await reader.post(membersOf(listId, '', reader), { contact: emails[0] }), 403);
  expectError(await writer.get(lists(writer, `/${listId}`)), 403);
  expectError(await writer.delete(lists(writer, `/${listId}`)), 403);
  expect((await writer.post(membersOf(listId, '', writer), { contact: emails[0] })).status).toBe(201);
  expect((await writer.put(memberPath(listId, emails[0], writer), { subscription_status: 'unconfirmed' })).status).toBe(200);
  expect((await writer.delete(memberPath(listId, emails[0], writer))).status).toBe(200);
  expect((await writer.put(lists(writer, `/${listId}`), { name: 'renamed' })).status).toBe(200);
  expectError(await deleter.get(lists(deleter, `/${listId}`)), 403);
  expect((await deleter.delete(lists(deleter, `/${listId}`))).status).toBe(200);
});

test('the OpenAPI document lists the lists endpoints with their scopes and decisions', async () => {
  const document = (await api.get('/v2/openapi.json', { apiKey: null })).body;
  const members = document.paths['/v2/accounts/{account_id}/lists/{list_id}/members'];
  expect(members.get.description).toMatch(/R12/);
  expect(members.post.description).toMatch(/keeps its status unless/);
  expect(document.paths['/v2/accounts/{account_id}/lists/{list_id}'].delete.security).toEqual([{ BearerAuth: ['lists:delete'] }]);
  expect(document.paths['/v2/accounts/{account_id}/lists/{list_id}/members/{id_or_email}'].delete.description).toMatch(/R11/);
  expect(document.components.schemas.ContactList.required.sort()).toEqual(LIST_FIELDS);
});
