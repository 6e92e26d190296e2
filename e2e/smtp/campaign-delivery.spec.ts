import { expect, test } from '@playwright/test';
import { dkimVerify } from 'mailauth/lib/dkim/verify.js';
import nodemailer from 'nodemailer';
import { BACKGROUND_POLL_INTERVALS, testDnsResolver } from '../support/sending';
import { startMxSuite, type MxSuite } from '../support/mx-suite';
import { freePort, type ServerHandle } from '../support/server';
import type { ApiClient } from '../support/client';
import type { TestMx } from '../support/mx-server';

/**
 * A campaign as its recipients get it: drafted, validated, sent through the delivery engine to a
 * loopback MX, each message personalised, DKIM-valid with both RFC 8058 headers signed, and a
 * one-click POST that unsubscribes the membership, as does the mailto sent to our MX; the stats count it all.
 */
let server: ServerHandle;
let mx: TestMx;
let api: ApiClient;
let sender: string;
let suite: MxSuite;
let mxPort: number;
const stamp = Date.now().toString(36);
const rcptDomain = `cmp-${stamp}.example`;

test.beforeAll(async () => {
  sender = `news-${stamp}.example.com`;
  mxPort = await freePort();
  suite = await startMxSuite({ name: 'Campaign sender', sender, recipientDomain: rcptDomain, env: { ROLES: 'web,worker,mx', MX_PORT: String(mxPort) } });
  ({ server, mx, api } = suite);
  expect((await api.put(api.account(`/domains/${sender}`), { sending_type: 'marketing' })).status).toBe(200);
});

test.afterAll(async () => {
  await suite?.stop();
});

/** A header as it was written (mailparser turns List-* headers into objects), unfolded. */
function rawHeader(raw: Buffer, name: string): string {
  const head = raw.toString('utf8').split('\r\n\r\n')[0].replace(/\r\n[ \t]+/g, ' ');
  const line = head.split('\r\n').find((candidate) => candidate.toLowerCase().startsWith(`${name.toLowerCase()}:`));
  return line ? line.slice(name.length + 1).trim() : '';
}

/** A contact's membership status by list id. */
async function statusesOf(email: string): Promise<Record<string, string>> {
  const response = await api.get(api.account(`/contacts/${encodeURIComponent(email)}/lists`));
  return Object.fromEntries(response.body.data.map((membership: { list_id: string; subscription_status: string }) => [membership.list_id, membership.subscription_status]));
}

async function waitForCampaign(id: string, status: string) {
  await expect.poll(async () => (await api.get(api.account(`/campaigns/${id}`))).body.status, { timeout: 30_000, intervals: BACKGROUND_POLL_INTERVALS, message: `campaign never reached ${status}` }).toBe(status);
}

