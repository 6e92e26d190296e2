import { expect, test } from '@playwright/test';
import type { ApiClient } from '../support/client';
import { campaignAccounts, campaignHelpers, expectCampaign, expectError } from '../support/campaign-fixtures';

/**
 * Campaigns API (marketing-api.md, Campaigns; the campaign status rules and 409s of the service
 * spec): drafts, the state machine, validation reasons, every 409 and how idempotency treats it,
 * bad input, tenancy and scopes. Delivery and unsubscribing are in e2e/smtp/campaign-delivery.spec.ts.
 */
let api: ApiClient;
let other: ApiClient;
let sender: string;
let listId: string;
test.beforeAll(async () => {
  ({ api, other, sender, listId } = await campaignAccounts());
});
const { campaigns, draft, scheduled, waitForStatus, keyWith, sendableDraft } = campaignHelpers(() => ({
  api,
  sender,
  listId,
}));

test('POST /campaigns - a draft needs only a name; GET returns it with no counts; the list filters by status', async () => {
  const created = await api.post(campaigns(), { name: 'Only a name' });
  expect(created.status).toBe(201);
  expectCampaign(created.body);
  expect(created.body).toMatchObject({
    status: 'draft',
    from: null,
    list_ids: [],
    counts: null,
    validation_errors: [],
    tracking: { open: null, click: null },
  });
  const fetched = await api.get(campaigns(`/${created.body.id}`));
  expect(fetched.body).toEqual(created.body);
  const drafts = await api.get(campaigns('?status=draft&limit=100'));
  expect(drafts.body.data.map((campaign: { id: string }) => campaign.id)).toContain(created.body.id);
  expect(
    (await api.get(campaigns('?status=sent'))).body.data.map((campaign: { id: string }) => campaign.id),
  ).not.toContain(created.body.id);
  expectError(await api.get(campaigns('?status=lost')), 400, /status/);
});

test('POST /campaigns - bad input is 400 naming the field', async () => {
  const cases: [Record<string, unknown>, RegExp][] = [
    [{}, /name/],
    [{ name: 5 }, /name/],
    [{ name: 'x'.repeat(256) }, /name/],
    [{ name: 'A', list_ids: 'all' }, /list_ids/],
    [{ name: 'A', list_ids: ['not-a-uuid'] }, /list_ids/],
    [{ name: 'A', list_ids: ['0190e0a5-0000-7000-8000-000000000000'] }, /list_ids: no list/],
    [{ name: 'A', template_id: '0190e0a5-0000-7000-8000-000000000000' }, /template_id/],
    [{ name: 'A', template_id: '0190e0a5-0000-7000-8000-000000000000', subject: 'x' }, /template_id: give either/],
    [{ name: 'A', from: { email: 'not an address' } }, /from/],
    [{ name: 'A', subject: '{% if %}' }, /subject: template syntax error/],
    [{ name: 'A', tracking: { open: 'yes' } }, /tracking/],
  ];
  for (const [body, message] of cases) expectError(await api.post(campaigns(), body), 400, message);
});

test('tenancy: another account neither sees the campaign nor can target its lists', async () => {
  const id = await draft();
  expectError(await other.get(campaigns(`/${id}`, other)), 404);
  expectError(await other.put(campaigns(`/${id}`, other), { name: 'Stolen' }), 404);
  expectError(await other.post(campaigns(`/${id}/send`, other)), 404);
  expectError(await other.delete(campaigns(`/${id}`, other)), 404);
  expectError(await other.get(campaigns(`/${id}/stats`, other)), 404);
  expectError(await other.post(campaigns('', other), { name: 'Theirs', list_ids: [listId] }), 400, /list_ids: no list/);
  expectError(await api.get(campaigns('/not-an-id')), 404);
});

test('PUT /campaigns/:id - edits a draft: omitted fields stay, null clears, inline content and template replace each other', async () => {
  const id = await draft();
  const edited = await api.put(campaigns(`/${id}`), { name: 'Renamed', reply_to: { email: 'Help@Example.org' } });
  expect(edited.status).toBe(200);
  expect(edited.body).toMatchObject({
    name: 'Renamed',
    subject: 'Hi {{ first_name }}',
    reply_to: { email: 'help@example.org', name: null },
  });
  const cleared = await api.put(campaigns(`/${id}`), { reply_to: null, html_content: null, text_content: 'Plain' });
  expect(cleared.body).toMatchObject({ reply_to: null, html_content: null, text_content: 'Plain' });
});

