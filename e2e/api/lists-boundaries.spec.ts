import { randomUUID } from 'node:crypto';
import { expect, test } from '@playwright/test';
import {
  addListMembersSchema,
  createListSchema,
  updateListMemberSchema,
  updateListSchema,
} from '../../lib/core/lists/schemas';
import { badInputCases } from '../support/bad-input';
import type { ApiClient } from '../support/client';
import { expectError, listAccounts, listHelpers, memberEmails } from '../support/list-fixtures';
import { newAccount } from '../support/shared';

/**
 * The lists API on the shared server at its boundaries: unknown contacts, 1,000 members in one
 * request, parallel adds, bad input naming the field, hostile names, unknown ids, another account's
 * lists and contacts, and key scopes. CRUD and rules R6-R12 are in lists.spec.ts.
 */
let api: ApiClient;
let other: ApiClient;
const stamp = Date.now().toString(36);
const emails = memberEmails(stamp);

test.beforeAll(async () => {
  ({ api, other } = await listAccounts(emails));
});

test.describe.configure({ mode: 'serial' });

const { lists, membersOf, memberPath, newList, counts, keyWith } = listHelpers(() => api);

test('POST /lists/{id}/members - an unknown contact is 404 and adds nobody, even in a bulk request', async () => {
  const listId = await newList();
  expectError(await api.post(membersOf(listId), { contact: `nobody.${stamp}@example.org` }), 404, /contact not found/);
  expectError(await api.post(membersOf(listId), { contact: randomUUID() }), 404, /contact not found/);
  expectError(await api.post(membersOf(listId), { contact: 'not an address' }), 404, /contact not found/);
  expectError(
    await api.post(membersOf(listId), { contacts: [emails[0], `nobody.${stamp}@example.org`] }),
    404,
    /nobody/,
  );
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
  expectError(
    await own.post(membersOf(listId, '', own), { contacts: [...addresses, 'one-more@example.org'] }),
    400,
    /^contacts: must hold at most 1000 contacts/,
  );
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
  const cases: {
    name: string;
    method: 'post' | 'put';
    path: () => Promise<string>;
    body: Record<string, unknown>;
    field: string;
  }[] = [];
  const aList = async () => lists(api, `/${await newList()}`);
  const members = async () => membersOf(await newList());
  const aMember = async () => {
    const listId = await newList();
    await api.post(membersOf(listId), { contact: emails[0] });
    return memberPath(listId, emails[0]);
  };
  for (const badCase of badInputCases(createListSchema, { name: 'n', description: 'd' }))
    cases.push({ ...badCase, method: 'post', path: async () => lists() });
  for (const badCase of badInputCases(updateListSchema, { name: 'n' }))
    cases.push({ ...badCase, method: 'put', path: aList });
  for (const badCase of badInputCases(addListMembersSchema, { contact: emails[0], subscription_status: 'confirmed' }))
    cases.push({ ...badCase, method: 'post', path: members });
  for (const badCase of badInputCases(updateListMemberSchema, { subscription_status: 'confirmed' }))
    cases.push({ ...badCase, method: 'put', path: aMember });
  cases.push(
    { name: 'an empty name', method: 'post', path: async () => lists(), body: { name: '   ' }, field: 'name' },
    {
      name: 'a 256-character name',
      method: 'post',
      path: async () => lists(),
      body: { name: 'n'.repeat(256) },
      field: 'name',
    },
    {
      name: 'neither contact nor contacts',
      method: 'post',
      path: members,
      body: { subscription_status: 'confirmed' },
      field: 'contact',
    },
    {
      name: 'both contact and contacts',
      method: 'post',
      path: members,
      body: { contact: emails[0], contacts: [emails[1]] },
      field: 'contact',
    },
    { name: 'an empty contacts array', method: 'post', path: members, body: { contacts: [] }, field: 'contacts' },
    {
      name: 'a number in contacts',
      method: 'post',
      path: members,
      body: { contacts: [emails[0], 7] },
      field: 'contacts.1',
    },
    {
      name: 'an unknown status',
      method: 'post',
      path: members,
      body: { contact: emails[0], subscription_status: 'subscribed' },
      field: 'subscription_status',
    },
    { name: 'a missing status', method: 'put', path: aMember, body: {}, field: 'subscription_status' },
  );
  for (const badCase of cases) {
    test(`${badCase.method.toUpperCase()} ${badCase.name}`, async () => {
      const path = await badCase.path();
      const response =
        badCase.method === 'post' ? await api.post(path, badCase.body) : await api.put(path, badCase.body);
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
  expect((await writer.put(memberPath(listId, emails[0], writer), { subscription_status: 'unconfirmed' })).status).toBe(
    200,
  );
  expect((await writer.delete(memberPath(listId, emails[0], writer))).status).toBe(200);
  expect((await writer.put(lists(writer, `/${listId}`), { name: 'renamed' })).status).toBe(200);
  expectError(await deleter.get(lists(deleter, `/${listId}`)), 403);
  expect((await deleter.delete(lists(deleter, `/${listId}`))).status).toBe(200);
});
