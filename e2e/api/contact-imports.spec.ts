import { randomUUID } from 'node:crypto';
import { expect, test } from '@playwright/test';
import type { ApiClient } from '../support/client';
import { expectError, importHelpers } from '../support/contact-import-fixtures';
import { newAccount } from '../support/shared';

/**
 * Contact import (marketing-api.md, Contacts: POST /contacts/import and GET /contacts/import/{id})
 * on the shared server: uploads in both formats, the job's progress and per-row errors, list_id,
 * scopes, tenancy, idempotency, and 100,000 rows through the worker. The upload's limits are in
 * contact-imports-limits.spec.ts, hostile files and attribute columns in contact-imports-content.spec.ts.
 */
let api: ApiClient;
let other: ApiClient;
let accountId: string;
const stamp = Date.now().toString(36);

test.beforeAll(async () => {
  ({ api, accountId } = await newAccount('Contact imports'));
  ({ api: other } = await newAccount('Contact imports (other account)'));
});

test.describe.configure({ mode: 'serial' });

const IMPORT_FIELDS = [
  'counts',
  'created_at',
  'errors',
  'failure_reason',
  'finished_at',
  'format',
  'id',
  'list_id',
  'object',
  'processed_bytes',
  'size_bytes',
  'started_at',
  'status',
];

const { importPath, upload, finished, contact } = importHelpers(() => api);

test('POST /contacts/import - CSV: 202 with a queued contact_import, then completed with counts and row errors by row number', async () => {
  await api.post(api.account('/contacts'), {
    email: `existing.${stamp}@csv.example`,
    first_name: 'Kept',
    last_name: 'Last',
  });
  const csv = [
    'email,first_name,last_name',
    `Ada.${stamp}@CSV.example,Ada,Lovelace`,
    `existing.${stamp}@csv.example,New,`,
    'not an address,X,Y',
    '',
    `grace.${stamp}@csv.example,Grace,Hopper`,
  ].join('\n');
  const accepted = await upload(api, csv);
  expect(accepted.status, accepted.text).toBe(202);
  expect(Object.keys(accepted.body).sort()).toEqual(IMPORT_FIELDS);
  expect(accepted.body).toMatchObject({
    object: 'contact_import',
    status: 'queued',
    format: 'csv',
    list_id: null,
    counts: { processed: 0, created: 0, updated: 0, errors: 0 },
    errors: [],
    failure_reason: null,
    finished_at: null,
    size_bytes: Buffer.byteLength(csv),
  });
  const job = await finished(api, accepted.body.id);
  expect(job).toMatchObject({
    status: 'completed',
    counts: { processed: 5, created: 2, updated: 1, errors: 1 },
    errors: [{ row: 4, email: 'not an address', reason: 'email: invalid email address' }],
  });
  expect(job.started_at).not.toBeNull();
  expect(job.finished_at).not.toBeNull();
  expect(await contact(`ada.${stamp}@csv.example`)).toMatchObject({
    first_name: 'Ada',
    last_name: 'Lovelace',
    unsubscribed: false,
  });
  // An empty cell leaves the stored value alone.
  expect(await contact(`existing.${stamp}@csv.example`)).toMatchObject({ first_name: 'New', last_name: 'Last' });
});

test('POST /contacts/import - JSON lines by Content-Type (application/x-ndjson, application/jsonl) or ?format=jsonl', async () => {
  const lines = (tag: string) =>
    [JSON.stringify({ email: `${tag}.${stamp}@jsonl.example`, first_name: tag }), '{"email": 5}', 'nope'].join('\n') +
    '\n';
  for (const [type, query, tag] of [
    ['application/x-ndjson', '', 'nd'],
    ['application/jsonl', '', 'jl'],
    ['application/octet-stream', '?format=jsonl', 'fmt'],
  ]) {
    const accepted = await upload(api, lines(tag), type, query);
    expect(accepted.status, accepted.text).toBe(202);
    expect(accepted.body.format).toBe('jsonl');
    const job = await finished(api, accepted.body.id);
    expect(job.counts).toEqual({ processed: 3, created: 1, updated: 0, errors: 2 });
    expect(job.errors).toEqual([
      { row: 2, email: null, reason: 'email: must be a string' },
      { row: 3, email: null, reason: expect.stringMatching(/^not valid JSON/) },
    ]);
    expect((await contact(`${tag}.${stamp}@jsonl.example`)).first_name).toBe(tag);
  }
});

