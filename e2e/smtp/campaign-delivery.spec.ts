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
  suite = await startMxSuite({
    name: 'Campaign sender',
    sender,
    recipientDomain: rcptDomain,
    env: { ROLES: 'web,worker,mx', MX_PORT: String(mxPort), RETRY_SCHEDULE: '4' },
  });
  ({ server, mx, api } = suite);
  expect((await api.put(api.account(`/domains/${sender}`), { sending_type: 'marketing' })).status).toBe(200);
});

test.afterAll(async () => {
  await suite?.stop();
});

/** A header as it was written (mailparser turns List-* headers into objects), unfolded. */
function rawHeader(raw: Buffer, name: string): string {
  const head = raw
    .toString('utf8')
    .split('\r\n\r\n')[0]
    .replace(/\r\n[ \t]+/g, ' ');
  const line = head.split('\r\n').find((candidate) => candidate.toLowerCase().startsWith(`${name.toLowerCase()}:`));
  return line ? line.slice(name.length + 1).trim() : '';
}

/** A contact's membership status by list id. */
async function statusesOf(email: string): Promise<Record<string, string>> {
  const response = await api.get(api.account(`/contacts/${encodeURIComponent(email)}/lists`));
  return Object.fromEntries(
    response.body.data.map((membership: { list_id: string; subscription_status: string }) => [
      membership.list_id,
      membership.subscription_status,
    ]),
  );
}

async function waitForCampaign(id: string, status: string) {
  await expect
    .poll(async () => (await api.get(api.account(`/campaigns/${id}`))).body.status, {
      timeout: 30_000,
      intervals: BACKGROUND_POLL_INTERVALS,
      message: `campaign never reached ${status}`,
    })
    .toBe(status);
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
  expect(
    (await api.post(api.account('/suppressions'), { email: people[3], reason: 'test', expires_at: expiresAt })).status,
  ).toBe(201);

  const created = await api.post(api.account('/campaigns'), {
    name: 'November news',
    from: { email: `news@${sender}`, name: 'News' },
    subject: 'Hello {{ first_name }}',
    preheader: 'Your news, {{ first_name }}',
    html_content:
      '<html><body><p>Hi {{ first_name }}, read <a href="https://example.org/post">this</a>.</p></body></html>',
    text_content: 'Hi {{ first_name }}',
    list_ids: [list.id, other.id],
    tracking: { open: true, click: true },
  });
  expect(created.status).toBe(201);
  const sent = await api.post(api.account(`/campaigns/${created.body.id}/send`));
  expect(sent.status).toBe(200);
  expect(sent.body.status).toBe('validating');
  await waitForCampaign(created.body.id, 'sent');

  await expect
    .poll(() => mx.for(people[0]).length + mx.for(people[4]).length, {
      timeout: 30_000,
      intervals: BACKGROUND_POLL_INTERVALS,
    })
    .toBe(2);
  for (const excluded of [people[1], people[2], people[3]]) expect(mx.for(excluded)).toEqual([]);

  const [mail] = mx.for(people[0]);
  expect(mail.parsed.subject).toBe('Hello Name0');
  // The preheader is the first text of the body (what inboxes show after the subject), hidden from the reader.
  expect(mail.parsed.html).toMatch(/<body[^>]*><div style="display:none;[^"]*" data-preheader>Your news, Name0&#847;/);
  expect(mail.parsed.text).not.toContain('Your news');
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
  const signedHeaders = String((signature as unknown as { signingHeaders: { keys: string } }).signingHeaders.keys)
    .toLowerCase()
    .split(':')
    .map((name) => name.trim());
  expect(signedHeaders).toEqual(expect.arrayContaining(['list-unsubscribe', 'list-unsubscribe-post']));

  // RFC 8058 one-click: a POST with that body, no cookie, no login.
  const path = new URL(url!).pathname;
  const click = await fetch(server.baseUrl + path, {
    method: 'POST',
    body: 'List-Unsubscribe=One-Click',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    dispatcher: api.agent,
  } as RequestInit);
  expect(click.status).toBe(200);
  expect(await statusesOf(people[0])).toEqual({ [list.id]: 'unsubscribed', [other.id]: 'unsubscribed' });
  expect((await api.get(api.account(`/contacts/${encodeURIComponent(people[0])}`))).body.unsubscribed).toBe(false);

  // A forged token is refused and changes nothing.
  const forged = path.slice(0, -4) + (path.endsWith('AAAA') ? 'BBBB' : 'AAAA');
  const refused = await fetch(server.baseUrl + forged.replace(/\/u\/[^.]+/, `/u/${created.body.id}`), {
    method: 'POST',
    dispatcher: api.agent,
  } as RequestInit);
  expect(refused.status).toBe(404);
  expect(await statusesOf(people[4])).toEqual({ [list.id]: 'confirmed' });

  // The mailto of List-Unsubscribe, as a mail client sends it: to our MX, the token in the subject.
  const mailto = new URL(/<(mailto:[^>]+)>/.exec(rawHeader(mx.for(people[4])[0].raw, 'List-Unsubscribe'))![1]);
  const client = nodemailer.createTransport({ host: '127.0.0.1', port: mxPort, secure: false, ignoreTLS: true });
  await client.sendMail({
    from: people[4],
    to: mailto.pathname,
    subject: mailto.searchParams.get('subject')!,
    text: 'unsubscribe',
  });
  client.close();
  await expect
    .poll(() => statusesOf(people[4]), { timeout: 20_000, intervals: BACKGROUND_POLL_INTERVALS })
    .toEqual({ [list.id]: 'unsubscribed' });

  await expect
    .poll(async () => (await api.get(api.account(`/campaigns/${created.body.id}/stats`))).body, {
      timeout: 20_000,
      intervals: BACKGROUND_POLL_INTERVALS,
    })
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
    html_content:
      '<p>Hi {{ first_name }}{{ x.constructor }}{{ first_name.__class__ }}</p><p><a href="{{ unsubscribe_url }}">out</a></p>',
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

  for (const token of [
    'x'.repeat(5000),
    '..%2F..%2Fetc%2Fpasswd',
    `${created.body.id}.<script>.AAAA`,
    '%00',
    'a.b.c',
  ]) {
    for (const method of ['GET', 'POST']) {
      const refused = await fetch(`${server.baseUrl}/u/${token}`, { method, dispatcher: api.agent } as RequestInit);
      expect([400, 404, 414, 431]).toContain(refused.status);
      expect(await refused.text()).not.toContain('<script>');
    }
  }
  expect(
    (await api.get(api.account(`/contacts/${encodeURIComponent(email)}/lists`))).body.data[0].subscription_status,
  ).toBe('confirmed');
});

