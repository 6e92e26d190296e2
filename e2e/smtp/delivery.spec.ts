import { expect, test } from '@playwright/test';
import { dkimVerify } from 'mailauth/lib/dkim/verify.js';
import { createAccountWithKey, runCli } from '../support/cli';
import { ApiClient } from '../support/client';
import { TestMx } from '../support/mx-server';
import { createScratchDatabase, postgresAdminUrl } from '../support/postgres';
import { routeDomainToLoopback, testDnsResolver, verifiedDomain, waitForStatus } from '../support/sending';
import { startServer, type ServerHandle } from '../support/server';

/**
 * Mail accepted by the API leaves through a real SMTP conversation with an MX on loopback, found
 * through MX records in the run's DNS server. One Mailstead server for this file, with quick retries.
 */
let server: ServerHandle;
let mx: TestMx;
let api: ApiClient;
let accountId: string;
let sender: string;
let dropDatabase: (() => Promise<void>) | null = null;
const stamp = Date.now().toString(36);
const rcptDomain = `rcpt-${stamp}.example`;
let n = 0;
const rcpt = (label = 'user') => `${label}-${n++}@${rcptDomain}`;

test.beforeAll(async () => {
  mx = await new TestMx().start();
  const env: Record<string, string> = {
    ALLOW_PRIVATE_NETWORKS: 'true',
    SMTP_DELIVERY_PORT: String(mx.port),
    RETRY_SCHEDULE: '1,1,1,1,1,1,1',
    DELIVERY_POLL_MS: '100',
    DNS_CHECK_CACHE_SECONDS: '0',
  };
  const adminUrl = postgresAdminUrl();
  if (adminUrl) {
    const scratch = await createScratchDatabase(adminUrl, 'mailstead_smtp');
    dropDatabase = scratch.drop;
    Object.assign(env, { DATABASE_URL: scratch.url, MAILSTEAD_SECRET: 'smtp-delivery-secret-smtp-delivery-000001' });
  }
  server = await startServer({ env });
  const account = await createAccountWithKey(server.env, 'Sender');
  accountId = account.accountId;
  api = new ApiClient(server.baseUrl, server.dataDir, account.apiKey, account.accountId);
  sender = `sender-${stamp}.example.com`;
  await verifiedDomain(api, sender);
  await routeDomainToLoopback(rcptDomain);
});

test.afterAll(async () => {
  await server?.stop();
  await mx?.stop();
  await dropDatabase?.();
});

const send = (body: Record<string, unknown>, client = api) =>
  client.post(client.account('/messages'), {
    from: { email: `hello@${sender}`, name: 'Shop' },
    subject: 'Hello',
    text_content: 'Hi',
    ...body,
  });

