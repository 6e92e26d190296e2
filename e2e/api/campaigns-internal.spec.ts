import { expect, test } from '@playwright/test';
import type { ApiClient } from '../support/client';
import { dashboardSession } from '../support/dashboard-session';
import { verifiedDomain } from '../support/sending';
import { newAccount } from '../support/shared';

/**
 * The campaign wizard's and report's session-only routes: the live audience count, the check that
 * changes nothing, and the report's people; each within the account, refused to API keys, 400 on bad input.
 */
let api: ApiClient;
let other: ApiClient;
let session: Record<string, string>;
const stamp = Date.now().toString(36);
const marketing = `cmp-int-${stamp}.example.com`;
const transactional = `cmp-tx-${stamp}.example.com`;
const internal = (suffix: string) => `/internal/accounts/${api.accountId}/campaigns${suffix}`;
const call = (method: string, path: string, body?: unknown) =>
  api.with(null).request(method, path, { body, headers: session, checkContract: false });

let news: { id: string };
let customers: { id: string };
let otherList: { id: string };
const people = ['ada', 'bob', 'cy', 'dee', 'eve', 'fay'].map((name) => `${name}-${stamp}@example.net`);

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  const created = await newAccount('Campaign internals');
  api = created.api;
  ({ api: other } = await newAccount('Campaign internals (other)'));
  session = await dashboardSession(created.ownerId);
  await verifiedDomain(api, marketing);
  expect((await api.put(api.account(`/domains/${marketing}`), { sending_type: 'marketing' })).status).toBe(200);
  await verifiedDomain(api, transactional);

  news = (await api.post(api.account('/lists'), { name: 'News' })).body;
  customers = (await api.post(api.account('/lists'), { name: 'Customers' })).body;
  otherList = (await other.post(other.account('/lists'), { name: 'Not yours' })).body;
  for (const email of people) expect((await api.post(api.account('/contacts'), { email })).status).toBe(201);
  // News: ada, bob (unconfirmed), cy (unsubscribed everywhere), dee (suppressed for the marketing
  // domain only), eve (suppressed account-wide); Customers: ada again and fay.
  expect(
    (
      await api.post(api.account(`/lists/${news.id}/members`), {
        contacts: [people[0], people[2], people[3], people[4]],
      })
    ).status,
  ).toBeLessThan(300);
  expect(
    (
      await api.post(api.account(`/lists/${news.id}/members`), {
        contact: people[1],
        subscription_status: 'unconfirmed',
      })
    ).status,
  ).toBeLessThan(300);
  expect(
    (await api.post(api.account(`/lists/${customers.id}/members`), { contacts: [people[0], people[5]] })).status,
  ).toBeLessThan(300);
  expect((await api.post(api.account(`/contacts/${encodeURIComponent(people[2])}/unsubscribe`))).status).toBe(200);
  const expiresAt = new Date(Date.now() + 86_400_000).toISOString();
  expect(
    (
      await api.post(api.account('/suppressions'), {
        email: people[3],
        reason: 'test',
        expires_at: expiresAt,
        domain: marketing,
      })
    ).status,
  ).toBe(201);
  expect(
    (await api.post(api.account('/suppressions'), { email: people[4], reason: 'test', expires_at: expiresAt })).status,
  ).toBe(201);
});

test('POST /internal/.../campaigns/audience-preview - confirmed members minus unsubscribed and suppressed, each once', async () => {
  const both = await call('POST', internal('/audience-preview'), {
    list_ids: [news.id, customers.id],
    from_email: `news@${marketing}`,
  });
  expect(both.status, both.text).toBe(200);
  // ada (once), fay; not bob (unconfirmed), cy (unsubscribed), dee (suppressed for this sender), eve.
  expect(both.body).toEqual({
    object: 'audience_preview',
    recipients: 2,
    per_list: [
      { list_id: news.id, confirmed: 4 },
      { list_id: customers.id, confirmed: 2 },
    ],
  });
  // From another domain, dee's suppression does not apply; without a sender, only account-wide ones.
  expect(
    (await call('POST', internal('/audience-preview'), { list_ids: [news.id], from_email: `news@${transactional}` }))
      .body.recipients,
  ).toBe(2);
  expect((await call('POST', internal('/audience-preview'), { list_ids: [news.id] })).body.recipients).toBe(2);
  expect(
    (await call('POST', internal('/audience-preview'), { list_ids: [news.id], from_email: `news@${marketing}` })).body
      .recipients,
  ).toBe(1);
  expect((await call('POST', internal('/audience-preview'), { list_ids: [] })).body).toEqual({
    object: 'audience_preview',
    recipients: 0,
    per_list: [],
  });
  // Another account's list counts for nothing and says nothing about its members.
  expect((await call('POST', internal('/audience-preview'), { list_ids: [otherList.id, customers.id] })).body).toEqual({
    object: 'audience_preview',
    recipients: 2,
    per_list: [{ list_id: customers.id, confirmed: 2 }],
  });
});

