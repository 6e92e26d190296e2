import { expect, test } from '@playwright/test';
import nodemailer from 'nodemailer';
import { fetch as undiciFetch } from 'undici';
import { fixture } from '../../tests/lib/core/inbound/report-fixtures';
import type { ApiClient } from '../support/client';
import { DnsControl } from '../support/dns-server';
import { startMxSuite, type MxSuite } from '../support/mx-suite';
import { BACKGROUND_POLL_INTERVALS, routeDomainToLoopback, waitForStatus } from '../support/sending';
import { freePort } from '../support/server';

/**
 * Mailbox providers in the statistics (issue 34 part 2) and the domain's measured provider checklist
 * (part 4): recipient domains whose MX host names (in the test DNS, all resolving to loopback) are
 * Gmail's, Microsoft's, Yahoo's and Apple's get mail; the per-provider report and the `provider`
 * filter count it where it went; a complaint by ARF to our MX moves the checklist's complaint rate.
 */
const stamp = Date.now().toString(36);
const sender = `prov-${stamp}.example.com`;
const domains = {
  gmail: `gm-${stamp}.example`,
  microsoft: `ms-${stamp}.example`,
  yahoo: `yh-${stamp}.example`,
  apple: `ap-${stamp}.example`,
  other: `ot-${stamp}.example`,
};
const MX_HOSTS = {
  gmail: `gmail-smtp-in-${stamp}.l.google.com`,
  microsoft: `x-${stamp}.mail.protection.outlook.com`,
  yahoo: `mta5-${stamp}.am0.yahoodns.net`,
  apple: `mx01-${stamp}.mail.icloud.com`,
};
let suite: MxSuite;
let api: ApiClient;
let mxPort: number;
let httpPort: number;

test.beforeAll(async () => {
  mxPort = await freePort();
  httpPort = await freePort();
  suite = await startMxSuite({
    name: 'Provider statistics',
    sender,
    recipientDomain: domains.other,
    env: { ROLES: 'web,worker,mx', MX_PORT: String(mxPort), HTTP_PORT: String(httpPort), RETRY_SCHEDULE: '3600' },
  });
  api = suite.api;
  expect((await api.put(api.account(`/domains/${sender}`), { sending_type: 'marketing' })).status).toBe(200);
  const dns = new DnsControl();
  await dns.setA(`t.${sender}`, '127.0.0.1');
  await api.post(api.account(`/domains/${sender}/check-dns`));
  for (const [provider, host] of Object.entries(MX_HOSTS)) {
    await dns.setMx(domains[provider as keyof typeof MX_HOSTS], host);
    await dns.setA(host, '127.0.0.1');
  }
  await routeDomainToLoopback(domains.other);
});
test.afterAll(async () => {
  await suite?.stop();
});

async function send(to: string) {
  const sent = await api.post(api.account('/messages'), {
    from: { email: `news@${sender}` },
    recipients: [{ email: to }],
    subject: `For ${to}`,
    html_content: '<p>Hello</p>',
    tracking: { open: true },
  });
  expect(sent.status, sent.text).toBe(202);
  return sent.body.data[0].id as string;
}

/** Requests a tracking URL as a mail client would: the tracking host, resolved to 127.0.0.1. */
function visit(url: string) {
  const parsed = new URL(url);
  return undiciFetch(`http://127.0.0.1:${parsed.port}${parsed.pathname}`, {
    headers: { host: parsed.host, 'user-agent': 'Mozilla/5.0 (Macintosh) Thunderbird/128.0' },
    redirect: 'manual',
  });
}

/** A statistics request with an API key: 1 per second (rate limited), so a 429 waits its Retry-After. */
async function statistics(pathAndQuery: string) {
  for (;;) {
    const response = await api.get(api.account(`/statistics/transactional/${pathAndQuery}`));
    if (response.status !== 429) return response;
    await new Promise((resolve) => setTimeout(resolve, Number(response.headers.get('retry-after') ?? 1) * 1000));
  }
}