test('a message arrives at the MX with headers, body, attachments and substitutions, signed with DKIM that verifies', async () => {
  const to = rcpt('ada');
  const other = rcpt('bob');
  const response = await send({
    recipients: [
      { email: to.toUpperCase(), name: 'Ada', substitutions: { first_name: 'Ada', html: '<b>x</b>' } },
      { email: other, name: 'Bob' },
      { email: 'someone@192.0.2.1', name: 'Nobody' },
    ],
    subject: 'Order {{ order }} for {{ first_name }}',
    text_content: 'Hello {{ first_name }}, {{ missing }}order {{ order }} is on its way.',
    html_content: '<p>Hello {{ first_name }} {{ html }}</p><img src="cid:logo@shop">',
    substitutions: { order: 'A-17', first_name: 'friend' },
    attachments: [
      {
        data: Buffer.from('invoice body').toString('base64'),
        base64: true,
        file_name: 'invoice.txt',
        content_type: 'text/plain',
      },
      {
        data: Buffer.from('PNGDATA').toString('base64'),
        base64: true,
        file_name: 'logo.png',
        content_type: 'image/png',
        content_id: '<logo@shop>',
      },
    ],
    headers: { 'X-Campaign-Ref': 'Spring-Sale', 'AhaSend-Tags': 'ignored-because-tags-field' },
    reply_to: { email: 'support@example.org', name: 'Support' },
    tags: ['orders'],
  });
  expect(response.status).toBe(202);
  expect(response.body.object).toBe('list');
  const [ada, bob, nobody] = response.body.data;
  expect(ada).toMatchObject({
    object: 'message',
    recipient: { email: to, name: 'Ada' },
    status: 'queued',
    error: null,
  });
  expect(ada.id).toMatch(new RegExp(`^<[0-9a-f-]{36}@${sender.replace(/\./g, '\\.')}>$`));
  expect(bob.status).toBe('queued');
  expect(nobody).toMatchObject({ id: null, status: 'error', error: expect.stringMatching(/invalid email address/) });

  const delivered = await waitForStatus(api, ada.id, 'Delivered');
  expect(delivered.delivery_attempts).toHaveLength(1);
  expect(delivered.delivery_attempts[0]).toMatchObject({ status: 'delivered', log: expect.stringMatching(/250/) });
  const [mail] = mx.for(to);
  expect(mail).toBeTruthy();
  expect(mail.from).toMatch(new RegExp(`^bounces\\+[0-9a-f]+@rp\\.${sender.replace(/\./g, '\\.')}$`));
  expect(mail.isSecure).toBe(true);
  expect(mail.heloName).toBe('mx.mailstead.test');
  const parsed = mail.parsed;
  expect(parsed.subject).toBe('Order A-17 for Ada');
  expect(
    parsed.to && 'value' in parsed.to ? parsed.to.value.map((address) => [address.name, address.address]) : [],
  ).toEqual([['Ada', to]]);
  expect(parsed.text?.trim()).toBe('Hello Ada, order A-17 is on its way.');
  expect(parsed.html).toContain('Hello Ada &lt;b&gt;x&lt;/b&gt;');
  expect(parsed.messageId).toBe(ada.id);
  expect(parsed.replyTo?.value.map((address) => [address.name, address.address])).toEqual([
    ['Support', 'support@example.org'],
  ]);
  expect(mail.raw.toString()).toMatch(/^X-Campaign-Ref: Spring-Sale$/m);
  expect(mail.raw.toString()).not.toMatch(/AhaSend-Tags/i);
  const invoice = parsed.attachments.find((attachment) => attachment.filename === 'invoice.txt');
  expect(invoice?.content.toString()).toBe('invoice body');
  const logo = parsed.attachments.find((attachment) => attachment.filename === 'logo.png');
  expect(logo?.contentId).toBe('<logo@shop>');
  expect(logo?.contentDisposition).toBe('inline');

  const verification = await dkimVerify(mail.raw, { resolver: testDnsResolver() });
  expect(verification.results.map((result: any) => [result.signingDomain, result.status.result])).toEqual([
    [sender, 'pass'],
  ]);

  // Bob's copy is his own: only his address in To, default substitutions, no other recipient's values.
  const bobDelivered = await waitForStatus(api, bob.id, 'Delivered');
  expect(bobDelivered.recipient).toBe(other);
  const [bobMail] = mx.for(other);
  expect(bobMail.parsed.subject).toBe('Order A-17 for friend');
  expect(bobMail.raw.toString()).not.toContain(to);

  const events = JSON.parse((await runCli(['events', 'list', accountId, '--json'], server.env)).stdout);
  const forAda = events.filter((event: any) => event.message_id === delivered.id).map((event: any) => event.type);
  expect(forAda.sort()).toEqual(['message.delivered', 'message.reception']);
});

test('4xx then success: deferred, retried, delivered', async () => {
  const to = rcpt('slow');
  mx.script(to, { code: 451, message: '4.7.1 greylisted, try later' });
  const response = await send({ recipients: [{ email: to }] });
  const id = response.body.data[0].id;
  const delivered = await waitForStatus(api, id, 'Delivered');
  expect(delivered.num_attempts).toBe(2);
  expect(delivered.delivery_attempts.map((attempt: any) => attempt.status)).toEqual(['deferred', 'delivered']);
  expect(delivered.delivery_attempts[0].log).toMatch(/451 4\.7\.1 greylisted/);
  expect(mx.for(to)).toHaveLength(1);
});

