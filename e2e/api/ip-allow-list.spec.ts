import { expect, test } from '@playwright/test';
import type { ApiClient } from '../support/client';
import { newAccount } from '../support/shared';

let api: ApiClient;

test.beforeAll(async () => {
  ({ api } = await newAccount('IP allow list'));
});

test('a key whose non-empty list does not cover the client IP is 403 on every endpoint, whatever its scopes', async () => {
  const created = await api.post(api.account('/api-keys'), {
    label: 'elsewhere',
    scopes: ['*'],
    ip_allow_list: ['198.51.100.0/24', '2001:db8::/32'],
  });
  expect(created.status).toBe(201);
  const key = api.with(created.body.secret_key);
  for (const response of [
    await key.get('/v2/ping'),
    await key.get(key.account()),
    await key.get(key.account('/api-keys')),
    await key.post(key.account('/api-keys'), { label: 'x', scopes: ['domains:read'] }),
    await key.get(key.account('/no-such-path')),
  ]) {
    expect(response.status).toBe(403);
    expect(response.body.message).toMatch(/not in this API key's ip_allow_list/);
  }
});

test('a list that covers the client IP lets requests through', async () => {
  const created = await api.post(api.account('/api-keys'), {
    label: 'here',
    scopes: ['api-keys:read'],
    ip_allow_list: ['127.0.0.0/8'],
  });
  const key = api.with(created.body.secret_key);
  expect((await key.get('/v2/ping')).status).toBe(200);
  expect((await key.get(key.account('/api-keys'))).status).toBe(200);
});

test('the IP check comes after authentication: a wrong key is 401 even from an excluded IP', async () => {
  const response = await api.get('/v2/ping', { apiKey: `aha-sk-${'q'.repeat(64)}` });
  expect(response.status).toBe(401);
});
