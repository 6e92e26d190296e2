import { randomUUID } from 'node:crypto';
import { expect, test } from '@playwright/test';
import type { ApiClient } from '../support/client';
import { contactAccounts, contactHelpers, expectError, segment } from '../support/contact-fixtures';

/**
 * The contacts API on the shared server at its boundaries: hostile values, unknown ids, another
 * account's contacts, key scopes and parallel creates. CRUD and the rules are in contacts.spec.ts.
 */
let api: ApiClient;
let other: ApiClient;
const stamp = Date.now().toString(36);

test.beforeAll(async () => {
  ({ api, other } = await contactAccounts());
});

test.describe.configure({ mode: 'serial' });

const { contactsPath, contactPath, create, keyWith } = contactHelpers(() => api);

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
    expectError(
      await api.get(contactPath(idOrEmail, '/lists')),
      404,
      idOrEmail === 'import' ? /not found/ : 'contact not found',
    );
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
  expect((await other.get(contactPath(email, '', other))).body).toMatchObject({
    first_name: null,
    unsubscribed: false,
  });
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
  const responses = await Promise.all(
    Array.from({ length: 10 }, () => create({ email, first_name: 'Idem' }, api, { 'Idempotency-Key': key })),
  );
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
