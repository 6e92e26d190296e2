import { randomUUID } from 'node:crypto';
import { expect, test } from '@playwright/test';
import type { ApiClient, ApiResponse } from '../support/client';
import { newAccount } from '../support/shared';

/**
 * Pasting addresses into a list (`POST …/lists/{id}/members/paste`, a Mailstead extension: the
 * contract's `POST …/members` is all-or-nothing): the valid lines are added, each other line comes
 * back with its reason. The rest of the lists API is in lists.spec.ts and lists-boundaries.spec.ts.
 */
let api: ApiClient;
let other: ApiClient;
const stamp = Date.now().toString(36);
const emails = Array.from({ length: 6 }, (_, index) => `paste${index}.${stamp}@example.org`);
const contactIds: string[] = [];

test.beforeAll(async () => {
  ({ api } = await newAccount('List paste'));
  ({ api: other } = await newAccount('List paste (other account)'));
  for (const email of emails) {
    const created = await api.post(api.account('/contacts'), { email, first_name: email.slice(0, 6) });
    expect(created.status).toBe(201);
    contactIds.push(created.body.id);
  }
});

function expectError(response: ApiResponse, status: number, message?: RegExp | string) {
  expect(response.status, response.text).toBe(status);
  expect(Object.keys(response.body)).toEqual(['message']);
  if (message !== undefined) expect(response.body.message).toMatch(message);
}

const lists = (client = api, suffix = '') => client.account(`/lists${suffix}`);
const membersOf = (listId: string, suffix = '', client = api) => lists(client, `/${listId}/members${suffix}`);
async function newList(name = `List ${randomUUID().slice(0, 8)}`, client = api): Promise<string> {
  const created = await client.post(lists(client), { name });
  expect(created.status, created.text).toBe(201);
  return created.body.id;
}
const counts = async (listId: string) => (await api.get(lists(api, `/${listId}`))).body.member_counts;

async function keyWith(scopes: string[]): Promise<ApiClient> {
  const created = await api.post(api.account('/api-keys'), { label: `paste ${scopes.join(' ')}`, scopes });
  expect(created.status).toBe(201);
  return api.with(created.body.secret_key);
}

test('POST /lists/{id}/members/paste - every valid line is added; each other line comes back with its own reason', async () => {
  const listId = await newList();
  expect((await api.post(membersOf(listId), { contact: emails[0] })).status).toBe(201);
  const blocked = `blocked.${stamp}@example.org`;
  expect((await api.post(api.account('/contacts'), { email: blocked })).status).toBe(201);
  const expiresAt = new Date(Date.now() + 30 * 86_400_000).toISOString();
  expect((await api.post(api.account('/suppressions'), { email: blocked, expires_at: expiresAt })).status).toBe(201);
  const nobody = `nobody.${stamp}@example.org`;
  const lines = [
    emails[0],
    ` ${emails[1]} `,
    'not an address',
    nobody,
    blocked,
    `<${emails[2]}>`,
    emails[1].toUpperCase(),
    '',
    contactIds[3],
    randomUUID(),
    'ada@',
    '@example.org',
  ];
  const pasted = await api.post(membersOf(listId, '/paste'), { lines });
  expect(pasted.status, pasted.text).toBe(200);
  expect(pasted.body).toEqual({
    object: 'list_member_paste',
    added: 3,
    created_contacts: 0,
    refused: [
      { line: emails[0], reason: 'already a member' },
      { line: 'not an address', reason: 'not an email address' },
      { line: nobody, reason: 'no such contact' },
      { line: blocked, reason: 'suppressed' },
      { line: lines[9], reason: 'no such contact' },
      { line: 'ada@', reason: 'not an email address' },
      { line: '@example.org', reason: 'not an email address' },
    ],
  });
  expect(await counts(listId)).toEqual({ unconfirmed: 0, confirmed: 4, unsubscribed: 0, complained: 0 });
  // Pasting the same again adds nobody and says why for each.
  const again = await api.post(membersOf(listId, '/paste'), { lines: [emails[1], emails[2]] });
  expect(again.body).toMatchObject({
    added: 0,
    refused: [
      { line: emails[1], reason: 'already a member' },
      { line: emails[2], reason: 'already a member' },
    ],
  });
});

test('POST /lists/{id}/members/paste - create_missing makes contacts of unknown addresses (needs contacts:write), never of suppressed or malformed ones', async () => {
  const listId = await newList();
  const fresh = [`fresh1.${stamp}@example.org`, `Fresh2.${stamp}@Example.org`];
  const suppressed = `suppressed-new.${stamp}@example.org`;
  const expiresAt = new Date(Date.now() + 30 * 86_400_000).toISOString();
  expect((await api.post(api.account('/suppressions'), { email: suppressed, expires_at: expiresAt })).status).toBe(201);
  const listsOnly = await keyWith(['lists:write']);
  expectError(
    await listsOnly.post(membersOf(listId, '/paste', listsOnly), { lines: fresh, create_missing: true }),
    403,
  );
  expect(
    (await listsOnly.post(membersOf(listId, '/paste', listsOnly), { lines: fresh })).body.refused.map(
      (refusal: { reason: string }) => refusal.reason,
    ),
  ).toEqual(['no such contact', 'no such contact']);
  const both = await keyWith(['lists:write', 'contacts:write']);
  const pasted = await both.post(membersOf(listId, '/paste', both), {
    lines: [...fresh, suppressed, 'bad address', emails[4]],
    create_missing: true,
    subscription_status: 'unconfirmed',
  });
  expect(pasted.status, pasted.text).toBe(200);
  expect(pasted.body).toEqual({
    object: 'list_member_paste',
    added: 3,
    created_contacts: 2,
    refused: [
      { line: suppressed, reason: 'suppressed' },
      { line: 'bad address', reason: 'not an email address' },
    ],
  });
  expect((await api.get(api.account(`/contacts/${encodeURIComponent(fresh[1].toLowerCase())}`))).status).toBe(200);
  expect((await api.get(api.account(`/contacts/${encodeURIComponent(suppressed)}`))).status).toBe(404);
  expect(await counts(listId)).toEqual({ unconfirmed: 3, confirmed: 0, unsubscribed: 0, complained: 0 });
});

test("POST /lists/{id}/members/paste - another account's list is 404, its contacts are no such contact here", async () => {
  const theirList = await newList('Theirs (paste)', other);
  const theirContact = (await other.post(other.account('/contacts'), { email: `theirs-paste.${stamp}@example.org` }))
    .body.id;
  expectError(await api.post(membersOf(theirList, '/paste'), { lines: [emails[0]] }), 404);
  const ourList = await newList();
  const pasted = await api.post(membersOf(ourList, '/paste'), {
    lines: [theirContact, `theirs-paste.${stamp}@example.org`],
  });
  expect(pasted.body.refused.map((refusal: { reason: string }) => refusal.reason)).toEqual([
    'no such contact',
    'no such contact',
  ]);
  expect((await other.get(lists(other, `/${theirList}`))).body.member_counts.confirmed).toBe(0);
  expectError(await api.post(membersOf(ourList, '/paste'), { lines: [] }), 400, /lines/);
  expectError(
    await api.post(membersOf(ourList, '/paste'), {
      lines: Array.from({ length: 1001 }, (_, index) => `x${index}@example.org`),
    }),
    400,
    /lines/,
  );
  expectError(await api.post(membersOf(ourList, '/paste'), { lines: 'a@example.org' }), 400, /lines/);
});