test('a campaign reaches each confirmed, subscribed, unsuppressed member once, signed with both unsubscribe headers; one click unsubscribes', async () => {
  const list = (await api.post(api.account('/lists'), { name: 'Newsletter' })).body;
  const other = (await api.post(api.account('/lists'), { name: 'Customers' })).body;
  const people = ['ada', 'bob', 'cy', 'dee', 'eve'].map((name) => `${name}@${rcptDomain}`);
  for (const [index, email] of people.entries()) {
    expect((await api.post(api.account('/contacts'), { email, first_name: `Name${index}` })).status).toBe(201);
  }
  // ada in both lists (once), bob unconfirmed, cy unsubscribed account-wide, dee suppressed, eve plain.
  await api.post(api.account(`/lists/${list.id}/members`), { contacts: [people[0], people[2], people[3], people[4]] });
  await api.post(api.account(`/lists/${other.id}/members`), { contacts: [people[0]] });
  await api.post(api.account(`/lists/${list.id}/members`), { contact: people[1], subscription_status: 'unconfirmed' });
  await api.post(api.account(`/contacts/${encodeURIComponent(people[2])}/unsubscribe`));
  const expiresAt = new Date(Date.now() + 86_400_000).toISOString();
  expect((await api.post(api.account('/suppressions'), { email: people[3], reason: 'test', expires_at: expiresAt })).status).toBe(201);

  const created = await api.post(api.account('/campaigns'), {
    name: 'November news',
    from: { email: `news@${sender}`, name: 'News' },
    subject: 'Hello {{ first_name }}',
    html_content: '<html><body><p>Hi {{ first_name }}, read <a href="https://example.org/post">this</a>.</p></body></html>',
    text_content: 'Hi {{ first_name }}',
    list_ids: [list.id, other.id],
    tracking: { open: true, click: true },
  });
  expect(created.status).toBe(201);
  const sent = await api.post(api.account(`/campaigns/${created.body.id}/send`));
  expect(sent.status).toBe(200);
  expect(sent.body.status).toBe('validating');
  await waitForCampaign(created.body.id, 'sent');

  await expect.poll(() => mx.for(people[0]).length + mx.for(people[4]).length, { timeout: 30_000, intervals: BACKGROUND_POLL_INTERVALS }).toBe(2);
  for (const excluded of [people[1], people[2], people[3]]) expect(mx.for(excluded)).toEqual([]);

  const [mail] = mx.for(people[0]);
  expect(mail.parsed.subject).toBe('Hello Name0');
  const unsubscribe = rawHeader(mail.raw, 'List-Unsubscribe');
  const url = /<(https:\/\/[^>]+\/u\/[^>]+)>/.exec(unsubscribe)?.[1];
  expect(url, unsubscribe).toBeTruthy();
  expect(unsubscribe).toMatch(/<mailto:unsubscribe@[^>]+\?subject=unsubscribe%20[^>]+>/);
  expect(rawHeader(mail.raw, 'List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click');
  // The footer link the server added is the same URL, untouched by click tracking.
  expect(mail.parsed.html).toContain(`href="${url}"`);
  expect(mail.parsed.text).toContain(url!);

  const verification = await dkimVerify(mail.raw, { resolver: testDnsResolver() });
  const signature = verification.results[0];
  expect(signature.status.result).toBe('pass');
  const signedHeaders = String((signature as unknown as { signingHeaders: { keys: string } }).signingHeaders.keys).toLowerCase().split(':').map((name) => name.trim());
  expect(signedHeaders).toEqual(expect.arrayContaining(['list-unsubscribe', 'list-unsubscribe-post']));

  // RFC 8058 one-click: a POST with that body, no cookie, no login.
  const path = new URL(url!).pathname;
  const click = await fetch(server.baseUrl + path, { method: 'POST', body: 'List-Unsubscribe=One-Click', headers: { 'content-type': 'application/x-www-form-urlencoded' }, dispatcher: api.agent } as RequestInit);
  expect(click.status).toBe(200);
  expect(await statusesOf(people[0])).toEqual({ [list.id]: 'unsubscribed', [other.id]: 'unsubscribed' });
  expect((await api.get(api.account(`/contacts/${encodeURIComponent(people[0])}`))).body.unsubscribed).toBe(false);

  // A forged token is refused and changes nothing.
  const forged = path.slice(0, -4) + (path.endsWith('AAAA') ? 'BBBB' : 'AAAA');
  const refused = await fetch(server.baseUrl + forged.replace(/\/u\/[^.]+/, `/u/${created.body.id}`), { method: 'POST', dispatcher: api.agent } as RequestInit);
  expect(refused.status).toBe(404);
  expect(await statusesOf(people[4])).toEqual({ [list.id]: 'confirmed' });

  // The mailto of List-Unsubscribe, as a mail client sends it: to our MX, the token in the subject.
  const mailto = new URL(/<(mailto:[^>]+)>/.exec(rawHeader(mx.for(people[4])[0].raw, 'List-Unsubscribe'))![1]);
  const client = nodemailer.createTransport({ host: '127.0.0.1', port: mxPort, secure: false, ignoreTLS: true });
  await client.sendMail({ from: people[4], to: mailto.pathname, subject: mailto.searchParams.get('subject')!, text: 'unsubscribe' });
  client.close();
  await expect.poll(() => statusesOf(people[4]), { timeout: 20_000, intervals: BACKGROUND_POLL_INTERVALS }).toEqual({ [list.id]: 'unsubscribed' });

  await expect
    .poll(async () => (await api.get(api.account(`/campaigns/${created.body.id}/stats`))).body, { timeout: 20_000, intervals: BACKGROUND_POLL_INTERVALS })
    .toMatchObject({ object: 'campaign_stats', recipients: 2, queued: 2, delivered: 2, unsubscribed: 2, bounced: 0 });
});

test('hostile values: a contact name is escaped in the HTML and never evaluated, a list name is escaped on the unsubscribe page, malformed tokens are refused', async () => {
  const list = (await api.post(api.account('/lists'), { name: '<img src=x onerror=alert(1)> & "friends"' })).body;
  const email = `mallory@${rcptDomain}`;
  const name = '<script>alert(1)</script>{{ 7*7 }}';
  expect((await api.post(api.account('/contacts'), { email, first_name: name })).status).toBe(201);
  await api.post(api.account(`/lists/${list.id}/members`), { contact: email });
  const created = await api.post(api.account('/campaigns'), {
    name: 'Hostile',
    from: { email: `news@${sender}` },
    subject: 'Hi {{ first_name }}',
    html_content: '<p>Hi {{ first_name }}{{ x.constructor }}{{ first_name.__class__ }}</p><p><a href="{{ unsubscribe_url }}">out</a></p>',
    text_content: 'Hi {{ first_name }}',
    list_ids: [list.id],
  });
  expect(created.status).toBe(201);
  await api.post(api.account(`/campaigns/${created.body.id}/send`));
  await waitForCampaign(created.body.id, 'sent');
  await expect.poll(() => mx.for(email).length, { timeout: 30_000, intervals: BACKGROUND_POLL_INTERVALS }).toBe(1);
  const [mail] = mx.for(email);
  // Substituted values are data: escaped in HTML, never evaluated as templates, probes render nothing.
  expect(mail.parsed.subject).toBe(`Hi ${name}`);
  expect(mail.parsed.html).toContain('<p>Hi &lt;script&gt;alert(1)&lt;/script&gt;{{ 7*7 }}</p>');
  expect(mail.parsed.html).not.toContain('<script>');

  const url = /<(https:\/\/[^>]+\/u\/[^>]+)>/.exec(rawHeader(mail.raw, 'List-Unsubscribe'))![1];
  const pageResponse = await fetch(server.baseUrl + new URL(url).pathname, { dispatcher: api.agent } as RequestInit);
  const page = await pageResponse.text();
  expect(pageResponse.status).toBe(200);
  expect(page).toContain('&lt;img src=x onerror=alert(1)&gt; &amp; &quot;friends&quot;');
  expect(page).not.toContain('<img');
  expect(pageResponse.headers.get('content-security-policy')).toContain("default-src 'none'");

  for (const token of ['x'.repeat(5000), '..%2F..%2Fetc%2Fpasswd', `${created.body.id}.<script>.AAAA`, '%00', 'a.b.c']) {
    for (const method of ['GET', 'POST']) {
      const refused = await fetch(`${server.baseUrl}/u/${token}`, { method, dispatcher: api.agent } as RequestInit);
      expect([400, 404, 414, 431]).toContain(refused.status);
      expect(await refused.text()).not.toContain('<script>');
    }
  }
  expect((await api.get(api.account(`/contacts/${encodeURIComponent(email)}/lists`))).body.data[0].subscription_status).toBe('confirmed');
});