test('5xx: bounced and classified, the address is suppressed, and the next send to it is suppressed without connecting', async () => {
  const to = rcpt('gone');
  mx.script(to, { code: 550, message: '5.1.1 <gone> user unknown' });
  const first = await send({ recipients: [{ email: to }] });
  const bounced = await waitForStatus(api, first.body.data[0].id, 'Bounced');
  expect(bounced.bounce_classification).toBe('InvalidRecipient');
  const events = JSON.parse(
    (await runCli(['events', 'list', accountId, '--type', 'suppression.created', '--json'], server.env)).stdout,
  );
  expect(events.some((event: any) => event.payload.recipient === to && event.payload.sending_domain === sender)).toBe(
    true,
  );

  const connectionsBefore = mx.connections.length;
  const second = await send({ recipients: [{ email: to }] });
  const suppressed = await waitForStatus(api, second.body.data[0].id, 'Suppressed');
  expect(suppressed.delivery_attempts[0].log).toMatch(/suppressed/);
  expect(mx.connections.length).toBe(connectionsBefore);
  expect(mx.for(to)).toHaveLength(0);
});

test('a message that cannot be delivered before it expires ends failed', async () => {
  const to = rcpt('never');
  mx.script(to, ...Array.from({ length: 20 }, () => ({ code: 451, message: '4.3.0 try again' })));
  const expires = new Date(Date.now() + 3000).toISOString();
  const response = await send({ recipients: [{ email: to }], schedule: { expires } });
  expect(response.body.data[0].schedule).toMatchObject({ expires: new Date(expires).toISOString() });
  const failed = await waitForStatus(api, response.body.data[0].id, 'Failed');
  expect(failed.num_attempts).toBeGreaterThanOrEqual(2);
  expect(failed.delivery_attempts.at(-1).status).toBe('failed');
});

test('a scheduled message waits for its time; a cancelled one never leaves', async () => {
  const later = rcpt('later');
  const cancelled = rcpt('cancelled');
  const firstAttempt = new Date(Date.now() + 4000).toISOString();
  const scheduled = await send({ recipients: [{ email: later }], schedule: { first_attempt: firstAttempt } });
  expect(scheduled.body.data[0].status).toBe('scheduled');
  const toCancel = await send({ recipients: [{ email: cancelled }], schedule: { first_attempt: firstAttempt } });
  const cancelResponse = await api.delete(
    api.account(`/messages/${encodeURIComponent(toCancel.body.data[0].id)}/cancel`),
  );
  expect(cancelResponse.status).toBe(200);
  expect((await api.get(api.account(`/messages/${encodeURIComponent(scheduled.body.data[0].id)}`))).body.status).toBe(
    'Received',
  );
  expect(mx.for(later)).toHaveLength(0);
  const delivered = await waitForStatus(api, scheduled.body.data[0].id, 'Delivered');
  expect(Date.parse(delivered.delivered_at)).toBeGreaterThanOrEqual(Date.parse(firstAttempt) - 1000);
  expect(mx.for(cancelled)).toHaveLength(0);
  const cancelledMessage = await api.get(api.account(`/messages/${encodeURIComponent(toCancel.body.data[0].id)}`));
  expect(cancelledMessage.body.status).toBe('Cancelled');
  const again = await api.delete(api.account(`/messages/${encodeURIComponent(scheduled.body.data[0].id)}/cancel`));
  expect(again.status).toBe(400);
});

test('sandbox runs the pipeline without connecting out; sandbox_result picks the outcome', async () => {
  const connectionsBefore = mx.connections.length;
  const deliver = await send({ recipients: [{ email: rcpt('sand') }], sandbox: true });
  const bounce = await send({ recipients: [{ email: rcpt('sand') }], sandbox: true, sandbox_result: 'bounce' });
  const header = await send({
    recipients: [{ email: rcpt('sand') }],
    headers: { 'AhaSend-Sandbox': 'true', 'AhaSend-Sandbox-Result': 'fail' },
  });
  expect((await waitForStatus(api, deliver.body.data[0].id, 'Sandbox Delivered')).status).toBe('Sandbox Delivered');
  expect((await waitForStatus(api, bounce.body.data[0].id, 'Sandbox Bounced')).bounce_classification).toBe(
    'InvalidRecipient',
  );
  await waitForStatus(api, header.body.data[0].id, 'Sandbox Failed');
  expect(mx.connections.length).toBe(connectionsBefore);
});