test('a campaign stays sending until every message has an outcome; its counts follow delivery, and each message record has the subject its recipient got and the campaign id', async () => {
  const list = (await api.post(api.account('/lists'), { name: 'Counted' })).body;
  const [ok, later, gone] = ['ok', 'later', 'gone'].map((name) => `${name}-counted@${rcptDomain}`);
  for (const [index, email] of [ok, later, gone].entries())
    expect((await api.post(api.account('/contacts'), { email, first_name: `Reader${index}` })).status).toBe(201);
  await api.post(api.account(`/lists/${list.id}/members`), { contacts: [ok, later, gone] });
  // `later` is put off once (a retry 4 s on), `gone` refused for good.
  mx.script(later, { code: 451, message: '451 4.2.0 come back later' });
  mx.script(gone, { code: 550, message: '550 5.1.1 no such user' });
  const created = await api.post(api.account('/campaigns'), {
    name: 'Counted news',
    from: { email: `news@${sender}`, name: 'News' },
    subject: '{{ first_name | default("Friend") }}, what is new',
    html_content: '<p>Hi {{ first_name }}</p>',
    list_ids: [list.id],
  });
  const id = created.body.id;
  await api.post(api.account(`/campaigns/${id}/send`));

  // Delivered and bounced, one deferred: still sending, with the deferral counted.
  const stats = () => api.get(api.account(`/campaigns/${id}/stats`)).then((response) => response.body);
  await expect
    .poll(stats, { timeout: 30_000, intervals: BACKGROUND_POLL_INTERVALS })
    .toMatchObject({ recipients: 3, queued: 3, waiting: 0, delivered: 1, deferred: 1, bounced: 1, failed: 0 });
  const during = (await api.get(api.account(`/campaigns/${id}`))).body;
  expect(during.status).toBe('sending');
  expect(during.completed_at).toBeNull();
  expect(during.queued_at).not.toBeNull();

  await waitForCampaign(id, 'sent');
  const done = (await api.get(api.account(`/campaigns/${id}`))).body;
  expect(done.counts).toMatchObject({
    recipients: 3,
    queued: 3,
    waiting: 0,
    delivered: 2,
    deferred: 0,
    bounced: 1,
    failed: 0,
  });
  expect(done.completed_at).not.toBeNull();
  expect(mx.for(later)).toHaveLength(1);

  // The message log: each recipient's own subject, and the campaign it belongs to.
  const logged = await api.get(api.account(`/messages?campaign_id=${id}`));
  expect(logged.status).toBe(200);
  const subjects = Object.fromEntries(
    logged.body.data.map((message: { recipient: string; subject: string; campaign_id: string }) => [
      message.recipient,
      [message.subject, message.campaign_id],
    ]),
  );
  expect(subjects).toEqual({
    [ok]: ['Reader0, what is new', id],
    [later]: ['Reader1, what is new', id],
    [gone]: ['Reader2, what is new', id],
  });
  const one = await api.get(api.account(`/messages/${logged.body.data[0].id}`));
  expect(one.body).toMatchObject({ subject: expect.stringMatching(/^Reader\d, what is new$/), campaign_id: id });
  expect(mx.for(ok)[0].parsed.subject).toBe('Reader0, what is new');
  expect((await api.get(api.account('/messages?campaign_id=not-an-id'))).status).toBe(400);
});

