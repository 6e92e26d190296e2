import { expect, test } from '@playwright/test';
import type { ApiClient } from '../support/client';
import { verifiedDomain, waitForStatus } from '../support/sending';
import { newAccount } from '../support/shared';

/** The message API on the shared server. Messages here are sandboxed, so nothing tries to leave. */
let api: ApiClient;
let sender: string;
let other: string;
const stamp = Date.now().toString(36);

test.beforeAll(async () => {
  ({ api } = await newAccount('Messages'));
  sender = `msg-${stamp}.example.com`;
  other = `msg2-${stamp}.example.com`;
  await verifiedDomain(api, sender);
  await verifiedDomain(api, other);
});

const send = (body: Record<string, unknown>, client = api, headers?: Record<string, string>) =>
  client.post(
    client.account('/messages'),
    {
      from: { email: `news@${sender}` },
      recipients: [{ email: 'r@example.org' }],
      subject: 'S',
      text_content: 'T',
      sandbox: true,
      ...body,
    },
    { headers },
  );
const count = async () => (await api.get(api.account('/messages?limit=100'))).body.data.length;

const badBodies: [string, Record<string, unknown>, RegExp][] = [
  ['neither text nor html', { text_content: undefined }, /Either text_content or html_content is required/],
  [
    'only AMP',
    { text_content: undefined, amp_content: '<html amp4email></html>' },
    /amp_content cannot be the only body/,
  ],
  ['no recipients', { recipients: [] }, /recipients/],
  [
    '101 recipients',
    { recipients: Array.from({ length: 101 }, (_, i) => ({ email: `r${i}@example.org` })) },
    /at most 100 recipients/,
  ],
  ['only invalid recipients', { recipients: [{ email: 'nope' }, { email: 'a@b' }] }, /no recipient could be accepted/],
  ['a bad from address', { from: { email: 'not-an-email' } }, /from\.email/],
  ['a from domain of no account', { from: { email: 'x@unknown-domain.example' } }, /not a domain of this account/],
  [
    'a template syntax error',
    { substitutions: { a: 1 }, html_content: '<p>{{ name </p>' },
    /html_content: template syntax error/,
  ],
  [
    'a header with a line break',
    { headers: { 'X-Evil': 'a\r\nBcc: victim@example.org' } },
    /must not contain line breaks/,
  ],
  ['a reserved header', { headers: { From: 'spoof@example.org' } }, /"From" is set by Mailstead/],
  [
    'reply_to and a Reply-To header',
    { reply_to: { email: 'a@example.org' }, headers: { 'Reply-To': 'b@example.org' } },
    /reply_to/,
  ],
  [
    'a first attempt 8 days ahead',
    { schedule: { first_attempt: new Date(Date.now() + 8 * 86400_000).toISOString() } },
    /at most 7 days/,
  ],
  [
    'an expiry before the first attempt',
    {
      schedule: {
        first_attempt: new Date(Date.now() + 3600_000).toISOString(),
        expires: new Date(Date.now() + 1800_000).toISOString(),
      },
    },
    /after schedule.first_attempt/,
  ],
  ['a timestamp that is not RFC 3339', { schedule: { first_attempt: 'tomorrow' } }, /RFC 3339/],
  ['an unknown sandbox_result', { sandbox_result: 'explode' }, /sandbox_result/],
  ['retention data 31 days', { retention: { data: 31 } }, /retention\.data/],
  [
    'bad base64 in an attachment',
    { attachments: [{ data: '***', base64: true, file_name: 'a', content_type: 'text/plain' }] },
    /attachments\.0\.data: is not valid base64/,
  ],
];

for (const [name, body, message] of badBodies) {
  test(`POST /messages - ${name} is 400 and nothing is queued`, async () => {
    const before = await count();
    const response = await send(body);
    expect(response.status).toBe(400);
    expect(Object.keys(response.body)).toEqual(['message']);
    expect(response.body.message).toMatch(message);
    expect(await count()).toBe(before);
  });
}

test('POST /messages - an unverified domain is refused with 400', async () => {
  const name = `unverified-${stamp}.example.com`;
  await api.post(api.account('/domains'), { domain: name });
  const response = await send({ from: { email: `a@${name}` } });
  expect(response.status).toBe(400);
  expect(response.body.message).toMatch(/not verified/);
});

