import { expect, test } from '@playwright/test';
import type { ApiClient } from '../support/client';
import { expectError, makePartner, subAccountHelpers } from '../support/sub-account-fixtures';

/**
 * A sub account's API keys, managed by parent keys: the secret once and its 5-minute replay, scopes
 * checked against the child, and what a child key cannot reach.
 */

let partner: ApiClient;
let partnerId: string;

test.beforeAll(async () => {
  const made = await makePartner('Partner');
  partner = made.api;
  partnerId = made.accountId;
});

const { subs, createSub, childClient } = subAccountHelpers(() => partner);

test.describe('child API keys', () => {
  test('created by the parent with the secret once; list, get, update and delete; the key acts on the child id only', async () => {
    const sub = await createSub();
    const created = await partner.post(subs(partner, `/${sub.id}/api-keys`), {
      label: 'child deploy',
      scopes: ['accounts:read', 'domains:read'],
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      object: 'api_key',
      account_id: sub.id,
      label: 'child deploy',
      ip_allow_list: [],
    });
    expect(created.body.secret_key).toMatch(/^aha-sk-[A-Za-z0-9]{64}$/);
    const keyPath = subs(partner, `/${sub.id}/api-keys/${created.body.id}`);

    const listed = await partner.get(subs(partner, `/${sub.id}/api-keys`));
    expect(listed.status).toBe(200);
    expect(listed.body.data.map((k: { id: string }) => k.id)).toEqual([created.body.id]);
    expect(listed.text).not.toContain(created.body.secret_key);
    const fetched = await partner.get(keyPath);
    expect(fetched.status).toBe(200);
    expect(fetched.body.secret_key).toBeUndefined();
    expect(fetched.body.account_id).toBe(sub.id);

    // No self-lockout guard from a parent key: a list that excludes every caller is saved.
    const updated = await partner.put(keyPath, { label: 'child deploy 2', ip_allow_list: ['192.0.2.1'] });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ label: 'child deploy 2', ip_allow_list: ['192.0.2.1/32'] });
    const childKey = partner.with(created.body.secret_key, sub.id);
    expectError(await childKey.get(childKey.account()), 403, /ip_allow_list/);
    expectError(await partner.put(keyPath, { label: 'child deploy 2' }), 400, /nothing to change/);
    expect((await partner.put(keyPath, { ip_allow_list: [] })).status).toBe(200);

    expect((await childKey.get(childKey.account())).status).toBe(200);
    expectError(await childKey.get(`/v2/accounts/${partnerId}`), 401);
    expectError(await childKey.get(`/v2/accounts/${partnerId}/sub-accounts`), 401);

    const removed = await partner.delete(keyPath);
    expect(removed.status).toBe(200);
    expect(removed.body.message).toContain(created.body.id);
    expectError(await childKey.get(childKey.account()), 401);
    expectError(await partner.get(keyPath), 404);
  });

  test('POST sub-account api-keys - an Idempotency-Key replays the same secret, encrypted, for 5 minutes', async () => {
    const sub = await createSub();
    const path = subs(partner, `/${sub.id}/api-keys`);
    const headers = { 'Idempotency-Key': `child-key-${Date.now()}` };
    const body = { label: 'replayed', scopes: ['accounts:read'] };
    const first = await partner.post(path, body, { headers });
    expect(first.status).toBe(201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const second = await partner.post(path, body, { headers });
    expect(second.status).toBe(201);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(second.body.secret_key).toBe(first.body.secret_key);
    expect(second.body.id).toBe(first.body.id);
    expectError(await partner.post(path, { ...body, label: 'other' }, { headers }), 422);
    const listed = await partner.get(path);
    expect(listed.body.data).toHaveLength(1);
  });

  test('scopes are checked against the child: its own domains only, no sub-account scopes, only what the parent key holds', async () => {
    const sub = await createSub();
    const child = await childClient(sub.id, ['domains:write', 'domains:read']);
    const childDomain = `child-${Date.now()}.example.com`;
    expect((await child.api.post(child.api.account('/domains'), { domain: childDomain })).status).toBe(201);
    const parentDomain = `parent-${Date.now()}.example.com`;
    expect((await partner.post(partner.account('/domains'), { domain: parentDomain })).status).toBe(201);
    const path = subs(partner, `/${sub.id}/api-keys`);

    const scoped = await partner.post(path, {
      label: 'scoped',
      scopes: [`messages:send:{${childDomain.toUpperCase()}}`],
    });
    expect(scoped.status).toBe(201);
    expect(scoped.body.scopes[0]).toMatchObject({ scope: `messages:send:{${childDomain}}` });
    expect(scoped.body.scopes[0].domain_id).not.toBeNull();
    expectError(
      await partner.post(path, { label: 'x', scopes: [`messages:send:{${parentDomain}}`] }),
      400,
      /does not have/,
    );
    expectError(await partner.post(path, { label: 'x', scopes: ['sub-accounts:read'] }), 400, /sub-account scopes/);
    expectError(
      await partner.post(path, { label: 'x', scopes: ['sub-account-api-keys:write'] }),
      400,
      /sub-account scopes/,
    );

    const limitedParent = await partner.post(partner.account('/api-keys'), {
      label: 'limited parent',
      scopes: ['sub-account-api-keys:write', 'domains:read'],
    });
    const limited = partner.with(limitedParent.body.secret_key);
    expect((await limited.post(path, { label: 'ok', scopes: ['domains:read'] })).status).toBe(201);
    expectError(await limited.post(path, { label: 'too much', scopes: ['messages:send:all'] }), 403, /cannot grant/);
    expectError(await limited.post(path, { label: 'too much', scopes: ['*'] }), 403, /cannot grant/);
  });

  test('a child key cannot manage keys through the sub-account endpoints, neither its own nor its siblings', async () => {
    const sub = await createSub();
    const sibling = await createSub();
    const child = await childClient(sub.id, ['*']);
    expectError(await child.api.get(`/v2/accounts/${partnerId}/sub-accounts/${sibling.id}/api-keys`), 401);
    expectError(await child.api.get(`/v2/accounts/${sibling.id}/api-keys`), 401);
    expectError(await child.api.get(child.api.account(`/sub-accounts/${sub.id}/api-keys`)), 403);
  });
});