test('send -> validating -> scheduled; then PUT, DELETE and send again are 409 with no idempotency headers; unschedule returns to draft', async () => {
  const id = await scheduled();
  const campaign = (await api.get(campaigns(`/${id}`))).body;
  expect(campaign.send_at).not.toBeNull();
  for (const response of [
    await api.put(campaigns(`/${id}`), { name: 'Late edit' }),
    await api.delete(campaigns(`/${id}`)),
    await api.post(campaigns(`/${id}/send`)),
  ]) {
    expectError(response, 409, /scheduled/);
    expect(response.headers.get('idempotent-replayed')).toBeNull();
    expect(response.headers.get('retry-after')).toBeNull();
  }
  const unscheduled = await api.post(campaigns(`/${id}/unschedule`));
  expect(unscheduled.status).toBe(200);
  expect(unscheduled.body).toMatchObject({ status: 'draft', send_at: null });
  expectError(await api.post(campaigns(`/${id}/unschedule`)), 409, /draft/);
});

test('validation failures send the campaign back to draft with every reason kept', async () => {
  const transactional = `tx-${Date.now().toString(36)}.example.com`;
  const { verifiedDomain } = await import('../support/sending');
  await verifiedDomain(api, transactional);
  const emptyList = (await api.post(api.account('/lists'), { name: 'Empty' })).body.id;
  const id = await draft({ from: { email: `news@${transactional}` }, subject: null, list_ids: [emptyList] });
  expect((await api.post(campaigns(`/${id}/send`))).body.status).toBe('validating');
  const back = await waitForStatus(id, 'draft');
  const fields = back.validation_errors.map((error: { field: string }) => error.field);
  expect(fields).toEqual(expect.arrayContaining(['from', 'subject']));
  expect(back.validation_errors.find((error: { field: string }) => error.field === 'from').message).toMatch(
    /marketing/,
  );

  const noLists = await draft({ list_ids: [] });
  await api.post(campaigns(`/${noLists}/send`));
  expect((await waitForStatus(noLists, 'draft')).validation_errors).toEqual([
    { field: 'list_ids', message: 'choose at least one list to send to' },
  ]);
  // Editing clears the reasons.
  expect((await api.put(campaigns(`/${noLists}`), { list_ids: [listId] })).body.validation_errors).toEqual([]);
});

test('DELETE /campaigns/:id - a draft is deleted (200), a second delete is 404, its lists and contacts stay', async () => {
  const id = await draft();
  const deleted = await api.delete(campaigns(`/${id}`));
  expect(deleted.status).toBe(200);
  expect(Object.keys(deleted.body)).toEqual(['message']);
  expectError(await api.delete(campaigns(`/${id}`)), 404);
  expect((await api.get(api.account(`/lists/${listId}`))).status).toBe(200);
});

test("send's 409 with an Idempotency-Key is stored and replayed; a fresh one carries neither idempotency header", async () => {
  const id = await scheduled();
  const key = `send-${Date.now()}`;
  const first = await api.post(campaigns(`/${id}/send`), {}, { headers: { 'Idempotency-Key': key } });
  expectError(first, 409);
  expect(first.headers.get('idempotent-replayed')).toBeNull();
  await api.post(campaigns(`/${id}/unschedule`));
  // Now a draft, but the stored 409 is what the same key gets back.
  const replay = await api.post(campaigns(`/${id}/send`), {}, { headers: { 'Idempotency-Key': key } });
  expect(replay.status).toBe(409);
  expect(replay.headers.get('idempotent-replayed')).toBe('true');
  expect(replay.body).toEqual(first.body);
});

test("test send: a draft's test goes to 1-10 addresses; its 409 is never stored for the Idempotency-Key", async () => {
  const id = await draft();
  const sent = await api.post(campaigns(`/${id}/test`), { emails: ['Tester@Example.org', 'tester@example.org'] });
  expect(sent.status, sent.text).toBe(200);
  expect(sent.body.data).toHaveLength(1);
  expect(sent.body.data[0]).toMatchObject({
    object: 'message',
    recipient: { email: 'tester@example.org' },
    status: 'queued',
  });
  const message = await api.get(api.account(`/messages/${encodeURIComponent(sent.body.data[0].id)}`));
  // The subject as the tester gets it: rendered, with the empty first_name of an address that is no contact.
  expect(message.body.subject).toBe('[Test] Hi ');
  expectError(await api.post(campaigns(`/${id}/test`), { emails: [] }), 400, /emails/);
  expectError(
    await api.post(campaigns(`/${id}/test`), { emails: Array.from({ length: 11 }, (_, i) => `t${i}@example.org`) }),
    400,
    /emails/,
  );
  expectError(await api.post(campaigns(`/${id}/test`), { emails: ['nope'] }), 400, /emails\[0\]/);

  const later = await scheduled();
  const key = `test-${Date.now()}`;
  const conflict = await api.post(
    campaigns(`/${later}/test`),
    { emails: ['t@example.org'] },
    { headers: { 'Idempotency-Key': key } },
  );
  expectError(conflict, 409);
  await api.post(campaigns(`/${later}/unschedule`));
  const retried = await api.post(
    campaigns(`/${later}/test`),
    { emails: ['t@example.org'] },
    { headers: { 'Idempotency-Key': key } },
  );
  expect(retried.status).toBe(200);
  expect(retried.headers.get('idempotent-replayed')).toBeNull();
});

