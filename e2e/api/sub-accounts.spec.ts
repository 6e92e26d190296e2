import { expect, test } from '@playwright/test';
import type { ApiClient } from '../support/client';
import { newAccount } from '../support/shared';
import { cli, expectError, makePartner, statusOnInstance, SUB_ACCOUNT_FIELDS, subAccountHelpers, unique, UNKNOWN_ID } from '../support/sub-account-fixtures';

/**
 * Sub accounts (the partner tier), managed by parent keys: CRUD, suspension, their domains, scopes and
 * tenancy, bad input, idempotency. Child API keys and the monthly credit have specs of their own. The
 * ApiClient checks every JSON answer against the public AhaSend OpenAPI document.
 */

let partner: ApiClient;
let partnerId: string;
let standard: ApiClient;

test.beforeAll(async () => {
  const made = await makePartner('Partner');
  partner = made.api;
  partnerId = made.accountId;
  standard = (await newAccount('Standard')).api;
});

const { subs, createSub, childClient } = subAccountHelpers(() => partner);

test.describe('CRUD', () => {
  test('POST /v2/accounts/:id/sub-accounts - 201 with the contract fields; GET shows the same', async () => {
    const name = unique('Acme Subsidiary');
    const created = await partner.post(subs(), { name: `  ${name} `, website: 'Acme.Example.COM.' });
    expect(created.status).toBe(201);
    expect(Object.keys(created.body).sort()).toEqual(SUB_ACCOUNT_FIELDS);
    expect(created.body).toMatchObject({
      object: 'sub_account',
      parent_account_id: partnerId,
      name,
      website: 'acme.example.com',
      status: 'active',
      monthly_credit: 0,
      domain_count: 0,
      member_count: 0,
      last_activity_at: null,
      suspension_reason: null,
    });
    expect(created.body.updated_at).toBeUndefined();
    const fetched = await partner.get(subs(partner, `/${created.body.id}`));
    expect(fetched.status).toBe(200);
    expect(fetched.body).toEqual(created.body);
  });

  test('the child is a complete account: its key reads /v2/accounts/{child} with the parent named', async () => {
    const sub = await createSub({ monthly_credit: 500 });
    const child = await childClient(sub.id, ['accounts:read']);
    const account = await child.api.get(child.api.account());
    expect(account.status).toBe(200);
    expect(account.body).toMatchObject({ object: 'account', id: sub.id, parent_account_id: partnerId, name: sub.name });
    expect(sub.monthly_credit).toBe(500);
  });

  test('only a partner-tier account may have sub accounts: 403 naming the tier on every endpoint', async () => {
    expectError(await standard.post(subs(standard), { name: 'x', website: 'x.example.com' }), 403, /partner/);
    expectError(await standard.get(subs(standard)), 403, /partner/);
    expectError(await standard.get(subs(standard, '/usage')), 403, /partner/);
    expectError(await standard.get(subs(standard, `/${UNKNOWN_ID}`)), 403, /partner/);
    expectError(await standard.get(subs(standard, `/${UNKNOWN_ID}/api-keys`)), 403, /partner/);
  });

  test('a sub account cannot have sub accounts, whatever its tier', async () => {
    const sub = await createSub();
    expect((await cli(['accounts', 'set-tier', sub.id, 'partner'])).code).toBe(0);
    const wildcard = await childClient(sub.id, ['*']);
    expectError(await wildcard.api.post(subs(wildcard.api), { name: 'grandchild', website: 'g.example.com' }), 403, /sub account cannot have sub accounts/);
  });

  test('GET /sub-accounts - newest first, cursor pages, deleted ones gone', async () => {
    const pager = (await makePartner('Pager')).api;
    const made = [];
    for (let i = 0; i < 3; i++) made.push(await createSub({ name: `Page ${i}` }, pager));
    const first = await pager.get(`${subs(pager)}?limit=2`);
    expect(first.status).toBe(200);
    expect(first.body.data.map((s: { id: string }) => s.id)).toEqual([made[2].id, made[1].id]);
    expect(first.body.pagination.has_more).toBe(true);
    const second = await pager.get(`${subs(pager)}?limit=2&after=${first.body.pagination.next_cursor}`);
    expect(second.body.data.map((s: { id: string }) => s.id)).toEqual([made[0].id]);
    expect(second.body.pagination.has_more).toBe(false);
    const legacy = await pager.get(`${subs(pager)}?limit=2&cursor=${first.body.pagination.next_cursor}`);
    expect(legacy.body.data.map((s: { id: string }) => s.id)).toEqual([made[0].id]);
    const back = await pager.get(`${subs(pager)}?limit=2&before=${second.body.pagination.previous_cursor}`);
    expect(back.body.data.map((s: { id: string }) => s.id)).toEqual([made[2].id, made[1].id]);

    expect((await pager.delete(subs(pager, `/${made[1].id}`))).status).toBe(200);
    const after = await pager.get(subs(pager));
    expect(after.body.data.map((s: { id: string }) => s.id)).toEqual([made[2].id, made[0].id]);
    expectError(await pager.get(`${subs(pager)}?limit=0`), 400, /limit/);
    expectError(await pager.get(`${subs(pager)}?after=garbage`), 400, /cursor/);
  });

  test('PUT /sub-accounts/:sub - changes name, website and monthly_credit; nothing to change is 400', async () => {
    const sub = await createSub();
    const renamed = await partner.put(subs(partner, `/${sub.id}`), { name: 'Renamed', website: 'renamed.example.com', monthly_credit: 1000 });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ id: sub.id, name: 'Renamed', website: 'renamed.example.com', monthly_credit: 1000, status: 'active' });
    const partial = await partner.put(subs(partner, `/${sub.id}`), { monthly_credit: 0, name: null });
    expect(partial.body).toMatchObject({ name: 'Renamed', monthly_credit: 0 });
    for (const body of [{}, { name: null, website: null, monthly_credit: null }, { name: 'Renamed' }, { website: 'RENAMED.example.com' }, { name: 'Renamed', monthly_credit: 0 }, { unknown: 1 }]) {
      expectError(await partner.put(subs(partner, `/${sub.id}`), body), 400, /nothing to change|at least one/);
    }
  });

  test('DELETE /sub-accounts/:sub - soft: status deleted, gone from the list, its key refused, a second delete 404', async () => {
    const sub = await createSub();
    const child = await childClient(sub.id, ['accounts:read']);
    const deleted = await partner.delete(subs(partner, `/${sub.id}`));
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ message: 'sub account deleted' });
    const fetched = await partner.get(subs(partner, `/${sub.id}`));
    expect(fetched.status).toBe(200);
    expect(fetched.body.status).toBe('deleted');
    expectError(await child.api.get(child.api.account()), 401, 'Account is deleted');
    expectError(await partner.delete(subs(partner, `/${sub.id}`)), 404, /Sub account not found/);
    expectError(await partner.put(subs(partner, `/${sub.id}`), { name: 'zombie' }), 404);
    expectError(await partner.post(subs(partner, `/${sub.id}/suspend`), { reason: 'x' }), 404);
    expectError(await partner.get(subs(partner, `/${sub.id}/api-keys`)), 404);
  });
});

