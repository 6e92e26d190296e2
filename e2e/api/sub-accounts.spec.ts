import { expect, test } from '@playwright/test';
import type { ApiClient } from '../support/client';
import { newAccount } from '../support/shared';
import {
  cli,
  expectError,
  makePartner,
  statusOnInstance,
  SUB_ACCOUNT_FIELDS,
  subAccountHelpers,
  unique,
  UNKNOWN_ID,
} from '../support/sub-account-fixtures';

/**
 * Sub accounts (the partner tier), managed by parent keys: CRUD, suspension and their domains. Scopes
 * and tenancy, bad input and idempotency are in sub-accounts-boundaries.spec.ts; child API keys and
 * the monthly credit have specs of their own. The ApiClient checks every JSON answer against the
 * public AhaSend OpenAPI document.
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
    expectError(
      await wildcard.api.post(subs(wildcard.api), { name: 'grandchild', website: 'g.example.com' }),
      403,
      /sub account cannot have sub accounts/,
    );
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
    const renamed = await partner.put(subs(partner, `/${sub.id}`), {
      name: 'Renamed',
      website: 'renamed.example.com',
      monthly_credit: 1000,
    });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({
      id: sub.id,
      name: 'Renamed',
      website: 'renamed.example.com',
      monthly_credit: 1000,
      status: 'active',
    });
    const partial = await partner.put(subs(partner, `/${sub.id}`), { monthly_credit: 0, name: null });
    expect(partial.body).toMatchObject({ name: 'Renamed', monthly_credit: 0 });
    for (const body of [
      {},
      { name: null, website: null, monthly_credit: null },
      { name: 'Renamed' },
      { website: 'RENAMED.example.com' },
      { name: 'Renamed', monthly_credit: 0 },
      { unknown: 1 },
    ]) {
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
    expect(unpaused.body).toMatchObject({
      object: 'domain',
      domain,
      account_id: sub.id,
      paused: false,
      pause_reason: null,
    });

    const holder = await partner.post(partner.account('/api-keys'), {
      label: 'suspend only',
      scopes: ['sub-accounts:suspend'],
    });
    expect((await partner.with(holder.body.secret_key).post(path)).status).toBe(200);
    const writer = await partner.post(partner.account('/api-keys'), {
      label: 'domains only',
      scopes: ['domains:write', 'sub-accounts:read'],
    });
    expectError(await partner.with(writer.body.secret_key).post(path), 403, /sub-accounts:suspend/);
    expectError(
      await partner.post(subs(partner, `/${sub.id}/domains/not-a-domain-of-the-child.example.com/unpause`)),
      404,
      /domain not found/,
    );
    const other = await makePartner('Unpause other');
    expectError(
      await other.api.post(subs(other.api, `/${sub.id}/domains/${domain}/unpause`)),
      404,
      /Sub account not found/,
    );
  });
});