test('a personalised send: each message record has the subject its recipient got, once sent, and none names a campaign', async () => {
  const people = ['pat', 'sam'].map((name) => `${name}-personal@${rcptDomain}`);
  const sent = await api.post(api.account('/messages'), {
    from: { email: `news@${sender}` },
    recipients: people.map((email, index) => ({ email, substitutions: { name: `Person${index}` } })),
    subject: 'Hello {{ name }}',
    text_content: 'Hi {{ name }}',
  });
  expect(sent.status, sent.text).toBe(202);
  const ids: string[] = sent.body.data.map((message: { id: string }) => message.id);
  for (const [index, messageId] of ids.entries()) {
    await expect
      .poll(async () => (await api.get(api.account(`/messages/${messageId}`))).body.status, {
        timeout: 30_000,
        intervals: BACKGROUND_POLL_INTERVALS,
      })
      .toBe('Delivered');
    const read = (await api.get(api.account(`/messages/${messageId}`))).body;
    expect(read).toMatchObject({ subject: `Hello Person${index}`, campaign_id: null });
  }
  const listed = await api.get(api.account(`/messages?recipient=${encodeURIComponent(people[1])}`));
  expect(listed.body.data.map((message: { subject: string }) => message.subject)).toEqual(['Hello Person1']);
});

test('a campaign written in Markdown or in blocks arrives as rendered HTML: personalised, links tracked, the unsubscribe footer and headers, a text part', async () => {
  const bodies = {
    markdown: {
      format: 'markdown',
      markdown_content: '# Hello {{ first_name }}\n\nRead [the post](https://example.org/post?a=1&b=2).\n',
    },
    blocks: {
      format: 'blocks',
      blocks_content: {
        version: 1,
        blocks: [
          { id: 'title', type: 'heading', level: 1, text: 'Hello {{ first_name }}' },
          { id: 'body', type: 'text', text: 'Read [the post](https://example.org/post?a=1&b=2).' },
          { id: 'cta', type: 'button', text: 'Open', href: 'https://example.org/open' },
        ],
      },
    },
  };
  for (const [format, body] of Object.entries(bodies)) {
    const email = `${format}-reader@${rcptDomain}`;
    expect((await api.post(api.account('/contacts'), { email, first_name: `Reader ${format}` })).status).toBe(201);
    const own = (await api.post(api.account('/lists'), { name: `Formats ${format}` })).body;
    await api.post(api.account(`/lists/${own.id}/members`), { contact: email });
    const created = await api.post(api.account('/campaigns'), {
      name: `In ${format}`,
      from: { email: `news@${sender}`, name: 'News' },
      subject: 'Hi {{ first_name }}',
      list_ids: [own.id],
      tracking: { open: true, click: true },
      ...body,
    });
    expect(created.status, created.text).toBe(201);
    expect((await api.post(api.account(`/campaigns/${created.body.id}/send`))).status).toBe(200);
    await waitForCampaign(created.body.id, 'sent');
    await expect.poll(() => mx.for(email).length, { timeout: 30_000, intervals: BACKGROUND_POLL_INTERVALS }).toBe(1);

    const [mail] = mx.for(email);
    const html = String(mail.parsed.html);
    expect(html).toMatch(/^<!doctype html>/i);
    expect(html).toContain('<meta name="viewport" content="width=device-width, initial-scale=1">');
    expect(html).toMatch(new RegExp(`<h1 style="[^"]+">Hello Reader ${format}</h1>`));
    // Click tracking rewrote the author's link; the unsubscribe footer's link is left alone.
    expect(html).not.toContain('href="https://example.org/post');
    expect(html).toMatch(/href="[^"]+\/t\/c\/[^"]+"[^>]*>the post<\/a>/);
    const unsubscribe = /<(https:\/\/[^>]+\/u\/[^>]+)>/.exec(rawHeader(mail.raw, 'List-Unsubscribe'))?.[1];
    expect(unsubscribe).toBeTruthy();
    expect(html).toContain(`href="${unsubscribe}"`);
    expect(rawHeader(mail.raw, 'List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click');
    expect(mail.parsed.text).toContain(`Hello Reader ${format}`);
    expect(mail.parsed.text).toContain(unsubscribe!);
    expect(mail.parsed.text).not.toMatch(/<[a-z]/i);
  }
});
