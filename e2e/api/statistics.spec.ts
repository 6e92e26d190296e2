import { expect, test } from '@playwright/test';
import type { ApiClient, ApiResponse } from '../support/client';
import { verifiedDomain, waitForStatus } from '../support/sending';
import { newAccount } from '../support/shared';

/**
 * The three transactional reports on the shared server, fed by real sends (sandboxed ones, and one
 * real delivery that bounces): every query parameter, bucket shapes, scopes, tenancy, bad input and
 * the 1/s limit. Each account may make one statistics request per second, so requests are paced.
 */
let api: ApiClient;
let accountId: string;
let first: string;
let second: string;
const stamp = Date.now().toString(36);
const rcpt = `rcpt-${stamp}.example`;
const other = `other-${stamp}.example`;
const gone = `nx-${stamp}.example.net`;
const HOUR_MS = 3_600_000;
let window: string;

const lastRequestAt = new Map<string, number>();

/** A statistics request, at most one per second per account (waiting out a 429 if one comes anyway). */
async function statistics(
  report: 'deliverability' | 'bounce' | 'delivery-time',
  query = '',
  client = api,
): Promise<ApiResponse> {
  const account = client.accountId!;
  for (;;) {
    const wait = (lastRequestAt.get(account) ?? 0) + 1100 - Date.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    lastRequestAt.set(account, Date.now());
    const response = await client.get(client.account(`/statistics/transactional/${report}${query ? `?${query}` : ''}`));
    if (response.status !== 429) return response;
  }
}

type Bucket = { from_timestamp: string; to_timestamp: string; [field: string]: unknown };
const total = (response: ApiResponse, field: string) =>
  (response.body.data as Bucket[]).reduce((sum, bucket) => sum + (bucket[field] as number), 0);
const outcomes = (response: ApiResponse) => {
  expect(response.status, response.text).toBe(200);
  return {
    reception: total(response, 'reception_count'),
    delivered: total(response, 'delivered_count'),
    bounced: total(response, 'bounced_count'),
    suppressed: total(response, 'suppressed_count'),
  };
};

function expectError(response: ApiResponse, status: number, message?: RegExp) {
  expect(response.status, response.text).toBe(status);
  expect(Object.keys(response.body)).toEqual(['message']);
  if (message) expect(response.body.message).toMatch(message);
}

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  ({ api, accountId } = await newAccount('Statistics'));
  first = `stats-${stamp}.example.com`;
  second = `stats2-${stamp}.example.com`;
  await verifiedDomain(api, first);
  await verifiedDomain(api, second);
  const start = Date.now();
  const send = async (body: Record<string, unknown>) => {
    const response = await api.post(api.account('/messages'), {
      subject: 'S',
      text_content: 'T',
      sandbox: true,
      ...body,
    });
    expect(response.status, response.text).toBe(202);
    return response.body.data.map((message: { id: string }) => message.id) as string[];
  };
  const delivered = [
    ...(await send({
      from: { email: `news@${first}` },
      recipients: [{ email: `a@${rcpt}` }, { email: `b@${rcpt}` }],
      tags: ['welcome'],
    })),
    ...(await send({
      from: { email: `bills@${second}` },
      recipients: [{ email: `c@${rcpt}` }],
      tags: ['invoice', 'welcome'],
    })),
  ];
  const sandboxBounce = await send({
    from: { email: `news@${first}` },
    recipients: [{ email: `d@${other}` }],
    sandbox_result: 'bounce',
  });
  // A real delivery attempt: the recipient domain does not exist, so it bounces (BadDomain).
  const realBounce = await send({
    from: { email: `news@${first}` },
    recipients: [{ email: `e@${gone}` }],
    sandbox: false,
  });
  for (const id of delivered) await waitForStatus(api, id, 'Sandbox Delivered');
  await waitForStatus(api, sandboxBounce[0], 'Sandbox Bounced');
  await waitForStatus(api, realBounce[0], 'Bounced');
  window = `from_time=${encodeURIComponent(new Date(start - 2 * HOUR_MS).toISOString())}&to_time=${encodeURIComponent(new Date(Date.now() + HOUR_MS).toISOString())}`;
});

test('deliverability - the sends show in hourly buckets that tile the window', async () => {
  const report = await statistics('deliverability', `${window}&group_by=hour`);
  expect(outcomes(report)).toEqual({ reception: 5, delivered: 3, bounced: 2, suppressed: 0 });
  const buckets = report.body.data as Bucket[];
  expect(Object.keys(report.body)).toEqual(['object', 'data']);
  expect(buckets.length).toBeGreaterThanOrEqual(3);
  for (const [index, bucket] of buckets.entries()) {
    expect(Object.keys(bucket).sort()).toEqual(
      [
        'from_timestamp',
        'to_timestamp',
        'reception_count',
        'delivered_count',
        'deferred_count',
        'bounced_count',
        'failed_count',
        'suppressed_count',
        'opened_count',
        'clicked_count',
      ].sort(),
    );
    expect(Date.parse(bucket.to_timestamp) - Date.parse(bucket.from_timestamp)).toBe(HOUR_MS);
    if (index > 0) expect(bucket.from_timestamp).toBe(buckets[index - 1].to_timestamp);
  }
});