test.describe('suspension', () => {
  test('suspend with a reason, the child refused with 401, unsuspend back to active', async () => {
    const sub = await createSub();
    const child = await childClient(sub.id, ['accounts:read']);
    const suspended = await partner.post(subs(partner, `/${sub.id}/suspend`), { reason: '  unpaid invoice ' });
    expect(suspended.status).toBe(200);
    expect(suspended.body).toMatchObject({ id: sub.id, status: 'suspended', suspension_reason: 'unpaid invoice' });
    expectError(await child.api.get(child.api.account()), 401, 'Account is suspended');
    const again = await partner.post(subs(partner, `/${sub.id}/suspend`), { reason: 'still unpaid' });
    expect(again.body).toMatchObject({ status: 'suspended', suspension_reason: 'still unpaid' });

    const unsuspended = await partner.post(subs(partner, `/${sub.id}/unsuspend`));
    expect(unsuspended.status).toBe(200);
    expect(unsuspended.body).toMatchObject({ id: sub.id, status: 'active', suspension_reason: null });
    expect((await child.api.get(child.api.account())).status).toBe(200);
    // Unsuspending an active sub account answers it as it is, so a retry succeeds.
    const retried = await partner.post(subs(partner, `/${sub.id}/unsuspend`));
    expect(retried.status).toBe(200);
    expect(retried.body.status).toBe('active');
  });

  const badReasons: [string, unknown, RegExp][] = [
    ['a missing reason', {}, /reason/],
    ['an empty reason', { reason: '' }, /reason/],
    ['a blank reason', { reason: '   ' }, /reason/],
    ['a reason of 501 characters', { reason: 'x'.repeat(501) }, /reason/],
    ['a numeric reason', { reason: 42 }, /reason/],
  ];
  for (const [name, body, message] of badReasons) {
    test(`POST /sub-accounts/:sub/suspend - ${name} is 400`, async () => {
      const sub = await createSub();
      expectError(await partner.post(subs(partner, `/${sub.id}/suspend`), body), 400, message);
      expect((await partner.get(subs(partner, `/${sub.id}`))).body.status).toBe('active');
    });
  }

  test('a suspended parent puts its active children in parent-suspended, and back; a suspended child stays suspended', async () => {
    const parent = await makePartner('Suspended parent');
    const active = await createSub({}, parent.api);
    const own = await createSub({}, parent.api);
    expect((await parent.api.post(subs(parent.api, `/${own.id}/suspend`), { reason: 'own reasons' })).status).toBe(200);
    const child = await childClient(active.id, ['accounts:read'], parent.api);

    expect((await cli(['accounts', 'suspend', parent.accountId, '--reason', 'abuse'])).code).toBe(0);
    expect(await statusOnInstance(active.id)).toBe('parent-suspended');
    expect(await statusOnInstance(own.id)).toBe('suspended');
    expectError(await child.api.get(child.api.account()), 401, 'Account is suspended');
    expectError(await parent.api.get(subs(parent.api)), 401, 'Account is suspended');

    expect((await cli(['accounts', 'unsuspend', parent.accountId])).code).toBe(0);
    expect((await parent.api.get(subs(parent.api, `/${active.id}`))).body.status).toBe('active');
    expect((await parent.api.get(subs(parent.api, `/${own.id}`))).body.status).toBe('suspended');
    expect((await child.api.get(child.api.account())).status).toBe(200);
  });
});