const providers = async (query = '') => {
  const response = await statistics(`providers${query}`);
  expect(response.status, response.text).toBe(200);
  const rows = response.body.data as Record<string, number | null>[];
  return Object.fromEntries(rows.map((row) => [row.provider, row])) as Record<string, Record<string, number | null>>;
};
const deliverability = async (provider: string) => {
  const response = await statistics(`deliverability?group_by=month&provider=${provider}`);
  expect(response.status, response.text).toBe(200);
  const total = (field: string) =>
    (response.body.data as Record<string, number>[]).reduce((sum, row) => sum + row[`${field}_count`], 0);
  return { delivered: total('delivered'), bounced: total('bounced'), deferred: total('deferred') };
};

test('statistics per mailbox provider: delivered, deferred, bounced and opened land on the provider of the MX; the provider filter narrows every report', async () => {
  const gmailReader = `reader@${domains.gmail}`;
  suite.mx.script(`gone@${domains.gmail}`, { code: 550, message: '5.1.1 no such user' });
  suite.mx.script(`later@${domains.yahoo}`, { code: 451, message: '4.3.0 try again later' });
  const ids = {
    reader: await send(gmailReader),
    gone: await send(`gone@${domains.gmail}`),
    ms: await send(`cy@${domains.microsoft}`),
    later: await send(`later@${domains.yahoo}`),
    apple: await send(`ap@${domains.apple}`),
    other: await send(`ot@${domains.other}`),
  };
  await waitForStatus(api, ids.reader, 'Delivered');
  await waitForStatus(api, ids.gone, 'Bounced');
  await waitForStatus(api, ids.ms, 'Delivered');
  await waitForStatus(api, ids.later, 'Deferred');
  await waitForStatus(api, ids.apple, 'Delivered');
  await waitForStatus(api, ids.other, 'Delivered');
  const pixel = /<img src="([^"]+\/t\/o\/[^"]+)"/.exec(String(suite.mx.for(gmailReader)[0].parsed.html))?.[1];
  expect(pixel).toBeTruthy();
  expect((await visit(pixel!)).status).toBe(200);

  await expect
    .poll(async () => (await providers()).gmail.opened_count, { intervals: BACKGROUND_POLL_INTERVALS })
    .toBe(1);
  const all = await providers();
  expect(Object.keys(all)).toEqual(['gmail', 'microsoft', 'yahoo', 'apple', 'other']);
  expect(all.gmail).toMatchObject({ reception_count: 2, delivered_count: 1, bounced_count: 1, opened_count: 1 });
  expect(all.microsoft).toMatchObject({ reception_count: 1, delivered_count: 1, bounced_count: 0, deferred_count: 0 });
  expect(all.yahoo).toMatchObject({ reception_count: 1, delivered_count: 0, deferred_count: 1 });
  expect(all.apple).toMatchObject({ delivered_count: 1, opened_count: 0 });
  expect(all.other).toMatchObject({ reception_count: 1, delivered_count: 1 });
  // Loopback deliveries take well under a second: the first bin of the histogram.
  // The upper bound of its delivery-time bin: a loaded machine can take more than a second.
  expect([1, 5, 30]).toContain(all.gmail.median_delivery_time);
  expect(all.yahoo.median_delivery_time).toBeNull();

  // The filter on the other reports, and on this one.
  expect(await deliverability('gmail')).toEqual({ delivered: 1, bounced: 1, deferred: 0 });
  expect(await deliverability('yahoo')).toEqual({ delivered: 0, bounced: 0, deferred: 1 });
  expect(await deliverability('other')).toEqual({ delivered: 1, bounced: 0, deferred: 0 });
  const onlyApple = await statistics('providers?provider=apple');
  expect(onlyApple.body.data).toHaveLength(1);
  expect(onlyApple.body.data[0]).toMatchObject({ provider: 'apple', delivered_count: 1 });
  const bounces = await statistics('bounce?group_by=month&provider=microsoft');
  expect(bounces.status).toBe(200);
  expect(bounces.body.data.flatMap((row: { bounces: unknown[] }) => row.bounces)).toEqual([]);
});

test('a provider the API does not know is 400 naming the field; the OpenAPI document marks the extension', async () => {
  for (const path of ['deliverability', 'bounce', 'delivery-time', 'providers']) {
    const response = await statistics(`${path}?provider=hotmail`);
    expect(response.status).toBe(400);
    expect(response.body.message).toMatch(/provider/);
  }
  const sqlish = await statistics(`providers?provider=${encodeURIComponent("gmail' or 1=1--")}`);
  expect(sqlish.status).toBe(400);
  const spec = (await api.get('/v2/openapi.json')).body;
  const operation = spec.paths['/v2/accounts/{account_id}/statistics/transactional/providers'].get;
  expect(operation['x-mailstead-extension']).toBe(true);
});

