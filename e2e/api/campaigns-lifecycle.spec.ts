import { expect, test } from '@playwright/test';
import type { ApiClient, ApiResponse } from '../support/client';
import { campaignAccounts, campaignHelpers, expectCampaign, expectError } from '../support/campaign-fixtures';
import { routeDomainToLoopback } from '../support/sending';

/**
 * Pause, resume, cancel and duplicate (marketing-api.md, "Campaign lifecycle, continued"): every
 * transition and every 409, cancel's counts, what a duplicate copies, tenancy, scopes and parallel
 * calls. A campaign stays `sending` here because its recipients' MX is on loopback, which the shared
 * server may not reach: each message is deferred and waits for a retry. That delivery is held by a
 * pause is in campaigns-pause-delivery.spec.ts, against an MX of its own.
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

const ACTIONS = ['pause', 'resume', 'cancel'] as const;
const UNKNOWN = '0190e0a5-0000-7000-8000-000000000000';

/** A campaign `sending` whose `size` messages are all deferred (they wait for a retry), each of a fresh contact. */
async function stuckSending(size = 3): Promise<{ id: string; emails: string[] }> {
  const stamp = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  const domain = `held-${stamp}.example`;
  await routeDomainToLoopback(domain);
  const list = await api.post(api.account('/lists'), { name: `Held ${stamp}` });
  const emails = Array.from({ length: size }, (_, index) => `held${index}@${domain}`);
  for (const email of emails) expect((await api.post(api.account('/contacts'), { email })).status).toBe(201);
  expect((await api.post(api.account(`/lists/${list.body.id}/members`), { contacts: emails })).status).toBeLessThan(
    300,
  );
  const id = await draft({ list_ids: [list.body.id] });
  expect((await api.post(campaigns(`/${id}/send`))).status).toBe(200);
  await waitForStatus(id, 'sending');
  await expect
    .poll(async () => (await api.get(campaigns(`/${id}`))).body.counts?.deferred, {
      message: 'every message deferred',
      timeout: 20_000,
    })
    .toBe(size);
  return { id, emails };
}

async function messageStatuses(id: string): Promise<string[]> {
  const page = await api.get(api.account(`/messages?campaign_id=${id}&limit=100`));
  expect(page.status, page.text).toBe(200);
  return page.body.data.map((message: { status: string }) => message.status).sort();
}

async function expectRefusedEverywhere(id: string, allowed: readonly string[]) {
  for (const action of ACTIONS.filter((candidate) => !allowed.includes(candidate))) {
    const refused = await api.post(campaigns(`/${id}/${action}`));
    expectError(
      refused,
      409,
      new RegExp(
        `the campaign is \\w+: a campaign can be ${action === 'cancel' ? 'cancelled' : action === 'pause' ? 'paused' : 'resumed'}`,
      ),
    );
    expect(refused.headers.get('idempotent-replayed')).toBeNull();
  }
}

test('draft: pause, resume and cancel are 409 naming the state; the campaign stays a draft', async () => {
  const id = await draft();
  await expectRefusedEverywhere(id, []);
  expect((await api.get(campaigns(`/${id}`))).body.status).toBe('draft');
});

test('scheduled: cancel is 200 with nothing sent; pause and resume are 409, and so is everything after the cancel', async () => {
  const id = await scheduled();
  await expectRefusedEverywhere(id, ['cancel']);
  const cancelled = await api.post(campaigns(`/${id}/cancel`));
  expect(cancelled.status, cancelled.text).toBe(200);
  expectCampaign(cancelled.body);
  expect(cancelled.body).toMatchObject({ status: 'cancelled', counts: null });
  await expectRefusedEverywhere(id, []);
  // Neither edit, delete, send nor unschedule brings it back.
  const attempts = [
    api.put(campaigns(`/${id}`), { name: 'x' }),
    api.delete(campaigns(`/${id}`)),
    api.post(campaigns(`/${id}/send`)),
    api.post(campaigns(`/${id}/unschedule`)),
  ];
  for (const response of await Promise.all(attempts)) expectError(response, 409, /the campaign is cancelled/);
});