test.describe("a sub account's domains", () => {
  test('POST /sub-accounts/:sub/domains/:domain/unpause (extension) - sub-accounts:suspend unpauses the child domain', async () => {
    const sub = await createSub();
    const child = await childClient(sub.id, ['domains:write', 'domains:read']);
    const domain = `unpause-${Date.now()}.example.com`;
    expect((await child.api.post(child.api.account('/domains'), { domain })).status).toBe(201);
    const path = subs(partner, `/${sub.id}/domains/${domain.toUpperCase()}/unpause`);
    const unpaused = await partner.post(path);
    expect(unpaused.status).toBe(200);
    expect(unpaused.body).toMatchObject({ object: 'domain', domain, account_id: sub.id, paused: false, pause_reason: null });

    const holder = await partner.post(partner.account('/api-keys'), { label: 'suspend only', scopes: ['sub-accounts:suspend'] });
    expect((await partner.with(holder.body.secret_key).post(path)).status).toBe(200);
    const writer = await partner.post(partner.account('/api-keys'), { label: 'domains only', scopes: ['domains:write', 'sub-accounts:read'] });
    expectError(await partner.with(writer.body.secret_key).post(path), 403, /sub-accounts:suspend/);
    expectError(await partner.post(subs(partner, `/${sub.id}/domains/not-a-domain-of-the-child.example.com/unpause`)), 404, /domain not found/);
    const other = await makePartner('Unpause other');
    expectError(await other.api.post(subs(other.api, `/${sub.id}/domains/${domain}/unpause`)), 404, /Sub account not found/);
  });
});

