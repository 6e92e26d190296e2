import { randomUUID } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { parse } from 'csv-parse/sync';
import type { ApiClient, ApiResponse } from '../support/client';
import { expectError, importHelpers } from '../support/contact-import-fixtures';
import { dashboardSession } from '../support/dashboard-session';
import { newAccount, serverLinesAbout } from '../support/shared';

/**
 * Contact exports (marketing-api.md Part 2, Exports) on the shared server: every contact, a list, a
 * filter; the file's rows equal the contacts, hostile values round-trip and formulas are defused;
 * scopes, tenancy and input errors. The worker's restart after SIGKILL and its memory are in
 * e2e/process/contact-export-crash.spec.ts; expiry (24 hours) in tests/lib/core/contact-exports.
 */
let api: ApiClient;
let other: ApiClient;
let ownerId: string;
const stamp = Date.now().toString(36);
const PLAIN = 300;

// Each test waits for up to two exports (see exported).
test.describe.configure({ mode: 'serial', timeout: 300_000 });

const { upload, finished: importFinished } = importHelpers(() => api);
const exportPath = (client: ApiClient, suffix = '') => client.account(`/contacts/export${suffix}`);

/**
 * Queues an export and waits for its end. The shared server runs one export at a time beside every
 * other suite's background work; a wait that runs out names the job and the server's lines about it.
 */
async function exported(client: ApiClient, body: unknown = {}): Promise<any> {
  const queued = await client.post(exportPath(client), body);
  expect(queued.status, queued.text).toBe(202);
  let job: any = null;
  await expect
    .poll(
      async () => {
        job = (await client.get(exportPath(client, `/${queued.body.id}`))).body;
        return job.status;
      },
      { timeout: 120_000, intervals: [100, 250, 500] },
    )
    .toMatch(/^(done|failed)$/)
    .catch((error: Error) => {
      throw new Error(`${error.message}\njob: ${JSON.stringify(job)}\n${serverLinesAbout(queued.body.id)}`);
    });
  return job;
}

/** The file by its file_url's path (the shared server's PUBLIC_URL is not the address the tests use). */
async function download(client: ApiClient, job: any): Promise<ApiResponse> {
  return client.get(new URL(job.file_url).pathname, { checkContract: false });
}

const rowsOf = (csv: string) => parse(csv) as string[][];

const HOSTILE = [
  { email: `comma.${stamp}@x.example`, first_name: 'Zoë, "the" 🦄', last_name: 'line one\nline two' },
  { email: `formula.${stamp}@x.example`, first_name: '=HYPERLINK("http://evil.example","x")', last_name: '@SUM(A1)' },
  { email: `plus.${stamp}@x.example`, first_name: '+1+cmd|/C calc!A0', last_name: '-2+3' },
  { email: `tab.${stamp}@x.example`, first_name: 'Tab', last_name: '東京; semi', attributes: { plan: '\t=1+2' } },
];

test.beforeAll(async () => {
  ({ api, ownerId } = await newAccount('Contact exports'));
  ({ api: other } = await newAccount('Contact exports (other account)'));
  const session = await dashboardSession(ownerId);
  for (const [key, type] of [
    ['plan', 'string'],
    ['age', 'number'],
  ]) {
    const created = await api.with(null).request('POST', `/internal/accounts/${api.accountId}/contact-attributes`, {
      body: { key, type },
      headers: session,
      checkContract: false,
    });
    expect(created.status, created.text).toBe(201);
  }
  const csv = [
    'email,plan,age',
    ...Array.from(
      { length: PLAIN },
      (_, index) => `p${index}.${stamp}@bulk.example,${index % 3 ? 'free' : 'gold'},${index}`,
    ),
  ].join('\n');
  const accepted = await upload(api, csv);
  expect(accepted.status, accepted.text).toBe(202);
  expect((await importFinished(api, accepted.body.id)).counts.created).toBe(PLAIN);
  for (const contact of HOSTILE) expect((await api.post(api.account('/contacts'), contact)).status).toBe(201);
});

test('POST /contacts/export - every contact: 202 queued, then done; the file has one row per contact, hostile values round-trip', async () => {
  const queued = await api.post(exportPath(api), {});
  expect(queued.status, queued.text).toBe(202);
  expect(queued.body).toMatchObject({ object: 'contact_export', status: 'queued', exported: 0, file_url: null });
  const job = await exported(api);
  expect(job).toMatchObject({ status: 'done', exported: PLAIN + HOSTILE.length, total: PLAIN + HOSTILE.length });
  expect(new URL(job.file_url).pathname).toBe(api.account(`/contacts/export/${job.id}/file`));
  const file = await download(api, job);
  expect(file.status).toBe(200);
  expect(file.headers.get('content-type')).toBe('text/csv; charset=utf-8');
  expect(file.headers.get('content-disposition')).toMatch(/^attachment; filename="contacts-[\d-]+-[0-9a-f]{8}\.csv"$/);
  expect(Number(file.headers.get('content-length'))).toBe(Buffer.byteLength(file.text));
  expect(job.byte_size).toBe(Buffer.byteLength(file.text));
  const [header, ...rows] = rowsOf(file.text);
  expect(header).toEqual(['email', 'first_name', 'last_name', 'unsubscribed', 'created_at', 'age', 'plan']);
  expect(rows).toHaveLength(PLAIN + HOSTILE.length);
  const byEmail = new Map(rows.map((row) => [row[0], row]));
  expect(byEmail.size).toBe(rows.length);
  expect(byEmail.get(`p7.${stamp}@bulk.example`)!.slice(3)).toEqual(['false', expect.any(String), '7', 'free']);
  expect(byEmail.get(`comma.${stamp}@x.example`)!.slice(1, 3)).toEqual(['Zoë, "the" 🦄', 'line one\nline two']);
  // CSV injection: what a spreadsheet would run starts with an apostrophe instead.
  expect(byEmail.get(`formula.${stamp}@x.example`)!.slice(1, 3)).toEqual([
    `'=HYPERLINK("http://evil.example","x")`,
    `'@SUM(A1)`,
  ]);
  expect(byEmail.get(`plus.${stamp}@x.example`)!.slice(1, 3)).toEqual([`'+1+cmd|/C calc!A0`, `'-2+3`]);
  expect(byEmail.get(`tab.${stamp}@x.example`)!.slice(1, 3)).toEqual(['Tab', '東京; semi']);
  // Names are trimmed when stored; an attribute keeps its leading tab, and is defused too.
  expect(byEmail.get(`tab.${stamp}@x.example`)![6]).toBe(`'\t=1+2`);
  // created_at is the contact's, as the API shows it.
  const one = (await api.get(api.account(`/contacts/${encodeURIComponent(`p7.${stamp}@bulk.example`)}`))).body;
  expect(byEmail.get(`p7.${stamp}@bulk.example`)![4]).toBe(one.created_at);
});