test('POST /messages - a domain-scoped key sends from its domain only (403 otherwise)', async () => {
  const key = await api.post(api.account('/api-keys'), {
    label: 'scoped sender',
    scopes: [`messages:send:{${sender}}`],
  });
  const scoped = api.with(key.body.secret_key);
  expect((await send({}, scoped)).status).toBe(202);
  const refused = await send({ from: { email: `a@${other}` } }, scoped);
  expect(refused.status).toBe(403);
  expect(refused.body.message).toContain(`messages:send:{${other}}`);
  const noScope = api.with(
    (await api.post(api.account('/api-keys'), { label: 'reader', scopes: ['messages:read:all'] })).body.secret_key,
  );
  expect((await send({}, noScope)).status).toBe(403);
});

test('POST /messages - Idempotency-Key replays the 202 and queues once', async () => {
  const before = await count();
  const headers = { 'Idempotency-Key': `send-${stamp}` };
  const first = await send({ recipients: [{ email: 'once@example.org' }] }, api, headers);
  const replay = await send({ recipients: [{ email: 'once@example.org' }] }, api, headers);
  expect(first.status).toBe(202);
  expect(replay.status).toBe(202);
  expect(replay.headers.get('idempotent-replayed')).toBe('true');
  expect(replay.body).toEqual(first.body);
  expect(await count()).toBe(before + 1);
});

test('GET /messages/:id - by bare id or Message-ID, with the raw content and its parsed parts', async () => {
  const sent = await send({
    recipients: [{ email: 'Reader@Example.org', name: 'Reader' }],
    subject: 'Parsed {{ x }}',
    text_content: 'text {{ x }}',
    html_content: '<p>html {{ x }}</p>',
    substitutions: { x: 'ok' },
    attachments: [{ data: 'hello', file_name: 'a.txt', content_type: 'text/plain' }],
    headers: { 'X-Trace': 'abc' },
    tags: ['receipts', 'eu'],
  });
  const messageId = sent.body.data[0].id;
  const bareId = messageId.slice(1, messageId.indexOf('@'));
  const byHeader = await api.get(api.account(`/messages/${encodeURIComponent(messageId)}`));
  const byId = await api.get(api.account(`/messages/${bareId}`));
  expect(byHeader.status).toBe(200);
  expect(byId.body.id).toBe(bareId);
  // The subject is the one the recipient gets, substitutions rendered.
  expect(byHeader.body).toMatchObject({
    object: 'message',
    id: bareId,
    message_id: messageId,
    sender: `news@${sender}`,
    recipient: 'reader@example.org',
    subject: 'Parsed ok',
    tags: ['receipts', 'eu'],
    direction: 'outbound',
    is_bounce_notification: false,
  });
  expect(byHeader.body.content).toMatch(/^Subject: Parsed ok$/m);
  expect(byHeader.body.content_parsed.parts).toEqual([
    { content_type: 'text/plain', content: 'text ok' },
    { content_type: 'text/html', content: '<p>html ok</p>' },
  ]);
  expect(byHeader.body.content_parsed.attachments).toEqual([
    { filename: 'a.txt', content: Buffer.from('hello').toString('base64'), content_type: 'text/plain', content_id: '' },
  ]);
  expect(byHeader.body.content_parsed.headers['X-Trace']).toEqual(['abc']);
  await waitForStatus(api, bareId, 'Sandbox Delivered');
  // Stored with the outcome, so the log shows it too (sandbox mail included).
  expect(
    (await api.get(api.account(`/messages?message_id_header=${encodeURIComponent(messageId)}`))).body.data.map(
      (message: { subject: string }) => message.subject,
    ),
  ).toEqual(['Parsed ok']);
  const missing = await api.get(api.account('/messages/01a20000-0000-7000-8000-000000000000'));
  expect(missing.status).toBe(404);
  expect((await api.get(api.account('/messages/not-a-message'))).status).toBe(404);
});