test('sending <-> paused, then cancel: every message not delivered is cancelled and counted, and says so', async () => {
  const { id, emails } = await stuckSending(3);
  await expectRefusedEverywhere(id, ['pause', 'cancel']);

  const paused = await api.post(campaigns(`/${id}/pause`));
  expect(paused.status, paused.text).toBe(200);
  expectCampaign(paused.body);
  expect(paused.body.status).toBe('paused');
  expect(paused.body.counts).toMatchObject({ recipients: 3, queued: 3, deferred: 3, cancelled: 0 });
  await expectRefusedEverywhere(id, ['resume', 'cancel']);
  // Paused stays paused: the worker neither completes nor resumes it.
  expect((await api.get(campaigns(`/${id}`))).body.status).toBe('paused');
  expect(
    (await api.get(campaigns('?status=paused&limit=100'))).body.data.map((row: { id: string }) => row.id),
  ).toContain(id);

  const resumed = await api.post(campaigns(`/${id}/resume`));
  expect(resumed.status, resumed.text).toBe(200);
  expect(resumed.body.status).toBe('sending');
  await expectRefusedEverywhere(id, ['pause', 'cancel']);

  const cancelled = await api.post(campaigns(`/${id}/cancel`));
  expect(cancelled.status, cancelled.text).toBe(200);
  expect(cancelled.body.status).toBe('cancelled');
  expect(cancelled.body.counts).toMatchObject({
    recipients: emails.length,
    queued: emails.length,
    cancelled: emails.length,
    deferred: 0,
    waiting: 0,
    delivered: 0,
  });
  expect(await messageStatuses(id)).toEqual(['Cancelled', 'Cancelled', 'Cancelled']);
  const stats = await api.get(campaigns(`/${id}/stats`));
  expect(stats.body).toMatchObject({ cancelled: 3, deferred: 0 });
  const report = await api.get(campaigns(`/${id}/report`));
  expect(report.body.totals).toMatchObject({ recipients: 3, cancelled: 3, deferred: 0, delivered: 0 });
  await expectRefusedEverywhere(id, []);
  expect(
    (await api.get(campaigns('?status=cancelled&limit=100'))).body.data.map((row: { id: string }) => row.id),
  ).toContain(id);
});

test('a paused campaign can be cancelled; its held messages are cancelled too', async () => {
  const { id } = await stuckSending(2);
  expect((await api.post(campaigns(`/${id}/pause`))).status).toBe(200);
  const cancelled = await api.post(campaigns(`/${id}/cancel`));
  expect(cancelled.status, cancelled.text).toBe(200);
  expect(cancelled.body.counts).toMatchObject({ recipients: 2, cancelled: 2, deferred: 0 });
  expect(await messageStatuses(id)).toEqual(['Cancelled', 'Cancelled']);
});

test('sent: pause, resume and cancel are 409; duplicate still works', async () => {
  const id = await sendableDraft(1);
  expect((await api.post(campaigns(`/${id}/send`))).status).toBe(200);
  await waitForStatus(id, 'sent');
  await expectRefusedEverywhere(id, []);
  expect((await api.post(campaigns(`/${id}/duplicate`))).status).toBe(201);
});

test('POST /campaigns/:id/duplicate - a new draft "Copy of ..." with the same content, lists and settings, from any state', async () => {
  const id = await draft({
    name: 'Spring sale',
    reply_to: { email: `replies@${sender}`, name: 'Replies' },
    text_content: 'Hello {{ first_name }}',
    tracking: { open: false, click: true },
  });
  const source = (await api.get(campaigns(`/${id}`))).body;
  const copy = await api.post(campaigns(`/${id}/duplicate`));
  expect(copy.status, copy.text).toBe(201);
  expectCampaign(copy.body);
  expect(copy.body.id).not.toBe(id);
  expect(copy.body).toMatchObject({
    name: 'Copy of Spring sale',
    status: 'draft',
    counts: null,
    send_at: null,
    started_at: null,
    validation_errors: [],
  });
  for (const field of [
    'from',
    'reply_to',
    'subject',
    'html_content',
    'text_content',
    'template_id',
    'list_ids',
    'tracking',
  ])
    expect(copy.body[field], field).toEqual(source[field]);
  // The copy is a draft of its own: editing it leaves the source as it was.
  expect((await api.put(campaigns(`/${copy.body.id}`), { subject: 'Changed' })).status).toBe(200);
  expect((await api.get(campaigns(`/${id}`))).body.subject).toBe(source.subject);

  // From a scheduled campaign too, without its schedule; a long name is cut to the limit.
  const long = await scheduled({ name: 'x'.repeat(255) });
  const longCopy = await api.post(campaigns(`/${long}/duplicate`));
  expect(longCopy.status).toBe(201);
  expect(longCopy.body).toMatchObject({ status: 'draft', send_at: null });
  expect(longCopy.body.name).toBe(`Copy of ${'x'.repeat(247)}`);

  // Sending froze the template's version then published; a copy sends the version published when it goes.
  const template = await api.post(api.account('/templates'), {
    name: `Lifecycle ${Date.now()}`,
    kind: 'campaign',
    subject: 'Hi {{ first_name }}',
    html_content: '<p>Hello {{ first_name }}</p>',
  });
  expect(template.status, template.text).toBe(201);
  expect((await api.post(api.account(`/templates/${template.body.id}/publish`))).status).toBe(201);
  const frozen = await scheduled({ template_id: template.body.id, subject: undefined, html_content: undefined });
  expect((await api.get(campaigns(`/${frozen}`))).body.template_version).toBe(1);
  const frozenCopy = await api.post(campaigns(`/${frozen}/duplicate`));
  expect(frozenCopy.body).toMatchObject({ template_id: template.body.id, template_version: null });
});