/** What a remote MTA does: MAIL FROM:<> and the report as DATA, to our MX. */
async function report(envelopeTo: string, raw: Buffer) {
  const client = nodemailer.createTransport({ host: '127.0.0.1', port: mxPort, secure: false, ignoreTLS: true });
  const info = await client.sendMail({ envelope: { from: '', to: [envelopeTo] }, raw });
  client.close();
  return info.response;
}

const checklist = async () => {
  const response = await api.get(api.account(`/domains/${sender}/provider-checklist`));
  expect(response.status, response.text).toBe(200);
  return Object.fromEntries(
    (response.body.data as { id: string }[]).map((item) => [item.id, item]),
  ) as unknown as Record<string, { status: string; value: number | null; measured: string; threshold: string }>;
};

test('the measured checklist: TLS on every delivery, the complaint rate from an ARF report, one-click unsubscribe on campaign mail', async () => {
  // Each test stands alone (a failed test restarts the suite's server): one delivery of its own first.
  const first = await send(`first@${domains.apple}`);
  await waitForStatus(api, first, 'Delivered');
  const before = await checklist();
  expect(before.tls.status).toBe('pass');
  expect(before.tls.value).toBe(1);
  expect(before.complaint_rate).toMatchObject({ status: 'pass', value: 0 });
  expect(before.one_click_unsubscribe).toMatchObject({ status: 'unknown', value: null });

  // A complaint about one delivered message, sent back by the provider to the return path.
  const to = `angry@${domains.microsoft}`;
  const id = await send(to);
  await waitForStatus(api, id, 'Delivered');
  const [arrived] = suite.mx.for(to);
  const token = arrived.from.slice('bounces+'.length, arrived.from.indexOf('@'));
  const arf = fixture('mailbox-provider-arf.eml', {
    ENVELOPE_TO: arrived.from,
    TOKEN: token,
    RP_HOST: `rp.${sender}`,
    RECIPIENT: to,
    MESSAGE_ID: String(arrived.parsed.messageId),
  });
  expect(await report(arrived.from, arf)).toMatch(/^250 /);
  await expect.poll(async () => (await checklist()).complaint_rate.status, { timeout: 20_000 }).toBe('fail');
  const after = await checklist();
  const delivered = Object.values(await providers()).reduce((sum, row) => sum + Number(row.delivered_count), 0);
  expect(after.complaint_rate.value).toBeCloseTo(1 / delivered, 6);
  expect(after.complaint_rate.measured).toContain(`1 of ${delivered} delivered`);

  // A campaign: every message carries List-Unsubscribe-Post, measured as sent.
  const list = (await api.post(api.account('/lists'), { name: 'Checklist readers' })).body;
  const readers = [`c1@${domains.other}`, `c2@${domains.apple}`];
  for (const email of readers) expect((await api.post(api.account('/contacts'), { email })).status).toBe(201);
  await api.post(api.account(`/lists/${list.id}/members`), { contacts: readers });
  const campaign = await api.post(api.account('/campaigns'), {
    name: 'Checklist',
    from: { email: `news@${sender}`, name: 'News' },
    subject: 'Hello',
    html_content: '<p>Hi</p>',
    text_content: 'Hi',
    list_ids: [list.id],
  });
  expect(campaign.status, campaign.text).toBe(201);
  expect((await api.post(api.account(`/campaigns/${campaign.body.id}/send`))).status).toBe(200);
  await expect
    .poll(async () => (await checklist()).one_click_unsubscribe.measured, {
      timeout: 30_000,
      intervals: BACKGROUND_POLL_INTERVALS,
    })
    .toContain('2 of 2 campaign messages');
  expect((await checklist()).one_click_unsubscribe).toMatchObject({ status: 'pass', value: 1 });
  for (const email of readers) expect(String(suite.mx.for(email)[0].raw)).toMatch(/^List-Unsubscribe-Post:/im);
});

test('the checklist of a domain of another account, or of none, is 404', async () => {
  expect((await api.get(api.account(`/domains/nope-${stamp}.example/provider-checklist`))).status).toBe(404);
});