test('GET /messages and /messages/:id - bounce_classification is always present: null unless the message bounced', async () => {
  const delivered = (await send({ recipients: [{ email: `kept-${stamp}@example.org` }] })).body.data[0].id;
  const bounced = (await send({ recipients: [{ email: `gone-${stamp}@example.org` }], sandbox_result: 'bounce' })).body
    .data[0].id;
  await waitForStatus(api, delivered, 'Sandbox Delivered');
  await waitForStatus(api, bounced, 'Sandbox Bounced');
  const one = async (id: string) => (await api.get(api.account(`/messages/${encodeURIComponent(id)}`))).body;
  expect(await one(delivered)).toHaveProperty('bounce_classification', null);
  expect(await one(bounced)).toHaveProperty('bounce_classification', 'InvalidRecipient');
  const listed = (await api.get(api.account(`/messages?limit=100`))).body.data as Record<string, unknown>[];
  const byMessageId = new Map(listed.map((message) => [message.message_id, message]));
  expect(byMessageId.get(delivered)).toHaveProperty('bounce_classification', null);
  expect(byMessageId.get(bounced)).toHaveProperty('bounce_classification', 'InvalidRecipient');
  for (const message of listed) expect(message).toHaveProperty('bounce_classification');
});

test('GET /messages - filters: status names (any case, spaces), sender, recipient, subject, tags, time, Message-ID; empty values ignored', async () => {
  const { api: own } = await newAccount('Message filters');
  const domain = `filters-${stamp}.example.com`;
  await verifiedDomain(own, domain);
  const mk = (body: Record<string, unknown>) => send({ from: { email: `f@${domain}` }, ...body }, own);
  const a = await mk({ recipients: [{ email: 'alpha@example.org' }], subject: 'Invoice April', tags: ['billing'] });
  const b = await mk({
    recipients: [{ email: 'beta@example.org' }],
    subject: 'Welcome',
    sandbox_result: 'bounce',
    tags: ['onboarding'],
  });
  const aId = a.body.data[0].id;
  await waitForStatus(own, aId, 'Sandbox Delivered');
  await waitForStatus(own, b.body.data[0].id, 'Sandbox Bounced');
  const list = async (query: string) =>
    (await own.get(own.account(`/messages?${query}`))).body.data.map((m: { recipient: string }) => m.recipient).sort();
  expect(await list('status=sandbox%20delivered')).toEqual(['alpha@example.org']);
  expect(await list('status=Sandbox Delivered, SANDBOX  BOUNCED')).toEqual(['alpha@example.org', 'beta@example.org']);
  expect(await list('status=Delivered')).toEqual([]);
  expect(await list('subject=invoice')).toEqual(['alpha@example.org']);
  expect(await list('tags=onboarding,other')).toEqual(['beta@example.org']);
  expect(await list('recipient=BETA@example.org')).toEqual(['beta@example.org']);
  expect(await list(`sender=f@${domain}`)).toEqual(['alpha@example.org', 'beta@example.org']);
  expect(await list(`message_id_header=${encodeURIComponent(aId)}`)).toEqual(['alpha@example.org']);
  expect(await list('status=&sender=&recipient=&subject=&message_id_header=&cursor=')).toEqual([
    'alpha@example.org',
    'beta@example.org',
  ]);
  expect(await list(`from_time=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`)).toEqual([]);
  const bad = await own.get(own.account('/messages?status=Exploded'));
  expect(bad.status).toBe(400);
  expect(bad.body.message).toMatch(/unknown status/);
  expect((await own.get(own.account('/messages?from_time=yesterday'))).status).toBe(400);
});

test('GET /messages - a domain-scoped read key sees only its domain; cancel needs messages:cancel, and cancelling a message that is not scheduled is 400', async () => {
  const mine = await send({ recipients: [{ email: 'scoped-read@example.org' }] });
  const theirs = await send({ from: { email: `x@${other}` }, recipients: [{ email: 'scoped-read@example.org' }] });
  const reader = api.with(
    (await api.post(api.account('/api-keys'), { label: 'read one', scopes: [`messages:read:{${sender}}`] })).body
      .secret_key,
  );
  const listed = await reader.get(reader.account('/messages?recipient=scoped-read@example.org'));
  expect(listed.body.data.map((m: { message_id: string }) => m.message_id)).toEqual([mine.body.data[0].id]);
  expect((await reader.get(reader.account(`/messages/${encodeURIComponent(theirs.body.data[0].id)}`))).status).toBe(
    403,
  );
  expect(
    (await reader.delete(reader.account(`/messages/${encodeURIComponent(mine.body.data[0].id)}/cancel`))).status,
  ).toBe(403);
  const notScheduled = await api.delete(api.account(`/messages/${encodeURIComponent(mine.body.data[0].id)}/cancel`));
  expect(notScheduled.status).toBe(400);
  expect(notScheduled.body.message).toMatch(/only scheduled messages can be cancelled/);
});