test.describe('scopes and tenancy', () => {
  const operations: [string, string, (id: string) => string, unknown?][] = [
    ['sub-accounts:read', 'GET', () => ''],
    ['sub-accounts:write', 'POST', () => '', { name: 'x', website: 'x.example.com' }],
    ['sub-accounts:usage', 'GET', () => '/usage'],
    ['sub-accounts:read', 'GET', (id) => `/${id}`],
    ['sub-accounts:write', 'PUT', (id) => `/${id}`, { name: 'changed' }],
    ['sub-accounts:delete', 'DELETE', (id) => `/${id}`],
    ['sub-accounts:suspend', 'POST', (id) => `/${id}/suspend`, { reason: 'r' }],
    ['sub-accounts:suspend', 'POST', (id) => `/${id}/unsuspend`],
    ['sub-accounts:suspend', 'POST', (id) => `/${id}/domains/unknown.example.com/unpause`],
    ['sub-account-api-keys:read', 'GET', (id) => `/${id}/api-keys`],
    ['sub-account-api-keys:write', 'POST', (id) => `/${id}/api-keys`, { label: 'x', scopes: ['domains:read'] }],
    ['sub-account-api-keys:read', 'GET', (id) => `/${id}/api-keys/${UNKNOWN_ID}`],
    ['sub-account-api-keys:write', 'PUT', (id) => `/${id}/api-keys/${UNKNOWN_ID}`, { label: 'x' }],
    ['sub-account-api-keys:delete', 'DELETE', (id) => `/${id}/api-keys/${UNKNOWN_ID}`],
  ];

  test('every endpoint needs its scope: 403 naming it without, and the scope alone is enough', async () => {
    const sub = await createSub();
    const without = await partner.post(partner.account('/api-keys'), { label: 'no sub scopes', scopes: ['domains:read', 'accounts:read'] });
    const weak = partner.with(without.body.secret_key);
    for (const [scope, method, suffix, body] of operations) {
      const refused = await weak.request(method, subs(weak, suffix(sub.id)), { body });
      expectError(refused, 403, new RegExp(scope));
      const holder = await partner.post(partner.account('/api-keys'), { label: `only ${scope}`, scopes: [scope] });
      const allowed = await partner.with(holder.body.secret_key).request(method, subs(partner, suffix(sub.id)), { body });
      expect([200, 201, 404], `${method} ${suffix(':sub')} with ${scope}: ${allowed.text}`).toContain(allowed.status);
    }
  });

  test("a parent reaches only its own children: another partner's sub account is 404 on every endpoint", async () => {
    const other = await makePartner('Other partner');
    const foreign = await createSub({}, other.api);
    for (const [, method, suffix, body] of operations) {
      if (!suffix('x').startsWith('/x')) continue;
      expectError(await partner.request(method, subs(partner, suffix(foreign.id)), { body }), 404, /not found/);
    }
    expect((await other.api.get(subs(other.api, `/${foreign.id}`))).body.status).toBe('active');
    expectError(await partner.get(`/v2/accounts/${foreign.id}`), 401);
    expectError(await partner.get(`/v2/accounts/${other.accountId}/sub-accounts/${foreign.id}`), 401);
  });

  test('a parent key does not reach the child on ordinary routes: only through the sub-account endpoints', async () => {
    const sub = await createSub();
    for (const path of ['', '/api-keys', '/domains', '/messages', '/members', '/webhooks']) {
      expectError(await partner.get(`/v2/accounts/${sub.id}${path}`), 401);
    }
  });

  const malformed: [string, string][] = [
    ['a malformed sub_account_id', '/not-a-uuid'],
    ['a sub_account_id with a trailing character', `/${UNKNOWN_ID}x`],
    ['a malformed key_id', `/${UNKNOWN_ID}/api-keys/not-a-uuid`],
  ];
  for (const [name, suffix] of malformed) {
    test(`GET /sub-accounts - ${name} is 400`, async () => {
      expectError(await partner.get(subs(partner, suffix)), 400, /invalid (sub_account_id|key_id)/);
    });
  }

  test('an unknown sub_account_id is 404 "Sub account not found under the parent account"', async () => {
    expectError(await partner.get(subs(partner, `/${UNKNOWN_ID}`)), 404, 'Sub account not found under the parent account');
    expectError(await partner.post(subs(partner, `/${UNKNOWN_ID}/unsuspend`)), 404, /Sub account not found/);
    expectError(await partner.post(subs(partner, `/${UNKNOWN_ID}/api-keys`), { label: 'x', scopes: ['domains:read'] }), 404, /Sub account not found/);
  });
});

