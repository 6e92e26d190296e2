import { expect, test } from '@playwright/test';
import type { ApiClient } from '../support/client';
import {
  expectEnvelope,
  expectError,
  expectList,
  expectMembership,
  LIST_FIELDS,
  listAccounts,
  listHelpers,
  memberEmails,
} from '../support/list-fixtures';
import { newAccount } from '../support/shared';

/**
 * The lists API (marketing-api.md, Lists; rules R6-R12 of service-spec.md) on the shared server.
 * These paths are not in the AhaSend reference, so the shapes are checked here against the
 * contract's field lists. `complained` can only come from a complaint report, which is not built
 * yet; R9's freeze is covered by the verb tests (tests/lib/core/lists), its 400 here. Unknown
 * ids, bad input, tenancy, scopes, and bulk and parallel adds are in lists-boundaries.spec.ts.
 */
let api: ApiClient;
let contactIds: string[];
const stamp = Date.now().toString(36);
const emails = memberEmails(stamp);

test.beforeAll(async () => {
  ({ api, contactIds } = await listAccounts(emails));
});

test.describe.configure({ mode: 'serial' });

const { lists, membersOf, memberPath, newList, counts, keyWith } = listHelpers(() => api);

test('POST /lists - 201 with a ContactList; GET, PUT and GET /lists show it', async () => {
  const created = await api.post(lists(), { name: '  Weekly news ', description: 'Every Monday' });
  expect(created.status).toBe(201);
  expectList(created.body);
  expect(created.body).toMatchObject({
    name: 'Weekly news',
    description: 'Every Monday',
    member_counts: { unconfirmed: 0, confirmed: 0, unsubscribed: 0, complained: 0 },
  });
  const read = await api.get(lists(api, `/${created.body.id}`));
  expect(read.body).toEqual(created.body);
  const renamed = await api.put(lists(api, `/${created.body.id}`), { name: 'Weekly' });
  expectList(renamed.body);
  expect(renamed.body).toMatchObject({ name: 'Weekly', description: 'Every Monday' });
  expect((await api.put(lists(api, `/${created.body.id}`), { description: null })).body.description).toBeNull();
  expect(created.body.public_name).toBeNull();
  const titled = await api.put(lists(api, `/${created.body.id}`), { public_name: '  Our weekly letter ' });
  expect(titled.body).toMatchObject({ name: 'Weekly', public_name: 'Our weekly letter' });
  expect((await api.put(lists(api, `/${created.body.id}`), { name: 'Weekly 2' })).body.public_name).toBe(
    'Our weekly letter',
  );
  expect((await api.put(lists(api, `/${created.body.id}`), { public_name: '' })).body.public_name).toBeNull();
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
  expect(members.body.data.map((member: { contact_id: string }) => member.contact_id).sort()).toEqual(
    contactIds.slice(0, 2).sort(),
  );
});

test("R7: a membership's status is per list and independent of the contact's unsubscribed flag", async () => {
  const first = await newList();
  const second = await newList();
  await api.post(membersOf(first), { contact: emails[0], subscription_status: 'unsubscribed' });
  await api.post(membersOf(second), { contact: emails[0] });
  expect(
    (
      await api.get(memberPath(first, emails[0]).replace(/\/members\/.*/, `/members?subscription_status=unsubscribed`))
    ).body.data.map((member: { contact_id: string }) => member.contact_id),
  ).toEqual([contactIds[0]]);
  expect(
    (await api.post(api.account(`/contacts/${encodeURIComponent(emails[0])}/unsubscribe`))).body.unsubscribed,
  ).toBe(true);
  expect(await counts(second)).toMatchObject({ confirmed: 1, unsubscribed: 0 });
  expect(
    (await api.post(api.account(`/contacts/${encodeURIComponent(emails[0])}/resubscribe`))).body.unsubscribed,
  ).toBe(false);
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
  expect(
    (await api.post(membersOf(listId), { contact: emails[1], subscription_status: 'confirmed' })).body
      .subscription_status,
  ).toBe('confirmed');
  const bulk = await api.post(membersOf(listId), {
    contacts: [emails[2], contactIds[3]],
    subscription_status: 'unconfirmed',
  });
  expect(bulk.status).toBe(201);
  expect(Object.keys(bulk.body).sort()).toEqual(['data', 'object']);
  bulk.body.data.forEach((membership: unknown) => expectMembership(membership));
  expect(bulk.body.data.map((membership: { subscription_status: string }) => membership.subscription_status)).toEqual([
    'unconfirmed',
    'unconfirmed',
  ]);
  expect(await counts(listId)).toEqual({ unconfirmed: 2, confirmed: 1, unsubscribed: 0, complained: 0 });
});

