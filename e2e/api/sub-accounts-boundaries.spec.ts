import { expect, test } from '@playwright/test';
import type { ApiClient } from '../support/client';
import { newAccount } from '../support/shared';
import { expectError, makePartner, subAccountHelpers, UNKNOWN_ID } from '../support/sub-account-fixtures';

/**
 * Sub accounts at their boundaries: every endpoint's scope, a parent reaching only its own children,
 * malformed and unknown ids, bad input, and idempotent creates (a refused one replayed too). CRUD,
 * suspension and their domains are in sub-accounts.spec.ts. The ApiClient checks every JSON answer
 * against the public AhaSend OpenAPI document.
 */

let partner: ApiClient;
let standard: ApiClient;

test.beforeAll(async () => {
  partner = (await makePartner('Partner')).api;
  standard = (await newAccount('Standard')).api;
});

const { subs, createSub } = subAccountHelpers(() => partner);

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
    const without = await partner.post(partner.account('/api-keys'), {
      label: 'no sub scopes',
      scopes: ['domains:read', 'accounts:read'],
    });
    const weak = partner.with(without.body.secret_key);
    for (const [scope, method, suffix, body] of operations) {
      const refused = await weak.request(method, subs(weak, suffix(sub.id)), { body });
      expectError(refused, 403, new RegExp(scope));
      const holder = await partner.post(partner.account('/api-keys'), { label: `only ${scope}`, scopes: [scope] });
      const allowed = await partner
        .with(holder.body.secret_key)
        .request(method, subs(partner, suffix(sub.id)), { body });
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
    expectError(
      await partner.get(subs(partner, `/${UNKNOWN_ID}`)),
      404,
      'Sub account not found under the parent account',
    );
    expectError(await partner.post(subs(partner, `/${UNKNOWN_ID}/unsuspend`)), 404, /Sub account not found/);
    expectError(
      await partner.post(subs(partner, `/${UNKNOWN_ID}/api-keys`), { label: 'x', scopes: ['domains:read'] }),
      404,
      /Sub account not found/,
    );
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
    [
      'a monthly_credit over 1000000000',
      { name: 'n', website: 'a.example.com', monthly_credit: 1_000_000_001 },
      /monthly_credit/,
    ],
    ['a monthly_credit as a string', { name: 'n', website: 'a.example.com', monthly_credit: '10' }, /monthly_credit/],
  ];
  for (const [name, body, message] of badCreates) {
    test(`POST /sub-accounts - ${name} is 400`, async () => {
      expectError(await partner.post(subs(), body), 400, message);
    });
  }

  test('POST /sub-accounts - a body that is not JSON is 400', async () => {
    expectError(
      await partner.request('POST', subs(), { rawBody: '{"name":', headers: { 'content-type': 'application/json' } }),
      400,
    );
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