test('GET /internal/.../campaigns/:id/check - each failed check named, the campaign left as it was', async () => {
  const draft = (
    await api.post(api.account('/campaigns'), {
      name: 'Checked',
      from: { email: `news@${transactional}` },
      subject: 'Hi',
      html_content: '<p>Hi</p>',
    })
  ).body;
  const failing = await call('GET', internal(`/${draft.id}/check`));
  expect(failing.status, failing.text).toBe(200);
  expect(failing.body).toMatchObject({
    object: 'campaign_check',
    campaign_id: draft.id,
    status: 'draft',
    is_valid: false,
    audience: 0,
  });
  expect(failing.body.errors).toEqual([
    { field: 'list_ids', message: 'choose at least one list to send to' },
    {
      field: 'from',
      message: expect.stringMatching(
        /is a transactional domain; .*change its sending type under Domains > .+ > Sending type$/,
      ),
    },
  ]);
  const after = (await api.get(api.account(`/campaigns/${draft.id}`))).body;
  expect(after).toMatchObject({ status: 'draft', validation_errors: [], updated_at: draft.updated_at });

  expect(
    (
      await api.put(api.account(`/campaigns/${draft.id}`), {
        from: { email: `news@${marketing}` },
        list_ids: [news.id, customers.id],
      })
    ).status,
  ).toBe(200);
  const passing = await call('GET', internal(`/${draft.id}/check`));
  expect(passing.body).toMatchObject({ is_valid: true, errors: [], audience: 2, sender_domain: marketing });
});

test('GET /internal/.../campaigns/:id/people - empty before sending; lists the bounced once sent', async () => {
  const draft = (
    await api.post(api.account('/campaigns'), {
      name: 'Reported',
      from: { email: `news@${marketing}` },
      subject: 'Hi',
      html_content: '<p>Hi</p>',
      list_ids: [customers.id],
    })
  ).body;
  const before = await call('GET', internal(`/${draft.id}/people`));
  expect(before.status, before.text).toBe(200);
  expect(before.body).toEqual({ object: 'campaign_people', campaign_id: draft.id, bounces: [], unsubscribes: [] });

  expect((await api.post(api.account(`/campaigns/${draft.id}/send`))).status).toBe(200);
  await expect
    .poll(async () => (await api.get(api.account(`/campaigns/${draft.id}`))).body.status, { timeout: 30_000 })
    .toBe('sent');
  const bouncedBefore = (await api.get(api.account(`/campaigns/${draft.id}/stats`))).body.bounced;
  const report = (await call('GET', internal(`/${draft.id}/people`))).body;
  expect(report.unsubscribes).toEqual([]);
  const stats = (await api.get(api.account(`/campaigns/${draft.id}/stats`))).body;
  expect(stats).toMatchObject({ recipients: 2, queued: 2 });
  // The bounces listed are the campaign's bounced messages, however many the shared server's DNS
  // produced; delivery goes on meanwhile, so their count lies between the stats read around it.
  expect(report.bounces.length).toBeGreaterThanOrEqual(bouncedBefore);
  expect(report.bounces.length).toBeLessThanOrEqual(stats.bounced);
});

test("another account's campaign is 404 on every campaign route; the other account's id in the path is refused", async () => {
  const theirs = (await other.post(other.account('/campaigns'), { name: 'Theirs' })).body;
  for (const suffix of ['check', 'people']) {
    const response = await call('GET', internal(`/${theirs.id}/${suffix}`));
    expect(response.status, `${suffix}: ${response.text}`).toBe(404);
    expect(response.body.message).toBe('campaign not found');
  }
  const foreign = await api
    .with(null)
    .request('GET', `/internal/accounts/${other.accountId}/campaigns/${theirs.id}/check`, {
      headers: session,
      checkContract: false,
    });
  expect([401, 403, 404]).toContain(foreign.status);
});

test('API keys cannot use the /internal campaign routes', async () => {
  const draft = (await api.post(api.account('/campaigns'), { name: 'Keyed' })).body;
  expect(
    (await api.post(internal('/audience-preview'), { list_ids: [news.id] }, { checkContract: false })).status,
  ).toBe(401);
  expect((await api.get(internal(`/${draft.id}/check`), { checkContract: false })).status).toBe(401);
  expect((await api.get(internal(`/${draft.id}/people`), { checkContract: false })).status).toBe(401);
});

const BAD_PREVIEWS: [string, unknown, RegExp][] = [
  ['list_ids missing', {}, /^list_ids: /],
  ['list_ids not an array', { list_ids: 'all' }, /^list_ids: must be an array of list ids/],
  ['a list id that is not a uuid', { list_ids: ['news'] }, /^list_ids(\.0)?: must be list ids/],
  [
    'more than 50 lists',
    { list_ids: Array.from({ length: 51 }, () => '00000000-0000-4000-8000-000000000000') },
    /^list_ids: must have at most 50 lists/,
  ],
  ['from_email not a string', { list_ids: [], from_email: 42 }, /^from_email: must be a string/],
];

for (const [name, body, message] of BAD_PREVIEWS) {
  test(`POST /internal/.../campaigns/audience-preview - ${name} is 400`, async () => {
    const response = await call('POST', internal('/audience-preview'), body);
    expect(response.status, response.text).toBe(400);
    expect(response.body.message).toMatch(message);
  });
}

test('GET /internal/.../campaigns/:id/check - an id that is not a uuid is 404', async () => {
  expect((await call('GET', internal('/not-a-campaign/check'))).status).toBe(404);
});
