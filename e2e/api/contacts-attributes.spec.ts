import { expect, test } from '@playwright/test';
import type { ApiClient } from '../support/client';
import { RFC3339, contactAccounts, contactHelpers, expectError, segment } from '../support/contact-fixtures';
import { dashboardSession } from '../support/dashboard-session';

/**
 * Contact attribute definitions (R4), managed only through the dashboard's /internal routes with the
 * owner's session, and the subscription history (R3) those routes show. The contacts API itself is in
 * contacts.spec.ts.
 */
let api: ApiClient;
let other: ApiClient;
let ownerId: string;
const stamp = Date.now().toString(36);

test.beforeAll(async () => {
  ({ api, other, ownerId } = await contactAccounts());
});

test.describe.configure({ mode: 'serial' });

const { contactsPath, contactPath, create } = contactHelpers(() => api);

test('/internal contact attribute routes take dashboard sessions only', async () => {
  const path = `/internal/accounts/${api.accountId}/contact-attributes`;
  expect((await api.get(path, { checkContract: false })).status).toBe(401);
  expect((await api.post(path, { key: 'plan', type: 'string' }, { checkContract: false })).status).toBe(401);
  // And no v2 endpoint manages definitions (R4).
  expect((await api.get(api.account('/contact-attributes'))).status).toBe(404);
});

test.describe('attribute definitions (R4) through the dashboard session', () => {
  let session: Record<string, string>;
  let dashboard: ApiClient;
  const definitions = () => `/internal/accounts/${api.accountId}/contact-attributes`;
  const call = (method: string, path: string, body?: unknown) =>
    dashboard.request(method, path, { body, headers: session, checkContract: false });

  test.beforeAll(async () => {
    session = await dashboardSession(ownerId);
    dashboard = api.with(null);
  });

  test('R4: definitions are created, listed, relabelled and deleted by a session; bad keys and types are 400', async () => {
    const me = await call('GET', '/internal/me');
    expect(me.status, me.text).toBe(200);
    for (const [key, type] of [
      ['plan', 'string'],
      ['age', 'number'],
      ['vip', 'boolean'],
      ['birthday', 'date'],
      ['seen_at', 'datetime'],
    ]) {
      const created = await call('POST', definitions(), { key, type, label: key.toUpperCase() });
      expect(created.status, created.text).toBe(201);
      expect(created.body).toEqual({
        object: 'contact_attribute',
        key,
        type,
        label: key.toUpperCase(),
        created_at: expect.stringMatching(RFC3339),
        updated_at: expect.stringMatching(RFC3339),
      });
    }
    expectError(await call('POST', definitions(), { key: 'plan', type: 'string' }), 409, /already exists/);
    for (const key of ['__proto__', 'constructor!', 'Plan', '1st', 'email', 'x'.repeat(64), "a'; drop"]) {
      expectError(await call('POST', definitions(), { key, type: 'string' }), 400, /^key: /);
    }
    expectError(
      await call('POST', definitions(), { key: 'colour', type: 'color' }),
      400,
      /^type: must be one of string, number, boolean, date, datetime/,
    );
    const listed = await call('GET', definitions());
    expect(listed.body.data.map((definition: { key: string }) => definition.key)).toEqual([
      'age',
      'birthday',
      'plan',
      'seen_at',
      'vip',
    ]);
    expect((await call('PUT', `${definitions()}/plan`, { label: 'Plan name' })).body).toMatchObject({
      key: 'plan',
      type: 'string',
      label: 'Plan name',
    });
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
    const attributes = {
      plan: "gold'); --",
      age: 42.5,
      vip: false,
      birthday: '2024-02-29',
      seen_at: '2024-01-05T10:30:00+02:00',
    };
    const created = await create({ email, attributes });
    expect(created.status, created.text).toBe(201);
    expect(created.body.attributes).toEqual(attributes);
    const updated = await api.put(contactPath(email), { attributes: { vip: null, age: 7 } });
    expect(updated.body.attributes).toEqual({
      plan: "gold'); --",
      age: 7,
      birthday: '2024-02-29',
      seen_at: '2024-01-05T10:30:00+02:00',
    });
    expectError(await api.put(contactPath(email), { attributes: { age: '7' } }), 400, /attributes\.age/);
    expect(
      (
        await api.get(contactsPath(api, '?attribute_key=plan&attribute_value=' + encodeURIComponent("gold'); --")))
      ).body.data.map((contact: { email: string }) => contact.email),
    ).toEqual([email]);
  });

  test('R4: a type change is 409 while contacts hold values, saying how many; deleting clears the values', async () => {
    expectError(
      await call('PUT', `${definitions()}/age`, { type: 'string' }),
      409,
      /^1 contact holds a value of type number for age/,
    );
    const deleted = await call('DELETE', `${definitions()}/age`);
    expect(deleted.status, deleted.text).toBe(200);
    expect(deleted.body.message).toMatch(/removed from 1 contact$/);
    expect((await api.get(contactPath(`r4-values.${stamp}@example.org`))).body.attributes).not.toHaveProperty('age');
    expect((await call('POST', definitions(), { key: 'age', type: 'string' })).status).toBe(201);
    expect(
      (await api.put(contactPath(`r4-values.${stamp}@example.org`), { attributes: { age: 'forty' } })).body.attributes
        .age,
    ).toBe('forty');
  });

  test('R3: the subscription history of a contact, newest first, kept across unsubscribe and resubscribe', async () => {
    const email = `r3-history.${stamp}@example.org`;
    await create({ email, unsubscribed: true });
    await api.post(contactPath(email, '/resubscribe'));
    await call('POST', contactPath(email, '/unsubscribe'));
    const history = await call(
      'GET',
      `/internal/accounts/${api.accountId}/contacts/${segment(email)}/subscription-events`,
    );
    expect(history.status, history.text).toBe(200);
    expect(history.body.data.map((event: { type: string; source: string }) => `${event.type} ${event.source}`)).toEqual(
      ['unsubscribed dashboard', 'resubscribed api', 'unsubscribed api'],
    );
    expect(history.body.data[0]).toEqual({
      object: 'contact_subscription_event',
      type: 'unsubscribed',
      source: 'dashboard',
      list_id: null,
      created_at: expect.stringMatching(RFC3339),
    });
  });

  test('attribute definitions of another account are not reachable with this session', async () => {
    const path = `/internal/accounts/${other.accountId}/contact-attributes`;
    const response = await call('GET', path);
    expect([401, 403, 404]).toContain(response.status);
  });
});