test('POST /contacts/export - list_id: only its members; an unknown, malformed or foreign list is 404', async () => {
  const list = await api.post(api.account('/lists'), { name: `Export ${stamp}` });
  const members = Array.from({ length: 5 }, (_, index) => `p${index * 10}.${stamp}@bulk.example`);
  const added = await api.post(api.account(`/lists/${list.body.id}/members`), { contacts: members });
  expect(added.status, added.text).toBeLessThan(300);
  const job = await exported(api, { list_id: list.body.id });
  expect(job).toMatchObject({ status: 'done', list_id: list.body.id, exported: 5 });
  const rows = rowsOf((await download(api, job)).text).slice(1);
  expect(rows.map((row) => row[0]).sort()).toEqual([...members].sort());

  expectError(await api.post(exportPath(api), { list_id: randomUUID() }), 404, /list not found/);
  expectError(await api.post(exportPath(api), { list_id: 'not-a-list' }), 404);
  const foreign = await other.post(other.account('/lists'), { name: 'Theirs' });
  expectError(await api.post(exportPath(api), { list_id: foreign.body.id }), 404);
});

test('POST /contacts/export - filter: the contacts a segment filter matches; a bad filter is 400 naming the leaf; segment_id unknown is 404', async () => {
  const job = await exported(api, { filter: { all: [{ field: 'attributes.plan', op: 'eq', value: 'gold' }] } });
  expect(job.status).toBe('done');
  expect(job.filter).toEqual({ all: [{ field: 'attributes.plan', op: 'eq', value: 'gold' }] });
  const rows = rowsOf((await download(api, job)).text).slice(1);
  expect(rows).toHaveLength(Math.ceil(PLAIN / 3));
  expect(rows.every((row) => row[6] === 'gold')).toBe(true);

  expectError(
    await api.post(exportPath(api), { filter: { all: [{ field: 'attributes.age', op: 'eq', value: 'old' }] } }),
    400,
    /filter/,
  );
  expectError(await api.post(exportPath(api), { segment_id: randomUUID() }), 404, /segment not found/);
});

test('POST /contacts/export - two selections, unknown fields and wrong types are 400', async () => {
  expectError(
    await api.post(exportPath(api), {
      list_id: randomUUID(),
      filter: { all: [{ field: 'email', op: 'contains', value: '@' }] },
    }),
    400,
    /at most one/,
  );
  expectError(await api.post(exportPath(api), { everything: true }), 400);
  expectError(await api.post(exportPath(api), { list_id: 5 }), 400);
  expectError(await api.post(exportPath(api), { filter: 'email = x' }), 400);
});

test("GET /contacts/export/{id} and /file - another account's, unknown and malformed ids are 404; /contacts/export is not a contact", async () => {
  const mine = await exported(api);
  expectError(await other.get(exportPath(other, `/${mine.id}`)), 404, /contact export not found/);
  expectError(await other.get(exportPath(other, `/${mine.id}/file`), { checkContract: false }), 404);
  expectError(await api.get(exportPath(api, `/${randomUUID()}`)), 404);
  // A path that tries to climb out is refused before any route sees it; file names never come from input.
  expectError(
    await api.get(exportPath(api, `/${encodeURIComponent('../x')}/file`), { checkContract: false }),
    400,
    /dot segment/,
  );
  expectError(await api.get(exportPath(api, '/not-an-id/file'), { checkContract: false }), 404);
  // The list of exports (an extension) is where GET /contacts/export goes, never to a contact `export`.
  const listed = await api.get(exportPath(api));
  expect(listed.status).toBe(200);
  expect(listed.body.data.map((item: any) => item.id)).toContain(mine.id);
  expect((await other.get(exportPath(other))).body.data).toEqual([]);
  expect((await api.delete(api.account('/contacts/export'))).status).toBe(404);
});

test('scopes: contacts:read may export and download; a key without it is 403', async () => {
  const readOnly = await api.post(api.account('/api-keys'), { label: 'reader', scopes: ['contacts:read'] });
  const noContacts = await api.post(api.account('/api-keys'), { label: 'lists', scopes: ['lists:read'] });
  const reader = api.with(readOnly.body.secret_key);
  const job = await exported(reader);
  expect((await download(reader, job)).status).toBe(200);
  const stranger = api.with(noContacts.body.secret_key);
  expect((await stranger.post(exportPath(stranger), {})).status).toBe(403);
  expect((await stranger.get(exportPath(stranger, `/${job.id}`))).status).toBe(403);
  expect((await stranger.get(exportPath(stranger, `/${job.id}/file`), { checkContract: false })).status).toBe(403);
});