test('without substitutions each recipient still gets their own To and Message-ID, and the signature verifies', async () => {
  const first = rcpt('zoe');
  const second = rcpt('obrien');
  const response = await send({
    recipients: [
      { email: first, name: 'Zoë Müller' },
      { email: second, name: 'Pat "The Cat" O\'Brien' },
    ],
    subject: 'Same for everyone',
    html_content: `<p>${'Long line of text. '.repeat(400)}</p>`,
  });
  const ids = response.body.data.map((item: { id: string }) => item.id);
  for (const id of ids) await waitForStatus(api, id, 'Delivered');
  const [zoe] = mx.for(first);
  const [pat] = mx.for(second);
  expect(zoe.parsed.to && 'value' in zoe.parsed.to ? zoe.parsed.to.value[0] : null).toMatchObject({
    name: 'Zoë Müller',
    address: first,
  });
  expect(pat.parsed.to && 'value' in pat.parsed.to ? pat.parsed.to.value[0] : null).toMatchObject({
    name: 'Pat "The Cat" O\'Brien',
    address: second,
  });
  expect([zoe.parsed.messageId, pat.parsed.messageId]).toEqual(ids);
  expect(zoe.raw.toString()).not.toContain(second);
  for (const mail of [zoe, pat]) {
    const verification = await dkimVerify(mail.raw, { resolver: testDnsResolver() });
    expect(verification.results[0].status.result).toBe('pass');
  }
});

test('conversation: one message to To and Cc, Bcc delivered but never named in a header', async () => {
  const to = rcpt('to');
  const cc = rcpt('cc');
  const bcc = rcpt('bcc');
  const response = await api.post(api.account('/messages/conversation'), {
    from: { email: `desk@${sender}`, name: 'Help desk' },
    to: [{ email: to, name: 'To Person' }],
    cc: [{ email: cc }],
    bcc: [{ email: bcc }],
    subject: 'Your ticket {{ not_templated }}',
    text_content: 'We are on it.',
  });
  expect(response.status).toBe(202);
  expect(response.body.data.map((item: { recipient: { email: string } }) => item.recipient.email)).toEqual([
    to,
    cc,
    bcc,
  ]);
  const messageId = response.body.data[0].id;
  expect(new Set(response.body.data.map((item: { id: string }) => item.id))).toEqual(new Set([messageId]));
  await expect
    .poll(() => [to, cc, bcc].map((address) => mx.for(address).length), { timeout: 30_000 })
    .toEqual([1, 1, 1]);
  for (const address of [to, cc, bcc]) {
    const [mail] = mx.for(address);
    expect(mail.parsed.messageId).toBe(messageId);
    expect(mail.parsed.subject).toBe('Your ticket {{ not_templated }}');
    expect(mail.raw.toString()).toMatch(new RegExp(`^To: "?To Person"? <${to}>`, 'm'));
    expect(mail.raw.toString()).toMatch(new RegExp(`^Cc: ${cc}`, 'm'));
    expect(mail.raw.toString()).not.toContain(bcc);
  }
  const refused = await api.post(api.account('/messages/conversation'), {
    from: { email: `desk@${sender}` },
    to: [{ email: to }],
    cc: [{ email: cc }],
    headers: { Cc: 'x@example.org' },
    subject: 's',
    text_content: 't',
  });
  expect(refused.status).toBe(400);
  const tooMany = await api.post(api.account('/messages/conversation'), {
    from: { email: `desk@${sender}` },
    to: Array.from({ length: 30 }, (_, i) => ({ email: `t${i}@example.org` })),
    bcc: Array.from({ length: 21 }, (_, i) => ({ email: `b${i}@example.org` })),
    subject: 's',
    text_content: 't',
  });
  expect(tooMany.status).toBe(400);
  expect(tooMany.body.message).toMatch(/at most 50/);
});
