import { randomUUID } from 'node:crypto';
import { expect, test } from '@playwright/test';
import pg from 'pg';
import type { ApiClient } from '../support/client';
import { isPostgresRun } from '../support/server';
import { WELCOME, expectError, templateAccounts, templateHelpers } from '../support/template-fixtures';

/**
 * Templates written in parallel, on the shared server: draft updates and publishes serialised per
 * template (409 with Retry-After when they keep colliding), and Idempotency-Keys on both.
 */
let api: ApiClient;
let sender: string;

test.beforeAll(async () => {
  ({ api, sender } = await templateAccounts());
});

test.describe.configure({ mode: 'serial' });

const { templates, newTemplate } = templateHelpers(() => ({ api, sender }));

test('PUT /templates/:id in parallel - each succeeds or is 409 with Retry-After; the draft is one of the writes', async () => {
  const id = await newTemplate();
  const writes = Array.from({ length: 20 }, (_, index) => ({
    subject: `Subject ${index}`,
    html_content: `<p>Body ${index}</p>`,
    text_content: `Text ${index}`,
  }));
  const responses = await Promise.all(writes.map((body) => api.put(templates(api, `/${id}`), body)));
  for (const response of responses) {
    if (response.status === 409) expect(Number(response.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    else expect(response.status, response.text).toBe(200);
  }
  const succeeded = responses.filter((response) => response.status === 200);
  expect(succeeded.length).toBeGreaterThanOrEqual(1);
  const final = (await api.get(templates(api, `/${id}`))).body;
  const match = writes.find((write) => write.subject === final.subject);
  expect(match, 'the final subject is one of the writes').toBeDefined();
  expect({ subject: final.subject, html_content: final.html_content, text_content: final.text_content }).toEqual(match);
  // Every successful write was a revision of its own: none was lost in between.
  expect(new Set(succeeded.map((response) => response.body.revision)).size).toBe(succeeded.length);
  expect(final.revision).toBe(1 + succeeded.length);
});

test('POST /templates/:id/publish in parallel - consecutive versions, no gaps, no duplicates', async () => {
  const id = await newTemplate();
  const responses = await Promise.all(Array.from({ length: 12 }, () => api.post(templates(api, `/${id}/publish`))));
  for (const response of responses) {
    if (response.status === 409) expect(Number(response.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    else expect(response.status, response.text).toBe(201);
  }
  const numbers = responses
    .filter((response) => response.status === 201)
    .map((response) => response.body.version)
    .sort((a: number, b: number) => a - b);
  expect(numbers).toEqual(Array.from({ length: numbers.length }, (_, index) => index + 1));
  const versions = (await api.get(templates(api, `/${id}/versions`))).body.data.map(
    (version: { version: number }) => version.version,
  );
  expect(versions).toEqual([...numbers].reverse());
  expect((await api.get(templates(api, `/${id}`))).body.latest_version).toBe(numbers.length);
});

test('POST /templates in parallel with one Idempotency-Key - one template, replayed after', async () => {
  const key = randomUUID();
  const body = { ...WELCOME, name: `Idem ${key}` };
  const responses = await Promise.all(
    Array.from({ length: 10 }, () => api.post(templates(), body, { headers: { 'Idempotency-Key': key } })),
  );
  for (const response of responses) {
    if (response.status === 409) {
      expect(response.headers.get('idempotent-replayed')).toBe('false');
      expect(Number(response.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    } else expect(response.status, response.text).toBe(201);
  }
  const created = responses.filter((response) => response.status === 201);
  expect(new Set(created.map((response) => response.body.id)).size).toBe(1);
  const replay = await api.post(templates(), body, { headers: { 'Idempotency-Key': key } });
  expect(replay.status).toBe(201);
  expect(replay.headers.get('idempotent-replayed')).toBe('true');
  expect(replay.body.id).toBe(created[0].body.id);
  const all = await api.get(templates(api, '?limit=100'));
  expect(all.body.data.filter((item: { name: string }) => item.name === body.name)).toHaveLength(1);
  expect(
    (await api.post(templates(), { ...body, name: 'different' }, { headers: { 'Idempotency-Key': key } })).status,
  ).toBe(422);
});

test('POST /templates/:id/publish with an Idempotency-Key - one version, replayed after', async () => {
  const id = await newTemplate();
  const key = randomUUID();
  const responses = await Promise.all(
    Array.from({ length: 6 }, () =>
      api.post(templates(api, `/${id}/publish`), undefined, { headers: { 'Idempotency-Key': key } }),
    ),
  );
  const created = responses.filter((response) => response.status === 201);
  expect(new Set(created.map((response) => response.body.version))).toEqual(new Set([1]));
  const replay = await api.post(templates(api, `/${id}/publish`), undefined, { headers: { 'Idempotency-Key': key } });
  expect(replay.headers.get('idempotent-replayed')).toBe('true');
  expect(replay.body.version).toBe(1);
  expect((await api.get(templates(api, `/${id}`))).body.latest_version).toBe(1);
});

test('a template write that keeps colliding is 409 with Retry-After, not stored for its Idempotency-Key (PostgreSQL)', async () => {
  test.skip(!isPostgresRun(), 'needs a second connection to hold the row lock');
  const id = await newTemplate();
  const holder = new pg.Client({ connectionString: process.env.MAILSTEAD_TEST_DATABASE_URL });
  await holder.connect();
  const key = randomUUID();
  try {
    await holder.query('begin');
    await holder.query('select id from templates where id = $1 for update', [id]);
    const busy = await api.post(templates(api, `/${id}/publish`), undefined, { headers: { 'Idempotency-Key': key } });
    expectError(busy, 409, /being changed by another request/);
    expect(Number(busy.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(busy.headers.get('idempotent-replayed')).toBeNull();
    const put = await api.put(templates(api, `/${id}`), { name: 'blocked' });
    expectError(put, 409);
    expect(Number(put.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
  } finally {
    await holder.query('rollback');
    await holder.end();
  }
  // The retry with the same key runs again rather than replaying the 409.
  const retried = await api.post(templates(api, `/${id}/publish`), undefined, { headers: { 'Idempotency-Key': key } });
  expect(retried.status, retried.text).toBe(201);
  expect(retried.headers.get('idempotent-replayed')).toBeNull();
  expect(retried.body.version).toBe(1);
  expect((await api.get(templates(api, `/${id}`))).body).toMatchObject({ name: 'Welcome', latest_version: 1 });
});