test('R9: complained is never writable (400) on add, bulk add or update', async () => {
  const listId = await newList();
  await api.post(membersOf(listId), { contact: emails[0] });
  expectError(
    await api.post(membersOf(listId), { contact: emails[1], subscription_status: 'complained' }),
    400,
    /^subscription_status: complained is set only by a complaint report/,
  );
  expectError(
    await api.post(membersOf(listId), { contacts: [emails[1]], subscription_status: 'complained' }),
    400,
    /subscription_status/,
  );
  expectError(
    await api.put(memberPath(listId, emails[0]), { subscription_status: 'complained' }),
    400,
    /subscription_status/,
  );
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
  expect(memberships.body.data).toContainEqual(
    expect.objectContaining({ list_id: listId, contact_id: contactIds[4], subscription_status: 'unsubscribed' }),
  );
});

test('R11: removing a contact from a list deletes the membership row; adding again starts afresh', async () => {
  const listId = await newList();
  await api.post(membersOf(listId), { contact: emails[5], subscription_status: 'unsubscribed' });
  const removed = await api.delete(memberPath(listId, emails[5]));
  expect(removed.status).toBe(200);
  expect(Object.keys(removed.body)).toEqual(['message']);
  expect(await counts(listId)).toEqual({ unconfirmed: 0, confirmed: 0, unsubscribed: 0, complained: 0 });
  expect(
    (await api.get(api.account(`/contacts/${contactIds[5]}/lists`))).body.data.map(
      (membership: { list_id: string }) => membership.list_id,
    ),
  ).not.toContain(listId);
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
  expect(expanded.body.data.map((membership: { contact: { email: string } }) => membership.contact.email)).toEqual([
    emails[2],
    emails[1],
  ]);
  const rest = await both.get(
    membersOf(listId, `?include_contacts=true&limit=2&after=${expanded.body.pagination.next_cursor}`, both),
  );
  expect(rest.body.data.map((membership: { contact: { email: string } }) => membership.contact.email)).toEqual([
    emails[0],
  ]);
  const back = await both.get(membersOf(listId, `?limit=2&before=${rest.body.pagination.previous_cursor}`, both));
  expect(back.body.data.map((membership: { contact_id: string }) => membership.contact_id)).toEqual([
    contactIds[2],
    contactIds[1],
  ]);
});

test('the OpenAPI document lists the lists endpoints with their scopes and decisions', async () => {
  const document = (await api.get('/v2/openapi.json', { apiKey: null })).body;
  const members = document.paths['/v2/accounts/{account_id}/lists/{list_id}/members'];
  expect(members.get.description).toMatch(/R12/);
  expect(members.post.description).toMatch(/keeps its status unless/);
  expect(document.paths['/v2/accounts/{account_id}/lists/{list_id}'].delete.security).toEqual([
    { BearerAuth: ['lists:delete'] },
  ]);
  expect(document.paths['/v2/accounts/{account_id}/lists/{list_id}/members/{id_or_email}'].delete.description).toMatch(
    /R11/,
  );
  expect(document.components.schemas.ContactList.required.sort()).toEqual(LIST_FIELDS);
});
