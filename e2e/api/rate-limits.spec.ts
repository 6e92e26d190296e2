import { expect, test } from '@playwright/test';
import { createAccountWithKey } from '../support/cli';
import { ApiClient } from '../support/client';
import { createScratchDatabase, postgresAdminUrl } from '../support/postgres';
import { startServer, type ServerHandle } from '../support/server';

/**
 * A server of its own with small limits (5/s, burst 10), so that exceeding them does not depend on
 * how fast this machine is; the defaults (100/s, burst 200) are the same code with other numbers.
 */
let server: ServerHandle;
let dropDatabase: (() => Promise<void>) | null = null;

test.beforeAll(async () => {
  const env: Record<string, string> = { RATE_LIMIT_PER_SECOND: '5', RATE_LIMIT_BURST: '10' };
  const adminUrl = postgresAdminUrl();
  if (adminUrl) {
    const scratch = await createScratchDatabase(adminUrl, 'mailstead_rate');
    dropDatabase = scratch.drop;
    Object.assign(env, { DATABASE_URL: scratch.url, MAILSTEAD_SECRET: 'rate-limit-secret-rate-limit-secret-0001' });
  }
  server = await startServer({ env });
});

test.afterAll(async () => {
  await server?.stop();
  await dropDatabase?.();
});

async function newApi() {
  const account = await createAccountWithKey(server.env);
  return new ApiClient(server.baseUrl, server.dataDir, account.apiKey, account.accountId);
}

test('statistics endpoints allow 1 request per second per account (429 with Retry-After)', async () => {
  const api = await newApi();
  const path = api.account('/statistics/transactional/deliverability');
  const responses = await Promise.all(Array.from({ length: 4 }, () => api.get(path)));
  const limited = responses.filter((response) => response.status === 429);
  expect(limited.length).toBeGreaterThanOrEqual(1);
  expect(limited[0].body).toEqual({ message: 'Too many requests, rate limited.' });
  expect(Number(limited[0].headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
  // The general bucket is separate.
  expect((await api.get('/v2/ping')).status).toBe(200);
});

test('general endpoints allow the burst, then 429 with Retry-After; other accounts are unaffected', async () => {
  const api = await newApi();
  const neighbour = await newApi();
  const responses = await Promise.all(Array.from({ length: 60 }, () => api.get('/v2/ping', { checkContract: false })));
  const ok = responses.filter((response) => response.status === 200).length;
  const limited = responses.filter((response) => response.status === 429);
  expect(ok).toBeGreaterThanOrEqual(10);
  expect(limited.length).toBeGreaterThan(0);
  for (const response of limited) expect(Number(response.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
  expect((await neighbour.get('/v2/ping')).status).toBe(200);
  // After the window, the account may call again.
  await expect.poll(async () => (await api.get('/v2/ping')).status, { timeout: 15_000 }).toBe(200);
});

test('all keys of an account share one bucket', async () => {
  const api = await newApi();
  const second = await api.post(api.account('/api-keys'), { label: 'second', scopes: ['domains:read'] });
  const other = api.with(second.body.secret_key);
  const responses = await Promise.all([
    ...Array.from({ length: 3 }, () => api.get(api.account('/statistics/transactional/bounce'))),
    ...Array.from({ length: 3 }, () => other.get(other.account('/statistics/transactional/bounce'))),
  ]);
  expect(responses.filter((response) => response.status === 429).length).toBeGreaterThanOrEqual(4);
});
