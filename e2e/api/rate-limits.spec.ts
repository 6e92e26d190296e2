import { expect, test } from '@playwright/test';
import { newApi, ownServer } from '../support/own-server';

/**
 * Small limits (5/s, burst 10), so that exceeding them does not depend on how fast this machine is;
 * the defaults are the same code with other numbers.
 */
test.describe('small limits', () => {
  const server = ownServer(
    { RATE_LIMIT_PER_SECOND: '5', RATE_LIMIT_BURST: '10' },
    'rate-limit-secret-rate-limit-secret-0001',
  );

  test('statistics endpoints allow 1 request per second per account (429 with Retry-After)', async () => {
    const api = await newApi(server());
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
    const api = await newApi(server());
    const neighbour = await newApi(server());
    const responses = await Promise.all(
      Array.from({ length: 60 }, () => api.get('/v2/ping', { checkContract: false })),
    );
    const ok = responses.filter((response) => response.status === 200).length;
    const limited = responses.filter((response) => response.status === 429);
    expect(ok).toBeGreaterThanOrEqual(10);
    expect(limited.length).toBeGreaterThan(0);
    for (const response of limited) expect(response.headers.get('retry-after')).toMatch(/^[1-9]\d*$/);
    expect((await neighbour.get('/v2/ping')).status).toBe(200);
    // A token comes back every 200 ms.
    await expect.poll(async () => (await api.get('/v2/ping')).status, { timeout: 15_000 }).toBe(200);
  });

  test('all keys of an account share one bucket', async () => {
    const api = await newApi(server());
    const second = await api.post(api.account('/api-keys'), { label: 'second', scopes: ['domains:read'] });
    const other = api.with(second.body.secret_key);
    const responses = await Promise.all([
      ...Array.from({ length: 3 }, () => api.get(api.account('/statistics/transactional/bounce'))),
      ...Array.from({ length: 3 }, () => other.get(other.account('/statistics/transactional/bounce'))),
    ]);
    expect(responses.filter((response) => response.status === 429).length).toBeGreaterThanOrEqual(4);
  });
});