test.describe('bad input', () => {
  const badCreates: [string, unknown, RegExp][] = [
    ['a missing name', { website: 'a.example.com' }, /name/],
    ['an empty name', { name: '', website: 'a.example.com' }, /name/],
    ['a blank name', { name: '   ', website: 'a.example.com' }, /name/],
    ['a name of 256 characters', { name: 'x'.repeat(256), website: 'a.example.com' }, /name/],
    ['a numeric name', { name: 7, website: 'a.example.com' }, /name/],
    ['a missing website', { name: 'n' }, /website/],
    ['a website that is a URL', { name: 'n', website: 'https://a.example.com/path' }, /website/],
    ['a website with one label', { name: 'n', website: 'localhost' }, /website/],
    ['a website that is an IP', { name: 'n', website: '10.0.0.1' }, /website/],
    ['a website of 256 characters', { name: 'n', website: `${'a'.repeat(60)}.`.repeat(4) + 'a'.repeat(15) }, /website/],
    ['a website as an object', { name: 'n', website: { host: 'a.example.com' } }, /website/],
    ['a negative monthly_credit', { name: 'n', website: 'a.example.com', monthly_credit: -1 }, /monthly_credit/],
    ['a fractional monthly_credit', { name: 'n', website: 'a.example.com', monthly_credit: 1.5 }, /monthly_credit/],
    ['a monthly_credit over 1000000000', { name: 'n', website: 'a.example.com', monthly_credit: 1_000_000_001 }, /monthly_credit/],
    ['a monthly_credit as a string', { name: 'n', website: 'a.example.com', monthly_credit: '10' }, /monthly_credit/],
  ];
  for (const [name, body, message] of badCreates) {
    test(`POST /sub-accounts - ${name} is 400`, async () => {
      expectError(await partner.post(subs(), body), 400, message);
    });
  }

  test('POST /sub-accounts - a body that is not JSON is 400', async () => {
    expectError(await partner.request('POST', subs(), { rawBody: '{"name":', headers: { 'content-type': 'application/json' } }), 400);
  });

  const badUpdates: [string, unknown, RegExp][] = [
    ['an empty name', { name: '' }, /name/],
    ['a name of 256 characters', { name: 'x'.repeat(256) }, /name/],
    ['a website that is not a domain', { website: 'not a domain' }, /website/],
    ['a negative monthly_credit', { monthly_credit: -5 }, /monthly_credit/],
    ['a boolean monthly_credit', { monthly_credit: true }, /monthly_credit/],
  ];
  for (const [name, body, message] of badUpdates) {
    test(`PUT /sub-accounts/:sub - ${name} is 400`, async () => {
      const sub = await createSub();
      expectError(await partner.put(subs(partner, `/${sub.id}`), body), 400, message);
    });
  }
});

test.describe('idempotency', () => {
  test('parallel creates with one Idempotency-Key make one sub account', async () => {
    const parent = (await makePartner('Parallel')).api;
    const headers = { 'Idempotency-Key': `parallel-${Date.now()}` };
    const body = { name: 'Only once', website: 'once.example.com' };
    const responses = await Promise.all(Array.from({ length: 10 }, () => parent.post(subs(parent), body, { headers })));
    const ids = new Set<string>();
    for (const response of responses) {
      if (response.status === 409) {
        expect(response.headers.get('idempotent-replayed')).toBe('false');
        expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0);
      } else {
        expect(response.status).toBe(201);
        ids.add(response.body.id);
      }
    }
    expect(ids.size).toBe(1);
    const replay = await parent.post(subs(parent), body, { headers });
    expect(replay.status).toBe(201);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body.id).toBe([...ids][0]);
    const listed = await parent.get(subs(parent));
    expect(listed.body.data).toHaveLength(1);
  });

  test('a refused create (standard tier) is stored and replayed like any 4xx', async () => {
    const headers = { 'Idempotency-Key': `refused-${Date.now()}` };
    const first = await standard.post(subs(standard), { name: 'n', website: 'n.example.com' }, { headers });
    expectError(first, 403, /partner/);
    const second = await standard.post(subs(standard), { name: 'n', website: 'n.example.com' }, { headers });
    expectError(second, 403, /partner/);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
  });
});
