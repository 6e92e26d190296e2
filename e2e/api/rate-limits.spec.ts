import { expect, test } from '@playwright/test';
import { newAccount } from '../support/shared';

test('statistics endpoints allow 1 request per second per account (429 with Retry-After)', async () => {
  const { api } = await newAccount('Rate statistics');
  const path = api.account('/statistics/transactional/deliverability');
  const first = await api.get(path);
  expect(first.status).not.toBe(429);
  const second = await api.get(path);
  expect(second.status).toBe(429);
  expect(second.body).toEqual({ message: 'Too many requests, rate limited.' });
  expect(Number(second.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
  // The general bucket is separate.
  expect((await api.get('/v2/ping')).status).toBe(200);
});

test('general endpoints allow a burst of 200, then 429; other accounts are unaffected', async () => {
  const { api } = await newAccount('Rate general');
  const neighbour = await newAccount('Rate neighbour');
  const responses = await Promise.all(Array.from({ length: 450 }, () => api.get('/v2/ping', { checkContract: false })));
  const ok = responses.filter((response) => response.status === 200).length;
  const limited = responses.filter((response) => response.status === 429);
  expect(ok).toBeGreaterThanOrEqual(200);
  expect(limited.length).toBeGreaterThan(0);
  for (const response of limited) expect(Number(response.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
  expect((await neighbour.api.get('/v2/ping')).status).toBe(200);
});

test('all keys of an account share one bucket', async () => {
  const { api } = await newAccount('Rate shared');
  const second = await api.post(api.account('/api-keys'), { label: 'second', scopes: ['domains:read'] });
  const other = api.with(second.body.secret_key);
  await api.get(api.account('/statistics/transactional/bounce'));
  const response = await other.get(other.account('/statistics/transactional/bounce'));
  expect(response.status).toBe(429);
});