test('POST /contacts/import - list_id adds every contact as confirmed; an unknown, deleted or foreign list is 404', async () => {
  const list = await api.post(api.account('/lists'), { name: `Import ${stamp}` });
  expect(list.status).toBe(201);
  const accepted = await upload(
    api,
    `email\nm1.${stamp}@list.example\nm2.${stamp}@list.example\n`,
    'text/csv',
    `?list_id=${list.body.id}`,
  );
  expect(accepted.body.list_id).toBe(list.body.id);
  expect((await finished(api, accepted.body.id)).status).toBe('completed');
  expect((await api.get(api.account(`/lists/${list.body.id}`))).body.member_counts).toMatchObject({
    confirmed: 2,
    unsubscribed: 0,
  });
  // A member who unsubscribed stays unsubscribed when imported again.
  expect(
    (
      await api.put(api.account(`/lists/${list.body.id}/members/${encodeURIComponent(`m1.${stamp}@list.example`)}`), {
        subscription_status: 'unsubscribed',
      })
    ).status,
  ).toBe(200);
  const again = await upload(api, `email\nm1.${stamp}@list.example\n`, 'text/csv', `?list_id=${list.body.id}`);
  await finished(api, again.body.id);
  expect((await api.get(api.account(`/lists/${list.body.id}`))).body.member_counts).toMatchObject({
    confirmed: 1,
    unsubscribed: 1,
  });

  expectError(await upload(api, 'email\n', 'text/csv', `?list_id=${randomUUID()}`), 404, /list not found/);
  expectError(await upload(api, 'email\n', 'text/csv', '?list_id=not-a-list'), 404);
  const foreign = await other.post(other.account('/lists'), { name: 'Theirs' });
  expectError(await upload(api, 'email\n', 'text/csv', `?list_id=${foreign.body.id}`), 404);
  const gone = await api.post(api.account('/lists'), { name: 'Gone' });
  await api.delete(api.account(`/lists/${gone.body.id}`));
  expectError(await upload(api, 'email\n', 'text/csv', `?list_id=${gone.body.id}`), 404);
});

test("GET /contacts/import/{id} - unknown, malformed and other accounts' ids are 404", async () => {
  const mine = await upload(api, `email\nmine.${stamp}@ids.example\n`);
  expectError(await api.get(importPath(api, `/${randomUUID()}`)), 404, /contact import not found/);
  expectError(await api.get(importPath(api, '/not-an-id')), 404);
  expectError(await other.get(importPath(other, `/${mine.body.id}`)), 404);
  // Another account's key on this account's path does not reach it.
  expect((await other.get(`/v2/accounts/${accountId}/contacts/import/${mine.body.id}`)).status).toBe(401);
  await finished(api, mine.body.id);
});

test('scopes: POST needs contacts:write (checked before the body is read), GET needs contacts:read', async () => {
  const keyWith = async (scopes: string[]) =>
    api.with((await api.post(api.account('/api-keys'), { label: `import ${scopes}`, scopes })).body.secret_key);
  const reader = await keyWith(['contacts:read']);
  const writer = await keyWith(['contacts:write']);
  expectError(await upload(reader, 'email\n', 'text/plain'), 403);
  const accepted = await upload(writer, `email\nscoped.${stamp}@scope.example\n`);
  expect(accepted.status).toBe(202);
  expect((await writer.get(importPath(writer, `/${accepted.body.id}`))).status).toBe(403);
  expect((await finished(reader, accepted.body.id)).status).toBe('completed');
});

test('Idempotency-Key: a retry replays the first job instead of importing twice', async () => {
  const body = `email\nidem.${stamp}@idem.example\n`;
  const key = `import-${stamp}`;
  const first = await upload(api, body, 'text/csv', '', { 'Idempotency-Key': key });
  const retry = await upload(api, body, 'text/csv', '', { 'Idempotency-Key': key });
  expect(retry.status).toBe(202);
  expect(retry.headers.get('idempotent-replayed')).toBe('true');
  expect(retry.body.id).toBe(first.body.id);
  expect((await upload(api, body + 'x\n', 'text/csv', '', { 'Idempotency-Key': key })).status).toBe(422);
  await finished(api, first.body.id);
});

test('100,000 rows import through the worker', async () => {
  test.setTimeout(180_000);
  const rows = Array.from(
    { length: 100_000 },
    (_, index) => `bulk${index}.${stamp}@bulk.example,First${index},Last${index}`,
  );
  const csv = ['email,first_name,last_name', ...rows].join('\n');
  const started = Date.now();
  const accepted = await upload(api, csv);
  expect(accepted.status).toBe(202);
  const job = await finished(api, accepted.body.id, 150_000);
  console.log(
    `100,000 rows (${(csv.length / 1e6).toFixed(1)} MB) imported in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
  expect(job).toMatchObject({
    status: 'completed',
    counts: { processed: 100_000, created: 100_000, updated: 0, errors: 0 },
    processed_bytes: Buffer.byteLength(csv),
  });
  expect((await contact(`bulk99999.${stamp}@bulk.example`)).first_name).toBe('First99999');
});
