import { expect, test } from '@playwright/test';
import type { ApiClient } from '../support/client';
import { campaignAccounts, campaignHelpers, expectError } from '../support/campaign-fixtures';

/**
 * Segments API (marketing-api.md Part 2, Segments): CRUD with live counts, preview, a segment's
 * contacts, filters refused naming the leaf, tenancy, scopes, the 409 while a campaign in flight
 * uses it, and campaigns' segment and exclusion fields. Mail actually sent to a narrowed audience is
 * in segments-campaign.spec.ts.
 */
let api: ApiClient;
let other: ApiClient;
let sender: string;
let listId: string;
let members: string[];
let vipList: string;

test.beforeAll(async () => {
  ({ api, other, sender, listId, members } = await campaignAccounts());
  // cat is also on the VIP list.
  vipList = (await api.post(api.account('/lists'), { name: 'VIP' })).body.id;
  await api.post(api.account(`/lists/${vipList}/members`), { contact: members[2] });
});
const { campaigns, draft, scheduled } = campaignHelpers(() => ({ api, sender, listId }));
const segments = (suffix = '', client = api) => client.account(`/segments${suffix}`);
const inList = (id: string) => ({ all: [{ list: id }] });

test('POST/GET/PUT/DELETE /segments - saved with its live count; the list and its contacts follow', async () => {
  const created = await api.post(segments(), { name: 'Readers', filter: inList(listId) });
  expect(created.status, created.text).toBe(201);
  expect(Object.keys(created.body).sort()).toEqual([
    'count',
    'counted_at',
    'created_at',
    'filter',
    'id',
    'name',
    'object',
    'updated_at',
  ]);
  expect(created.body).toMatchObject({ object: 'segment', name: 'Readers', count: 3 });
  expect(created.body.filter).toEqual({ all: [{ list: listId, status: 'confirmed' }] });
  const id = created.body.id;

  const listed = await api.get(segments('?limit=100'));
  // The list shows the count stored when the segment was saved, with when it was counted.
  expect(listed.body.data.find((segment: { id: string }) => segment.id === id)).toMatchObject({
    count: 3,
    counted_at: created.body.counted_at,
  });

  const renamed = await api.put(segments(`/${id}`), {
    name: 'Readers minus VIP',
    filter: {
      all: [
        { list: listId },
        {
          any: [
            { list: vipList, status: 'confirmed' },
            { field: 'email', op: 'eq', value: members[0] },
          ],
        },
      ],
    },
  });
  expect(renamed.status, renamed.text).toBe(200);
  expect(renamed.body).toMatchObject({ name: 'Readers minus VIP', count: 2 });

  const page = await api.get(segments(`/${id}/contacts?limit=1`));
  expect(page.status).toBe(200);
  expect(page.body.data).toHaveLength(1);
  expect(page.body.data[0].object).toBe('contact');
  expect(page.body.pagination.has_more).toBe(true);
  const rest = await api.get(segments(`/${id}/contacts?limit=1&after=${page.body.pagination.next_cursor}`));
  const emails = [page.body.data[0].email, rest.body.data[0].email].sort();
  expect(emails).toEqual([members[0], members[2]].sort());

  expect((await api.delete(segments(`/${id}`))).status).toBe(200);
  expectError(await api.get(segments(`/${id}`)), 404);
  expectError(await api.delete(segments(`/${id}`)), 404);
});

test('POST /segments/preview - count and first 10 contacts, nothing saved; hostile values stay values', async () => {
  const before = (await api.get(segments('?limit=100'))).body.data.length;
  const preview = await api.post(segments('/preview'), {
    filter: { all: [{ field: 'email', op: 'ends_with', value: members[0].slice(members[0].indexOf('-')) }] },
  });
  expect(preview.status, preview.text).toBe(200);
  expect(preview.body).toMatchObject({ object: 'segment_preview', count: 3 });
  expect(preview.body.contacts.map((contact: { email: string }) => contact.email).sort()).toEqual([...members].sort());
  for (const value of ['%', '_', "'; drop table contacts; --", '\\']) {
    const hostile = await api.post(segments('/preview'), {
      filter: { all: [{ field: 'email', op: 'contains', value }] },
    });
    expect(hostile.status, hostile.text).toBe(200);
    expect(hostile.body.count).toBe(0);
  }
  expect((await api.get(segments('?limit=100'))).body.data.length).toBe(before);
});

test('filters that do not fit are 400 naming the leaf', async () => {
  const cases: [unknown, RegExp][] = [
    [
      { all: [{ field: 'attributes.nope', op: 'eq', value: 1 }] },
      /filter\.all\.0\.field: attribute `nope` is not defined/,
    ],
    [{ all: [{ field: 'email', op: 'gt' }] }, /filter\.all\.0\.value: is required/],
    [
      { any: [{ all: [{ field: 'created_at', op: 'lt', value: 'yesterday' }] }] },
      /filter\.any\.0\.all\.0\.value: must be an RFC 3339/,
    ],
    [{ all: [{ list: '0190e0a5-0000-7000-8000-000000000000' }] }, /filter\.all\.0\.list: list .* not found/],
    [{ all: [{ engagement: 'opened', within_days: 0 }] }, /filter\.all\.0\.within_days/],
    [{ all: [{ any: [{ all: [{ any: [{ all: [{ any: [] }] }] }] }] }] }, /at most 5 levels/],
    [{ any: Array.from({ length: 51 }, () => ({ field: 'email', op: 'exists' })) }, /at most 50 conditions/],
    ['everyone', /filter: must be a group/],
  ];
  for (const [filter, message] of cases) {
    expectError(await api.post(segments('/preview'), { filter }), 400, message);
    expectError(await api.post(segments(), { name: 'Bad', filter }), 400, message);
  }
});