test('parallel sends with one Idempotency-Key: one campaign goes out once; the others wait or replay', async () => {
  const id = await sendableDraft();
  const key = `parallel-${Date.now()}`;
  const responses = await Promise.all(
    Array.from({ length: 6 }, () => api.post(campaigns(`/${id}/send`), {}, { headers: { 'Idempotency-Key': key } })),
  );
  const ok = responses.filter((response) => response.status === 200);
  expect(ok.length).toBeGreaterThanOrEqual(1);
  for (const response of responses.filter((candidate) => candidate.status !== 200)) {
    expect(response.status).toBe(409);
    expect(response.headers.get('idempotent-replayed')).toBe('false');
    expect(Number(response.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
  }
  for (const response of ok.slice(1)) expect(response.headers.get('idempotent-replayed')).toBe('true');
  const done = await waitForStatus(id, 'sent');
  expect(done.counts).toMatchObject({ recipients: 3, queued: 3 });
});

test('GET /campaigns/:id/stats - zero before sending; once sent, recipients and queued count the frozen audience', async () => {
  const id = await sendableDraft();
  expect((await api.get(campaigns(`/${id}/stats`))).body).toEqual({
    object: 'campaign_stats',
    campaign_id: id,
    recipients: 0,
    queued: 0,
    waiting: 0,
    deferred: 0,
    delivered: 0,
    bounced: 0,
    failed: 0,
    suppressed: 0,
    opened: 0,
    clicked: 0,
    complained: 0,
    unsubscribed: 0,
    cancelled: 0,
  });
  await api.post(campaigns(`/${id}/send`));
  const sent = await waitForStatus(id, 'sent');
  expect(sent.validation_errors).toEqual([]);
  expect((await api.get(campaigns(`/${id}/stats`))).body).toMatchObject({ recipients: 3, queued: 3 });
});

test('scopes: campaigns:read reads, :write drafts, :send sends, :delete deletes', async () => {
  const id = await draft();
  const reader = await keyWith(['campaigns:read']);
  expect((await reader.get(campaigns(`/${id}`, reader))).status).toBe(200);
  expect((await reader.post(campaigns('', reader), { name: 'No' })).status).toBe(403);
  const writer = await keyWith(['campaigns:write']);
  expect((await writer.put(campaigns(`/${id}`, writer), { name: 'Yes' })).status).toBe(200);
  expect((await writer.post(campaigns(`/${id}/send`, writer))).status).toBe(403);
  expect((await writer.post(campaigns(`/${id}/test`, writer), { emails: ['a@example.org'] })).status).toBe(403);
  expect((await writer.delete(campaigns(`/${id}`, writer))).status).toBe(403);
  const deleter = await keyWith(['campaigns:delete']);
  expect((await deleter.delete(campaigns(`/${id}`, deleter))).status).toBe(200);
});

test('the audience is checked again when sending starts: a scheduled campaign whose lists emptied meanwhile goes back to draft, saying why', async () => {
  const id = await sendableDraft(1);
  const listId = (await api.get(campaigns(`/${id}`))).body.list_ids[0];
  const sent = await api.post(campaigns(`/${id}/send`), { send_at: new Date(Date.now() + 4000).toISOString() });
  expect(sent.status).toBe(200);
  await waitForStatus(id, 'scheduled');
  const [member] = (await api.get(api.account(`/lists/${listId}/members`))).body.data;
  expect(
    (
      await api.put(api.account(`/lists/${listId}/members/${member.contact_id}`), {
        subscription_status: 'unsubscribed',
      })
    ).status,
  ).toBe(200);
  const back = await waitForStatus(id, 'draft');
  expect(back.validation_errors).toEqual([
    { field: 'list_ids', message: expect.stringMatching(/nobody would receive it/) },
  ]);
  expect(back.counts).toBeNull();
});
