import { expect, test } from '@playwright/test';
import { fetch as undiciFetch } from 'undici';
import { expectError } from '../support/campaign-fixtures';
import { createAccountWithKey } from '../support/cli';
import { ApiClient } from '../support/client';
import { DnsControl } from '../support/dns-server';
import { startMxSuite, type MxSuite } from '../support/mx-suite';
import { BACKGROUND_POLL_INTERVALS, routeDomainToLoopback } from '../support/sending';
import { freePort } from '../support/server';

/**
 * GET /v2/accounts/:id/campaigns/:id/report (marketing-api.md, Campaign lifecycle, continued): a
 * real campaign sent to a loopback MX, opened and clicked through its tracking URLs. The recipient
 * domains' MX host names (published in the test DNS, all resolving to loopback) decide the providers.
 */
let suite: MxSuite;
let api: ApiClient;
let other: ApiClient;
let httpPort: number;
const stamp = Date.now().toString(36);
const sender = `report-${stamp}.example.com`;
const domains = { gmail: `gm-${stamp}.example`, microsoft: `ms-${stamp}.example`, other: `ot-${stamp}.example` };
const people = {
  ann: `ann@${domains.gmail}`,
  bob: `bob@${domains.gmail}`,
  cy: `cy@${domains.microsoft}`,
  dee: `dee@${domains.other}`,
};
const LINK_A = 'https://shop.example/a?x=1&y=2';
// A hostile URL: only ever a bound parameter on its way to the counters.
const LINK_B = "https://shop.example/b?q=');drop+table+messages;--";
let campaignId: string;

test.beforeAll(async () => {
  httpPort = await freePort();
  suite = await startMxSuite({
    name: 'Campaign report',
    sender,
    recipientDomain: domains.other,
    env: { HTTP_PORT: String(httpPort) },
  });
  api = suite.api;
  const second = await createAccountWithKey(suite.server.env, 'Campaign report (other account)');
  other = new ApiClient(suite.server.baseUrl, suite.server.dataDir, second.apiKey, second.accountId);
  expect((await api.put(api.account(`/domains/${sender}`), { sending_type: 'marketing' })).status).toBe(200);
  const dns = new DnsControl();
  // The tracking host resolves to loopback, as the domain page asks.
  await dns.setA(`t.${sender}`, '127.0.0.1');
  await api.post(api.account(`/domains/${sender}/check-dns`));
  // Provider-like MX host names; the mail itself still reaches the loopback MX.
  for (const [domain, host] of [
    [domains.gmail, `gmail-smtp-in-${stamp}.l.google.com`],
    [domains.microsoft, `ms-${stamp}.mail.protection.outlook.com`],
  ]) {
    await dns.setMx(domain, host);
    await dns.setA(host, '127.0.0.1');
  }
  await routeDomainToLoopback(domains.other);
});

test.afterAll(async () => {
  await suite?.stop();
});

const report = (id: string, client = api) => client.get(client.account(`/campaigns/${id}/report`));

/** Requests a tracking URL as a mail client would: the tracking host, resolved to 127.0.0.1. */
function visit(url: string) {
  const parsed = new URL(url);
  return undiciFetch(`http://127.0.0.1:${parsed.port}${parsed.pathname}`, {
    headers: { host: parsed.host, 'user-agent': 'Mozilla/5.0 (Macintosh) Thunderbird/128.0' },
    redirect: 'manual',
  });
}

/** The tracking URLs of the mail one person received: the pixel and the click URLs in link order. */
function trackingUrlsOf(email: string) {
  const html = String(suite.mx.for(email)[0].parsed.html);
  const clicks = [...html.matchAll(/href="(http:\/\/[^"]+\/t\/c\/[^"]+)"/g)].map((match) => match[1]);
  const open = /<img src="([^"]+\/t\/o\/[^"]+)"/.exec(html)?.[1];
  expect(open, html).toBeTruthy();
  expect(clicks, html).toHaveLength(3);
  return { open: open!, clicks };
}

test('GET /campaigns/:id/report - before sending: zero totals, no timeline, every provider at zero, no variants', async () => {
  const draft = await api.post(api.account('/campaigns'), { name: 'Not yet' });
  const response = await report(draft.body.id);
  expect(response.status).toBe(200);
  expect(response.body).toMatchObject({
    object: 'campaign_report',
    campaign_id: draft.body.id,
    timeline: [],
    links: [],
  });
  expect(Object.values(response.body.totals).every((value) => value === 0)).toBe(true);
  expect(response.body.providers.map((entry: { provider: string }) => entry.provider)).toEqual([
    'gmail',
    'microsoft',
    'yahoo',
    'apple',
    'other',
  ]);
  expect(response.body.variants).toEqual([]);
});