test("tenancy: another account's segment and lists are refused, never counted", async () => {
  const mine = (await api.post(segments(), { name: 'Mine', filter: inList(listId) })).body.id;
  expectError(await other.get(segments(`/${mine}`, other)), 404);
  expectError(await other.get(segments(`/${mine}/contacts`, other)), 404);
  expectError(await other.put(segments(`/${mine}`, other), { name: 'Stolen' }), 404);
  expectError(await other.delete(segments(`/${mine}`, other)), 404);
  expectError(await other.post(segments('/preview', other), { filter: inList(listId) }), 400, /filter\.all\.0\.list/);
  const theirList = (await other.post(other.account('/lists'), { name: 'Theirs' })).body.id;
  expectError(
    await other.post(campaigns('', other), { name: 'Theirs', list_ids: [theirList], segment_ids: [mine] }),
    400,
    /segment_ids: no segment/,
  );
});

test('scopes: contacts:read previews and reads, contacts:write saves, contacts:delete deletes', async () => {
  const reader = await api.post(api.account('/api-keys'), { label: 'segments reader', scopes: ['contacts:read'] });
  const readOnly = api.with(reader.body.secret_key);
  expect((await readOnly.post(segments('/preview', readOnly), { filter: inList(listId) })).status).toBe(200);
  expectError(await readOnly.post(segments('', readOnly), { name: 'No', filter: inList(listId) }), 403);
  const id = (await api.post(segments(), { name: 'Kept', filter: inList(listId) })).body.id;
  expect((await readOnly.get(segments(`/${id}`, readOnly))).body.count).toBe(3);
  expectError(await readOnly.delete(segments(`/${id}`, readOnly)), 403);
});

test('campaigns carry segment_ids and exclusions; unknown ids are 400 naming them; DELETE is 409 while a campaign in flight uses it', async () => {
  // cat alone: excluding it from a scheduled campaign still leaves ann and ben to send to.
  const segment = (await api.post(segments(), { name: 'In use', filter: inList(vipList) })).body.id;
  const unknown = '0190e0a5-0000-7000-8000-000000000000';
  expectError(await api.post(campaigns(), { name: 'A', segment_ids: [unknown] }), 400, /segment_ids: no segment/);
  expectError(await api.post(campaigns(), { name: 'A', exclude_segment_ids: [unknown] }), 400, /exclude_segment_ids/);
  expectError(
    await api.post(campaigns(), { name: 'A', exclude_list_ids: [unknown] }),
    400,
    /exclude_list_ids: no list/,
  );
  expectError(await api.post(campaigns(), { name: 'A', segment_ids: ['nope'] }), 400, /segment_ids/);

  const draftId = await draft({ segment_ids: [segment], exclude_list_ids: [vipList] });
  const drafted = (await api.get(campaigns(`/${draftId}`))).body;
  expect(drafted).toMatchObject({ segment_ids: [segment], exclude_list_ids: [vipList], exclude_segment_ids: [] });
  const copy = await api.post(campaigns(`/${draftId}/duplicate`));
  expect(copy.body).toMatchObject({ segment_ids: [segment], exclude_list_ids: [vipList] });

  const scheduledId = await scheduled({ exclude_segment_ids: [segment] });
  const refused = await api.delete(segments(`/${segment}`));
  expectError(refused, 409, /used by a campaign being sent or scheduled \(Weekly\)/);
  expect((await api.post(campaigns(`/${scheduledId}/unschedule`))).status).toBe(200);
  expect((await api.delete(segments(`/${segment}`))).status).toBe(200);

  // The draft's segment is gone: sending it says so, and it goes back to draft.
  await api.post(campaigns(`/${draftId}/send`));
  await expect
    .poll(async () => (await api.get(campaigns(`/${draftId}`))).body.validation_errors, { timeout: 15_000 })
    .toEqual(expect.arrayContaining([expect.objectContaining({ field: 'segment_ids' })]));
});

test('concurrent creates each save once; concurrent deletes answer 200 once and 404 after', async () => {
  const created = await Promise.all(
    Array.from({ length: 6 }, (_, index) =>
      api.post(segments(), { name: `Parallel ${index}`, filter: inList(listId) }),
    ),
  );
  expect(created.map((response) => response.status)).toEqual(Array(6).fill(201));
  expect(new Set(created.map((response) => response.body.id)).size).toBe(6);
  const id = created[0].body.id;
  const deletes = await Promise.all(Array.from({ length: 4 }, () => api.delete(segments(`/${id}`))));
  expect(deletes.map((response) => response.status).sort()).toEqual([200, 404, 404, 404]);
});