test('deliverability - every filter: sender_domain (one or several), recipient_domains, tags; empty values are absent', async () => {
  const cases: [string, { reception: number; delivered: number; bounced: number; suppressed: number }][] = [
    [`sender_domain=${second.toUpperCase()}`, { reception: 1, delivered: 1, bounced: 0, suppressed: 0 }],
    [`sender_domain=${first},${second}`, { reception: 5, delivered: 3, bounced: 2, suppressed: 0 }],
    [`recipient_domains=${rcpt}`, { reception: 3, delivered: 3, bounced: 0, suppressed: 0 }],
    [`recipient_domains=${other},${gone}`, { reception: 2, delivered: 0, bounced: 2, suppressed: 0 }],
    ['tags=welcome', { reception: 3, delivered: 3, bounced: 0, suppressed: 0 }],
    ['tags=invoice', { reception: 1, delivered: 1, bounced: 0, suppressed: 0 }],
    // A message holding both tags counts once.
    ['tags=invoice,welcome', { reception: 3, delivered: 3, bounced: 0, suppressed: 0 }],
    [
      `tags=welcome&sender_domain=${first}&recipient_domains=${rcpt}`,
      { reception: 2, delivered: 2, bounced: 0, suppressed: 0 },
    ],
    ['tags=nothing-tagged-so', { reception: 0, delivered: 0, bounced: 0, suppressed: 0 }],
    ['sender_domain=&recipient_domains=&tags=&group_by=', { reception: 5, delivered: 3, bounced: 2, suppressed: 0 }],
  ];
  for (const [query, expected] of cases) {
    expect(outcomes(await statistics('deliverability', `${window}&${query}`)), query).toEqual(expected);
  }
});

test('group_by day (the default), week and month: one bucket per period, cut to the window', async () => {
  const byDefault = await statistics('deliverability');
  // No window given: the last 30 days up to now, by day.
  expect(byDefault.body.data.length).toBeGreaterThanOrEqual(30);
  expect(byDefault.body.data.length).toBeLessThanOrEqual(31);
  expect(outcomes(byDefault).reception).toBe(5);
  const from = '2026-01-15T10:00:00Z';
  const to = '2026-03-02T00:00:00Z';
  const range = `from_time=${from}&to_time=${to}`;
  const days = await statistics('deliverability', `${range}&group_by=day`);
  expect(days.body.data).toHaveLength(46);
  expect(days.body.data[0]).toMatchObject({
    from_timestamp: '2026-01-15T10:00:00.000Z',
    to_timestamp: '2026-01-16T00:00:00.000Z',
    reception_count: 0,
  });
  const weeks = await statistics('deliverability', `${range}&group_by=week`);
  // ISO weeks start on Monday: 2026-01-19 is one.
  expect(
    (weeks.body.data as Bucket[]).slice(0, 2).map((bucket) => [bucket.from_timestamp, bucket.to_timestamp]),
  ).toEqual([
    ['2026-01-15T10:00:00.000Z', '2026-01-19T00:00:00.000Z'],
    ['2026-01-19T00:00:00.000Z', '2026-01-26T00:00:00.000Z'],
  ]);
  const months = await statistics('bounce', `${range}&group_by=month`);
  expect((months.body.data as Bucket[]).map((bucket) => [bucket.from_timestamp, bucket.to_timestamp])).toEqual([
    ['2026-01-15T10:00:00.000Z', '2026-02-01T00:00:00.000Z'],
    ['2026-02-01T00:00:00.000Z', '2026-03-01T00:00:00.000Z'],
    ['2026-03-01T00:00:00.000Z', '2026-03-02T00:00:00.000Z'],
  ]);
});

test('bounce - bounces by classification, the real one as BadDomain; filters apply', async () => {
  const report = await statistics('bounce', `${window}&group_by=day`);
  expect(report.status).toBe(200);
  const bounces = (report.body.data as { bounces: { classification: string; count: number }[] }[]).flatMap(
    (bucket) => bucket.bounces,
  );
  expect(bounces.sort((a, b) => a.classification.localeCompare(b.classification))).toEqual([
    { classification: 'BadDomain', count: 1 },
    { classification: 'InvalidRecipient', count: 1 },
  ]);
  const filtered = await statistics('bounce', `${window}&group_by=day&recipient_domains=${gone}`);
  expect((filtered.body.data as { bounces: unknown[] }[]).flatMap((bucket) => bucket.bounces)).toEqual([
    { classification: 'BadDomain', count: 1 },
  ]);
});