test('GET /campaigns/:id/report - a sent campaign: totals with unique opens and clicks, hourly timeline, links, providers by MX host', async () => {
  const list = (await api.post(api.account('/lists'), { name: 'Report readers' })).body;
  for (const [name, email] of Object.entries(people))
    expect((await api.post(api.account('/contacts'), { email, first_name: name.toUpperCase() })).status).toBe(201);
  await api.post(api.account(`/lists/${list.id}/members`), { contacts: Object.values(people) });
  const created = await api.post(api.account('/campaigns'), {
    name: 'Report',
    from: { email: `news@${sender}`, name: 'News' },
    subject: 'Hello {{ first_name }}',
    // The same URL twice: one recipient clicking both is one unique click of that URL.
    html_content: `<p>Hi <a href="${LINK_A.replace(/&/g, '&amp;')}">A</a> <a href="${LINK_B}">B</a> <a href="${LINK_A.replace(/&/g, '&amp;')}">A again</a></p>`,
    text_content: 'Hi',
    list_ids: [list.id],
    tracking: { open: true, click: true },
  });
  expect(created.status, created.text).toBe(201);
  campaignId = created.body.id;
  expect((await api.post(api.account(`/campaigns/${campaignId}/send`))).status).toBe(200);
  await expect
    .poll(async () => (await api.get(api.account(`/campaigns/${campaignId}/stats`))).body.delivered, {
      timeout: 30_000,
      intervals: BACKGROUND_POLL_INTERVALS,
    })
    .toBe(4);

  // Each message record carries the campaign and the subject that recipient got.
  const messages = (await api.get(api.account(`/messages?campaign_id=${campaignId}&limit=10`))).body.data;
  expect(messages).toHaveLength(4);
  for (const message of messages) {
    expect(message.campaign_id).toBe(campaignId);
    const name = Object.entries(people).find(([, email]) => email === message.recipient)![0];
    expect(message.subject).toBe(`Hello ${name.toUpperCase()}`);
  }

  const ann = trackingUrlsOf(people.ann);
  const bob = trackingUrlsOf(people.bob);
  const cy = trackingUrlsOf(people.cy);
  for (const url of [ann.open, ann.open, bob.open, cy.open]) expect((await visit(url)).status).toBe(200);
  for (const url of [ann.clicks[0], ann.clicks[0], ann.clicks[2], ann.clicks[1], bob.clicks[2]]) {
    const click = await visit(url);
    expect(click.status).toBe(302);
  }

  const response = await report(campaignId);
  expect(response.status).toBe(200);
  const body = response.body;
  expect(body.totals).toEqual({
    recipients: 4,
    delivered: 4,
    deferred: 0,
    bounced: 0,
    failed: 0,
    cancelled: 0,
    opened: 4,
    unique_opened: 3,
    clicked: 5,
    unique_clicked: 2,
    unsubscribed: 0,
    complained: 0,
  });
  expect(body.links).toEqual([
    { url: LINK_A, clicks: 4, unique_clicks: 2 },
    { url: LINK_B, clicks: 1, unique_clicks: 1 },
  ]);
  const byProvider = Object.fromEntries(body.providers.map(({ provider, ...counts }: any) => [provider, counts]));
  expect(byProvider).toEqual({
    gmail: { delivered: 2, bounced: 0, deferred: 0, opened: 2 },
    microsoft: { delivered: 1, bounced: 0, deferred: 0, opened: 1 },
    yahoo: { delivered: 0, bounced: 0, deferred: 0, opened: 0 },
    apple: { delivered: 0, bounced: 0, deferred: 0, opened: 0 },
    other: { delivered: 1, bounced: 0, deferred: 0, opened: 0 },
  });
  // Every hour since sending started, on the hour; the campaign's events all fall in them.
  expect(body.timeline.length).toBeGreaterThanOrEqual(1);
  for (const point of body.timeline) expect(point.at).toMatch(/T\d{2}:00:00\.000Z$/);
  const sum = (key: string) => body.timeline.reduce((total: number, point: any) => total + point[key], 0);
  expect({ delivered: sum('delivered'), opened: sum('opened'), clicked: sum('clicked') }).toEqual({
    delivered: 4,
    opened: 4,
    clicked: 5,
  });
  expect(body.variants).toEqual([]);
});

test('GET /campaigns/:id/report - parallel opens and clicks of one message count it once among the unique', async () => {
  expect(campaignId).toBeTruthy();
  const dee = trackingUrlsOf(people.dee);
  const visits = [
    ...Array.from({ length: 8 }, () => dee.open),
    ...Array.from({ length: 4 }, () => dee.clicks[0]),
    ...Array.from({ length: 4 }, () => dee.clicks[2]),
  ];
  const statuses = await Promise.all(visits.map(async (url) => (await visit(url)).status));
  expect(statuses.filter((status) => status === 200)).toHaveLength(8);
  expect(statuses.filter((status) => status === 302)).toHaveLength(8);
  const body = (await report(campaignId)).body;
  expect(body.totals).toMatchObject({ opened: 12, unique_opened: 4, clicked: 13, unique_clicked: 3 });
  expect(body.links[0]).toEqual({ url: LINK_A, clicks: 12, unique_clicks: 3 });
  expect(body.providers.find((entry: { provider: string }) => entry.provider === 'other')).toMatchObject({
    delivered: 1,
    opened: 1,
  });
});

test('GET /campaigns/:id/report - another account, an unknown id, a malformed or oversize id are 404; an API key without campaigns:read is 403', async () => {
  expect(campaignId).toBeTruthy();
  expectError(await report(campaignId, other), 404);
  for (const id of [
    '0190e0a5-0000-7000-8000-000000000000',
    'not-an-id',
    '1'.repeat(5000),
    "x'; drop table messages; --",
  ])
    expectError(await report(encodeURIComponent(id)), 404);
  const key = await api.post(api.account('/api-keys'), { label: 'No campaigns', scopes: ['domains:read'] });
  expect(key.status, key.text).toBe(201);
  const limited = api.with(key.body.secret_key);
  expectError(await report(campaignId, limited), 403);
});