test("unknown ids, ids that are not uuids and another account's campaign are 404 on every lifecycle call; a NUL is 400", async () => {
  const mine = await scheduled();
  for (const action of [...ACTIONS, 'duplicate']) {
    for (const bad of [UNKNOWN, 'not-a-uuid', "1' or '1'='1", UNKNOWN.toUpperCase().replace('0', '%')])
      expectError(await api.post(campaigns(`/${encodeURIComponent(bad)}/${action}`)), 404, /campaign not found/);
    expectError(await api.post(campaigns(`/%00/${action}`)), 400, /campaign_id/);
    expectError(await other.post(campaigns(`/${mine}/${action}`, other)), 404, /campaign not found/);
  }
  // Nothing happened to it.
  expect((await api.get(campaigns(`/${mine}`))).body.status).toBe('scheduled');
});

test('a body is not read: fields of any type or size change nothing; a body that is not a JSON object is 400', async () => {
  const id = await draft();
  for (const body of [{ status: 'sending' }, { campaign_id: 5 }, { name: 'x'.repeat(100_000) }])
    expectError(await api.post(campaigns(`/${id}/pause`), body), 409, /draft/);
  for (const body of [[1, 2], 'text', 7])
    expectError(await api.post(campaigns(`/${id}/cancel`), body), 400, /JSON object/);
  for (const rawBody of ['{"a":', '\u0000'])
    expectError(
      await api.request('POST', campaigns(`/${id}/resume`), {
        rawBody,
        headers: { 'content-type': 'application/json' },
      }),
      400,
    );
  const copy = await api.post(campaigns(`/${id}/duplicate`), { name: 5, status: 'sent' });
  expect(copy.status, copy.text).toBe(201);
  expect(copy.body).toMatchObject({ name: 'Copy of Weekly', status: 'draft' });
});

test('scopes: pause, resume and cancel need campaigns:send; duplicate needs campaigns:write', async () => {
  const id = await scheduled();
  const writer = await keyWith(['campaigns:read', 'campaigns:write']);
  const sendOnly = await keyWith(['campaigns:read', 'campaigns:send']);
  for (const action of ACTIONS)
    expectError(await writer.post(campaigns(`/${id}/${action}`, writer)), 403, /campaigns:send/);
  expectError(await sendOnly.post(campaigns(`/${id}/duplicate`, sendOnly)), 403, /campaigns:write/);
  expect((await writer.post(campaigns(`/${id}/duplicate`, writer))).status).toBe(201);
  expect((await sendOnly.post(campaigns(`/${id}/cancel`, sendOnly))).status).toBe(200);
});

test('an Idempotency-Key replays the answer: a second pause with the same key is the first 200, not a 409', async () => {
  const { id } = await stuckSending(1);
  const key = `pause-${Date.now()}`;
  const first = await api.post(campaigns(`/${id}/pause`), undefined, { headers: { 'Idempotency-Key': key } });
  expect(first.status).toBe(200);
  const again = await api.post(campaigns(`/${id}/pause`), undefined, { headers: { 'Idempotency-Key': key } });
  expect(again.status).toBe(200);
  expect(again.headers.get('idempotent-replayed')).toBe('true');
  expect((await api.post(campaigns(`/${id}/cancel`))).status).toBe(200);
});

test('parallel pause, resume and cancel on one campaign end in one consistent state: one cancel wins, every message cancelled once', async () => {
  const { id } = await stuckSending(3);
  const calls = Array.from({ length: 12 }, (_, index) => ACTIONS[index % 3]);
  const answers: [string, ApiResponse][] = await Promise.all(
    calls.map(async (action) => [action, await api.post(campaigns(`/${id}/${action}`))] as [string, ApiResponse]),
  );
  for (const [action, answer] of answers) expect([200, 409], `${action}: ${answer.text}`).toContain(answer.status);
  const cancels = answers.filter(([action, answer]) => action === 'cancel' && answer.status === 200);
  expect(cancels).toHaveLength(1);
  const final = (await api.get(campaigns(`/${id}`))).body;
  expect(final.status).toBe('cancelled');
  expect(final.counts).toMatchObject({ recipients: 3, cancelled: 3, deferred: 0, waiting: 0 });
  expect(await messageStatuses(id)).toEqual(['Cancelled', 'Cancelled', 'Cancelled']);
  // Each 200 answers with the state its own call made.
  for (const [action, answer] of answers.filter(([, answer]) => answer.status === 200))
    expect(answer.body.status, action).toBe({ pause: 'paused', resume: 'sending', cancel: 'cancelled' }[action]);
});