test('delivery-time - the average and one entry per recipient domain', async () => {
  const report = await statistics('delivery-time', `${window}&group_by=day`);
  expect(report.status).toBe(200);
  const buckets = (
    report.body.data as {
      avg_delivery_time: number;
      delivered_count: number;
      delivery_times: { recipient_domain: string; delivery_time: number; count: number }[];
    }[]
  ).filter((bucket) => bucket.delivered_count > 0);
  expect(buckets.reduce((sum, bucket) => sum + bucket.delivered_count, 0)).toBe(3);
  for (const bucket of buckets) {
    expect(bucket.avg_delivery_time).toBeGreaterThanOrEqual(0);
    expect(bucket.avg_delivery_time).toBeLessThan(120);
    expect(bucket.delivery_times.every((entry) => entry.recipient_domain === rcpt)).toBe(true);
  }
  const none = await statistics('delivery-time', `${window}&group_by=day&recipient_domains=${other}`);
  expect(
    none.body.data.every(
      (bucket: { delivered_count: number; delivery_times: unknown[] }) =>
        bucket.delivered_count === 0 && bucket.delivery_times.length === 0,
    ),
  ).toBe(true);
});

test('scopes: no statistics scope is 403; a domain-scoped key sees its domain and must hold every sender_domain it names', async () => {
  const keyWith = async (scopes: string[]) => {
    const created = await api.post(api.account('/api-keys'), { label: `stats ${scopes.join(' ')}`, scopes });
    expect(created.status).toBe(201);
    return api.with(created.body.secret_key);
  };
  const none = await keyWith(['domains:read', 'suppressions:read']);
  for (const report of ['deliverability', 'bounce', 'delivery-time'] as const)
    expectError(await statistics(report, window, none), 403, /statistics-transactional:read/);
  const scoped = await keyWith([`statistics-transactional:read:{${first}}`]);
  expect(outcomes(await statistics('deliverability', window, scoped))).toEqual({
    reception: 4,
    delivered: 2,
    bounced: 2,
    suppressed: 0,
  });
  expect(outcomes(await statistics('deliverability', `${window}&sender_domain=${first}`, scoped)).reception).toBe(4);
  for (const names of [second, `${first},${second}`, `unknown-${stamp}.example.com`]) {
    expectError(
      await statistics('deliverability', `${window}&sender_domain=${names}`, scoped),
      403,
      /insufficient permissions/,
    );
  }
  expectError(await statistics('bounce', `sender_domain=${second}`, scoped), 403);
  const all = await keyWith(['statistics-transactional:read:all']);
  expect(outcomes(await statistics('deliverability', window, all)).reception).toBe(5);
});

test("tenancy: another account's key is refused on this account's path, and its own reports never count this account's mail", async () => {
  const { api: neighbour } = await newAccount('Statistics neighbour');
  const intruder = neighbour.with(neighbour.apiKey, accountId);
  expectError(await intruder.get(intruder.account('/statistics/transactional/deliverability')), 401);
  expect(outcomes(await statistics('deliverability', window, neighbour)).reception).toBe(0);
  // Naming this account's sender domain changes nothing: the rows are the neighbour's only.
  expect(outcomes(await statistics('deliverability', `${window}&sender_domain=${first}`, neighbour)).reception).toBe(0);
  expectError(
    await api.with(api.apiKey, 'not-a-uuid').get('/v2/accounts/not-a-uuid/statistics/transactional/bounce'),
    400,
  );
});

const badQueries: [string, string, RegExp][] = [
  ['group_by=fortnight', 'group_by', /must be one of hour, day, week, month/],
  ['from_time=yesterday', 'from_time', /RFC 3339/],
  ['to_time=2026-13-01T00:00:00Z', 'to_time', /RFC 3339/],
  ['from_time=2026-03-01T00:00:00Z&to_time=2026-02-01T00:00:00Z', 'from_time', /must be before to_time/],
  ['from_time=2026-01-01T00:00:00Z&to_time=2026-03-01T00:00:00Z&group_by=hour', 'from_time', /at most 31 days/],
  ['sender_domain=not%20a%20domain', 'sender_domain', /is not a valid domain name/],
  [`sender_domain=${'a'.repeat(5001)}`, 'sender_domain', /too long/],
  ['recipient_domains=gmail.com,192.0.2.1', 'recipient_domains', /"192.0.2.1" is not a valid domain name/],
  [`tags=${Array.from({ length: 21 }, (_, i) => `t${i}`).join(',')}`, 'tags', /at most 20 tags/],
];

test('bad input is 400 naming the parameter', async () => {
  const reports = ['deliverability', 'bounce', 'delivery-time'] as const;
  for (const [index, [query, field, message]] of badQueries.entries()) {
    const response = await statistics(reports[index % reports.length], query);
    expectError(response, 400, message);
    expect(response.body.message, query).toContain(field);
  }
});

test('the statistics limit: a second request within the second is 429 with Retry-After; other endpoints are unaffected', async () => {
  const { api: own } = await newAccount('Statistics limit');
  const path = own.account('/statistics/transactional/deliverability');
  const responses = await Promise.all(Array.from({ length: 3 }, () => own.get(path)));
  expect(responses.filter((response) => response.status === 200).length).toBeGreaterThanOrEqual(1);
  const limited = responses.filter((response) => response.status === 429);
  expect(limited.length).toBeGreaterThanOrEqual(1);
  for (const response of limited) {
    expect(response.body).toEqual({ message: 'Too many requests, rate limited.' });
    expect(Number(response.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
  }
  expect((await own.get(own.account('/suppressions'))).status).toBe(200);
});
