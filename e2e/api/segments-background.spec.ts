import { existsSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { parse } from 'csv-parse/sync';
import type { ApiClient } from '../support/client';
import { importHelpers } from '../support/contact-import-fixtures';
import { newApi, ownServer } from '../support/own-server';

/**
 * Segments' background work on a server of its own with short clocks: the stored count that
 * GET /segments shows is recounted (SEGMENT_RECOUNT_SECONDS), a saved segment exports exactly its
 * contacts, an account runs at most 2 exports at once, and an export's file expires
 * (CONTACT_EXPORT_TTL_SECONDS). Pages of one contact keep an export running long enough to collide with.
 */
test.describe.configure({ mode: 'serial' });
const server = ownServer(
  { SEGMENT_RECOUNT_SECONDS: '2', CONTACT_EXPORT_TTL_SECONDS: '10', CONTACT_EXPORT_PAGE_ROWS: '1', JOB_POLL_MS: '500' },
  'segments-background-secret-0000000000',
);
let api: ApiClient;
const stamp = Date.now().toString(36);
const GOLD = 40;
const FREE = 80;
const { upload, finished } = importHelpers(() => api);
const exportPath = (suffix = '') => api.account(`/contacts/export${suffix}`);
const goldFilter = { all: [{ field: 'email', op: 'starts_with', value: 'gold.' }] };

async function exportDone(id: string): Promise<any> {
  let job: any = null;
  await expect
    .poll(
      async () => {
        job = (await api.get(exportPath(`/${id}`))).body;
        return job.status;
      },
      { timeout: 60_000, intervals: [200, 500] },
    )
    .toMatch(/^(done|failed)$/);
  return job;
}

test.beforeAll(async () => {
  api = await newApi(server());
  const csv = [
    'email,first_name',
    ...Array.from({ length: GOLD }, (_, index) => `gold.${index}.${stamp}@bulk.example,Gold ${index}`),
    ...Array.from({ length: FREE }, (_, index) => `free.${index}.${stamp}@bulk.example,Free ${index}`),
  ].join('\n');
  const accepted = await upload(api, csv);
  expect(accepted.status, accepted.text).toBe(202);
  expect((await finished(api, accepted.body.id)).counts.created).toBe(GOLD + FREE);
});

test('GET /segments - the stored count is recounted in the background, with a later counted_at', async () => {
  const created = await api.post(api.account('/segments'), { name: 'Gold', filter: goldFilter });
  expect(created.status, created.text).toBe(201);
  expect(created.body).toMatchObject({ count: GOLD, counted_at: expect.any(String) });
  const added = await api.post(api.account('/contacts'), { email: `gold.new.${stamp}@bulk.example` });
  expect(added.status).toBe(201);
  // No GET of the segment itself: only the recount loop can move the listed count.
  const listed = async () =>
    (await api.get(api.account('/segments?limit=100'))).body.data.find(
      (segment: { id: string }) => segment.id === created.body.id,
    );
  await expect.poll(async () => (await listed()).count, { timeout: 30_000, intervals: [500] }).toBe(GOLD + 1);
  expect(Date.parse((await listed()).counted_at)).toBeGreaterThan(Date.parse(created.body.counted_at));
  expect(
    (await api.delete(api.account(`/contacts/${encodeURIComponent(`gold.new.${stamp}@bulk.example`)}`))).status,
  ).toBe(200);
});

test('POST /contacts/export - a saved segment exports exactly its contacts; a third export at once is 409', async () => {
  const segment = await api.post(api.account('/segments'), { name: 'Gold export', filter: goldFilter });
  expect(segment.status, segment.text).toBe(201);
  // Four at once: the account lock lets exactly two in, whatever the order.
  const answers = await Promise.all([0, 1, 2, 3].map(() => api.post(exportPath(), { segment_id: segment.body.id })));
  expect(answers.map((answer) => answer.status).sort()).toEqual([202, 202, 409, 409]);
  const refused = answers.find((answer) => answer.status === 409)!;
  expect(refused.body.message).toMatch(/already has 2 exports queued or running/);
  const jobs = await Promise.all(
    answers.filter((answer) => answer.status === 202).map((answer) => exportDone(answer.body.id)),
  );
  for (const job of jobs) expect(job).toMatchObject({ status: 'done', exported: GOLD });
  // Read at once: the file is kept only CONTACT_EXPORT_TTL_SECONDS here.
  const file = await api.get(new URL(jobs[0].file_url).pathname, { checkContract: false });
  // Once they are done, the next one is accepted.
  const next = await api.post(exportPath(), { segment_id: segment.body.id });
  expect(next.status, next.text).toBe(202);
  await exportDone(next.body.id);

  expect(file.status).toBe(200);
  const [header, ...rows] = parse(file.text) as string[][];
  expect(header.slice(0, 2)).toEqual(['email', 'first_name']);
  expect(rows.map((row) => row[0]).sort()).toEqual(
    Array.from({ length: GOLD }, (_, index) => `gold.${index}.${stamp}@bulk.example`).sort(),
  );
});

test('GET /contacts/export/{id}/file - expires after CONTACT_EXPORT_TTL_SECONDS: 404, then marked expired and deleted', async () => {
  const queued = await api.post(exportPath(), { filter: goldFilter });
  expect(queued.status, queued.text).toBe(202);
  const job = await exportDone(queued.body.id);
  expect(job.status).toBe('done');
  const filePath = path.join(server().dataDir, 'exports', `${job.id}.csv`);
  expect(existsSync(filePath)).toBe(true);
  expect((await api.get(new URL(job.file_url).pathname, { checkContract: false })).status).toBe(200);

  await expect
    .poll(async () => (await api.get(new URL(job.file_url).pathname, { checkContract: false })).status, {
      timeout: 40_000,
      intervals: [500],
    })
    .toBe(404);
  const gone = await api.get(new URL(job.file_url).pathname, { checkContract: false });
  expect(gone.body.message).toMatch(/expired: its file is kept for 10 seconds/);
  // The purge job marks it and deletes the file from disk.
  await expect
    .poll(async () => (await api.get(exportPath(`/${job.id}`))).body.status, { timeout: 30_000, intervals: [500] })
    .toBe('expired');
  expect(existsSync(filePath)).toBe(false);
});
