import { expect, test } from '@playwright/test';
import { runCli } from '../support/cli';
import type { ApiClient } from '../support/client';
import { newAccount, sharedServer } from '../support/shared';

let api: ApiClient;
let other: Awaited<ReturnType<typeof newAccount>>;

test.beforeAll(async () => {
  ({ api } = await newAccount('Auth'));
  other = await newAccount('Auth other');
});

test('GET /v2/ping - any valid key gets pong', async () => {
  const response = await api.get('/v2/ping');
  expect(response.status).toBe(200);
  expect(response.body).toEqual({ message: 'pong' });
});

test('GET /v2/ping - a key holding a single unrelated scope can ping', async () => {
  const created = await api.post(api.account('/api-keys'), { label: 'narrow', scopes: ['contacts:read'] });
  expect(created.status).toBe(201);
  const response = await api.with(created.body.secret_key).get('/v2/ping');
  expect(response.status).toBe(200);
});

const badCredentials: [string, Record<string, string>, string][] = [
  ['no Authorization header', {}, 'missing or malformed bearer token'],
  ['a Basic scheme', { authorization: 'Basic dXNlcjpwYXNz' }, 'missing or malformed bearer token'],
  ['an empty bearer', { authorization: 'Bearer ' }, 'missing or malformed bearer token'],
  ['an unknown key', { authorization: `Bearer aha-sk-${'x'.repeat(64)}` }, 'invalid API key'],
  ['a key without the prefix', { authorization: `Bearer ${'y'.repeat(71)}` }, 'invalid API key'],
];

for (const [name, headers, message] of badCredentials) {
  test(`GET /v2/ping - ${name} is 401`, async () => {
    const response = await api.get('/v2/ping', { headers, apiKey: null });
    expect(response.status).toBe(401);
    expect(response.body).toEqual({ message });
  });
}

test('unauthenticated requests to unknown paths are 401, not 404', async () => {
  const response = await api.get('/v2/no-such-thing', { apiKey: null });
  expect(response.status).toBe(401);
});

test("a key used with another account's id is 401", async () => {
  const response = await api.get(`/v2/accounts/${other.accountId}`);
  expect(response.status).toBe(401);
  expect(response.body.message).toMatch(/account/);
  const keys = await api.get(`/v2/accounts/${other.accountId}/api-keys`);
  expect(keys.status).toBe(401);
});

test('a malformed account id in the path is 400', async () => {
  const response = await api.get('/v2/accounts/not-a-uuid/api-keys');
  expect(response.status).toBe(400);
  expect(response.body).toEqual({ message: 'invalid account_id' });
});

test('a suspended account is 401 "Account is suspended" until reactivated', async () => {
  const victim = await newAccount('Suspended');
  const { cliEnv } = sharedServer();
  expect((await runCli(['accounts', 'suspend', victim.accountId, '--reason', 'abuse'], cliEnv)).code).toBe(0);
  const refused = await victim.api.get('/v2/ping');
  expect(refused.status).toBe(401);
  expect(refused.body).toEqual({ message: 'Account is suspended' });
  expect((await runCli(['accounts', 'unsuspend', victim.accountId], cliEnv)).code).toBe(0);
  expect((await victim.api.get('/v2/ping')).status).toBe(200);
});

test('a deleted key stops working at once', async () => {
  const created = await api.post(api.account('/api-keys'), { label: 'short-lived', scopes: ['api-keys:read'] });
  const key = api.with(created.body.secret_key);
  expect((await key.get('/v2/ping')).status).toBe(200);
  expect((await api.delete(api.account(`/api-keys/${created.body.id}`))).status).toBe(200);
  expect((await key.get('/v2/ping')).status).toBe(401);
});

test('last_used_at is set after the key is used', async () => {
  const created = await api.post(api.account('/api-keys'), { label: 'usage', scopes: ['api-keys:read'] });
  expect(created.body.last_used_at).toBeNull();
  await api.with(created.body.secret_key).get('/v2/ping');
  await expect
    .poll(async () => (await api.get(api.account(`/api-keys/${created.body.id}`))).body.last_used_at)
    .not.toBeNull();
});

test('GET /v2/openapi.json is served without authentication as OpenAPI 3.1', async () => {
  const response = await api.get('/v2/openapi.json', { apiKey: null });
  expect(response.status).toBe(200);
  expect(response.body.openapi).toBe('3.1.0');
  expect(Object.keys(response.body.paths)).toEqual(
    expect.arrayContaining([
      '/v2/ping',
      '/v2/accounts/{account_id}',
      '/v2/accounts/{account_id}/api-keys',
      '/v2/accounts/{account_id}/api-keys/{key_id}',
    ]),
  );
  const create = response.body.paths['/v2/accounts/{account_id}/api-keys'].post;
  expect(create.requestBody.content['application/json'].schema).toBeTruthy();
  expect(create.security).toEqual([{ BearerAuth: ['api-keys:write'] }]);
});

test('/internal/* takes dashboard sessions only: an API key is refused', async () => {
  const response = await api.get('/internal/me', { checkContract: false });
  expect(response.status).toBe(401);
  expect(response.body.message).toMatch(/sign in/);
});
