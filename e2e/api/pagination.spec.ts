import { expect, test } from '@playwright/test';
import type { ApiClient } from '../support/client';
import { newAccount } from '../support/shared';

let api: ApiClient;
let ids: string[]; // newest first, as the API lists them

test.beforeAll(async () => {
  ({ api } = await newAccount('Pagination'));
  for (let i = 0; i < 6; i++) {
    const created = await api.post(api.account('/api-keys'), { label: `key ${i}`, scopes: ['domains:read'] });
    expect(created.status).toBe(201);
  }
  const all = await api.get(api.account('/api-keys'));
  ids = all.body.data.map((key: { id: string }) => key.id);
  expect(ids).toHaveLength(7); // six plus the CLI's key
});

const list = (query: string) => api.get(api.account(`/api-keys?${query}`));
const idsOf = (response: { body: { data: { id: string }[] } }) => response.body.data.map((key) => key.id);

test('GET api-keys - newest first, default limit 100, no previous_cursor at the start', async () => {
  const page = await list('');
  expect(page.body.pagination).toEqual({ has_more: false });
  expect([...ids].sort().reverse()).toEqual(ids);
});

test('GET api-keys - after walks forward and before returns the page just before', async () => {
  const first = await list('limit=3');
  expect(idsOf(first)).toEqual(ids.slice(0, 3));
  expect(first.body.pagination.has_more).toBe(true);
  expect(first.body.pagination.previous_cursor).toBeUndefined();

  const second = await list(`limit=3&after=${first.body.pagination.next_cursor}`);
  expect(idsOf(second)).toEqual(ids.slice(3, 6));
  expect(second.body.pagination.has_more).toBe(true);
  expect(second.body.pagination.previous_cursor).toBeTruthy();

  const third = await list(`limit=3&after=${second.body.pagination.next_cursor}`);
  expect(idsOf(third)).toEqual(ids.slice(6));
  expect(third.body.pagination.has_more).toBe(false);
  expect(third.body.pagination.next_cursor).toBeUndefined();

  const back = await list(`limit=3&before=${third.body.pagination.previous_cursor}`);
  expect(idsOf(back)).toEqual(ids.slice(3, 6));
  expect(back.body.pagination.has_more).toBe(true);
  expect(back.body.pagination.previous_cursor).toBeTruthy();

  const start = await list(`limit=3&before=${back.body.pagination.previous_cursor}`);
  expect(idsOf(start)).toEqual(ids.slice(0, 3));
  expect(start.body.pagination.previous_cursor).toBeUndefined();
  expect(start.body.pagination.next_cursor).toBeTruthy();
});

test('GET api-keys - the legacy cursor parameter works as after; empty values are absent', async () => {
  const first = await list('limit=2&cursor=');
  const second = await list(`limit=2&cursor=${first.body.pagination.next_cursor}&after=&before=`);
  expect(idsOf(second)).toEqual(ids.slice(2, 4));
});

const badQueries: [string, RegExp][] = [
  ['limit=0', /limit must be between 1 and 100/],
  ['limit=101', /limit must be between 1 and 100/],
  ['limit=abc', /limit must be between 1 and 100/],
  ['limit=2.5', /limit must be between 1 and 100/],
  ['after=nope', /invalid after cursor/],
  ['before=eyJpZCI6MTIzNH0', /invalid before cursor/],
  ['cursor=%25%25', /^invalid cursor$/],
];

for (const [query, message] of badQueries) {
  test(`GET api-keys?${query} is 400`, async () => {
    const response = await list(query);
    expect(response.status).toBe(400);
    expect(response.body.message).toMatch(message);
  });
}

test('GET api-keys - after and before together is 400', async () => {
  const first = await list('limit=2');
  const cursor = first.body.pagination.next_cursor;
  const response = await list(`after=${cursor}&before=${cursor}`);
  expect(response.status).toBe(400);
  expect(response.body.message).toMatch(/after and before/);
});
