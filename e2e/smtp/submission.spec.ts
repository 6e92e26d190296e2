import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { dkimVerify } from 'mailauth/lib/dkim/verify.js';
import { fetch as undiciFetch } from 'undici';
import type { ApiClient } from '../support/client';
import type { TestMx } from '../support/mx-server';
import { testDnsResolver, waitForStatus } from '../support/sending';
import type { ServerHandle } from '../support/server';
import { refusal, startSubmissionSuite, type SubmissionSuite } from '../support/submission-suite';

/**
 * SMTP submission (the smtp role) with its own server: nodemailer submits over STARTTLS with a scoped
 * credential and the mail reaches a loopback MX DKIM-valid (8-bit parts, tracked links and attachments
 * included), its AhaSend-* headers honoured and stripped; swaks does the same where installed. The SMTP
 * session itself (no open relay, limits, the implicit TLS port) is in submission-sessions.spec.ts;
 * refusals of senders and of AUTH are in submission-refusals.spec.ts.
 */
let suite: SubmissionSuite;
let server: ServerHandle;
let mx: TestMx;
let api: ApiClient;
let submissionPort: number;
let sender: string;
let otherSender: string;
let scoped: { username: string; password: string };
let transport: SubmissionSuite['transport'];
let messageByHeader: SubmissionSuite['messageByHeader'];
const stamp = Date.now().toString(36);
const rcptDomain = `sub-rcpt-${stamp}.example`;

test.beforeAll(async () => {
  suite = await startSubmissionSuite({
    name: 'SMTP submitter',
    sender: `sub-${stamp}.example.com`,
    otherSender: `sub-other-${stamp}.example.com`,
    recipientDomain: rcptDomain,
  });
  ({ server, mx, api, submissionPort, sender, otherSender, scoped, transport, messageByHeader } = suite);
});

test.afterAll(async () => {
  await suite?.stop();
});

test('nodemailer submits over STARTTLS with a scoped credential: delivered DKIM-valid, AhaSend-* headers honoured and stripped, Bcc gone', async () => {
  const to = `ada@${rcptDomain}`;
  const bcc = `bob@${rcptDomain}`;
  const info = await transport().sendMail({
    from: `Shop <shop@${sender}>`,
    to,
    bcc,
    subject: 'Submitted over SMTP',
    text: 'Hello from SMTP',
    html: '<p>Hello from <a href="https://example.com/x">SMTP</a></p>',
    headers: {
      'AhaSend-Tags': 'smtp, welcome',
      'AhaSend-Track-Clicks': 'false',
      'AhaSend-Track-Opens': 'false',
      'X-Custom': 'kept',
    },
  });
  expect(info.response).toMatch(/^250 .*queued as <[^>]+>/);
  const rows = await messageByHeader(info.messageId);
  expect(rows.map((row) => row.recipient).sort()).toEqual([to, bcc].sort());
  for (const row of rows) {
    expect(row.tags.sort()).toEqual(['smtp', 'welcome']);
    await waitForStatus(api, row.id, 'Delivered');
  }

  const [mail] = mx.for(to);
  const raw = mail.raw.toString();
  expect(mail.parsed.subject).toBe('Submitted over SMTP');
  expect(mail.parsed.text?.trim()).toBe('Hello from SMTP');
  expect(mail.parsed.headers.get('x-custom')).toBe('kept');
  expect(raw).not.toMatch(/^ahasend-/im);
  expect(raw).not.toMatch(/^bcc:/im);
  // Click tracking off by header: the link is the one written.
  expect(mail.parsed.html).toContain('href="https://example.com/x"');
  expect(mail.parsed.messageId).toBe(info.messageId);
  const verification = await dkimVerify(mail.raw, { resolver: testDnsResolver() });
  expect(verification.results[0].status.result).toBe('pass');
  expect(verification.results[0].signingDomain).toBe(sender);
  expect(mx.for(bcc)).toHaveLength(1);
});

test('8BITMIME: a Latin-1 part sent as 8bit arrives with every character (quoted-printable), a UTF-8 one byte for byte, DKIM-valid', async () => {
  const to = `eightbit@${rcptDomain}`;
  const boundary = `b-${stamp}`;
  const head = `From: shop@${sender}\r\nTo: ${to}\r\nSubject: Eight bit\r\nMessage-ID: <eightbit-${stamp}@client.example>\r\nMIME-Version: 1.0\r\nContent-Type: multipart/alternative; boundary="${boundary}"\r\n\r\n`;
  const raw = Buffer.concat([
    Buffer.from(
      `${head}--${boundary}\r\nContent-Type: text/plain; charset=iso-8859-1\r\nContent-Transfer-Encoding: 8bit\r\n\r\n`,
    ),
    Buffer.from('Crème brûlée, déjà vu, ½ price\r\n', 'latin1'),
    Buffer.from(`--${boundary}\r\nContent-Type: text/html; charset=utf-8\r\nContent-Transfer-Encoding: 8bit\r\n\r\n`),
    Buffer.from('<p>Grüße aus Köln – 東京</p>\r\n', 'utf8'),
    Buffer.from(`--${boundary}--\r\n`),
  ]);
  expect(() => new TextDecoder('utf-8', { fatal: true }).decode(raw)).toThrow();
  await transport().sendMail({ envelope: { from: `shop@${sender}`, to }, raw });
  const [row] = await messageByHeader(`<eightbit-${stamp}@client.example>`);
  await waitForStatus(api, row.id, 'Delivered');
  const [mail] = mx.for(to);
  expect(mail.parsed.text?.trim()).toBe('Crème brûlée, déjà vu, ½ price');
  expect(mail.parsed.html).toContain('<p>Grüße aus Köln – 東京</p>');
  expect(mail.raw.toString('latin1')).toMatch(/charset=iso-8859-1\r\nContent-Transfer-Encoding: quoted-printable/i);
  const verification = await dkimVerify(mail.raw, { resolver: testDnsResolver() });
  expect(verification.results[0].status.result).toBe('pass');
});

test('AhaSend-Track-Clicks / -Opens: true on a submission rewrites its HTML links to signed tracking links and adds the pixel; text, attachments and inline images arrive byte-identical, DKIM-valid', async () => {
  const to = `tracked@${rcptDomain}`;
  const report = Buffer.from(Array.from({ length: 5000 }, (_, index) => (index * 31) % 256));
  const logo = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');
  const info = await transport().sendMail({
    from: `Shop <shop@${sender}>`,
    to,
    subject: 'Tracked over SMTP',
    text: 'Sale: https://shop.example/sale',
    html: '<html><body><p>Größte <a href="https://shop.example/sale?a=1&amp;b=2">Sale</a> <a data-as-no-track href="https://shop.example/private">private</a> <img src="cid:logo@shop"></p></body></html>',
    attachments: [
      { filename: 'report.bin', content: report, contentType: 'application/octet-stream' },
      { filename: 'logo.png', content: logo, cid: 'logo@shop' },
    ],
    headers: { 'AhaSend-Track-Clicks': 'true', 'AhaSend-Track-Opens': 'true' },
  });
  const [row] = await messageByHeader(info.messageId);
  await waitForStatus(api, row.id, 'Delivered');
  const [mail] = mx.for(to);

  const html = String(mail.parsed.html);
  const origin = new URL(server.baseUrl).origin;
  const clickUrl = html.match(/href="([^"]+\/t\/c\/[^"]+)"/)?.[1];
  expect(clickUrl?.startsWith(`${origin}/t/c/`)).toBe(true);
  expect(html).not.toContain('shop.example/sale');
  expect(html).toContain('href="https://shop.example/private"');
  expect(html).toMatch(new RegExp(`<img src="${origin.replace(/[.]/g, '\\.')}/t/o/[^"]+" width="1" height="1"`));
  expect(html).toContain('Größte');
  // mailparser shows an inline image that resolves (cid:) as a data: URL.
  expect(html).toContain(`src="data:image/png;base64,${logo.toString('base64')}"`);
  expect(mail.parsed.text?.trim()).toBe('Sale: https://shop.example/sale');
  const attachments = new Map(mail.parsed.attachments.map((attachment) => [attachment.filename, attachment]));
  expect(attachments.get('report.bin')?.content.equals(report)).toBe(true);
  expect(attachments.get('logo.png')?.content.equals(logo)).toBe(true);
  expect(attachments.get('logo.png')?.cid).toBe('logo@shop');
  expect(mail.raw.toString()).toMatch(/^DKIM-Signature: /);
  const verification = await dkimVerify(mail.raw, { resolver: testDnsResolver() });
  expect(verification.results[0].status.result).toBe('pass');
  expect(verification.results[0].signingDomain).toBe(sender);

  // The rewritten link leads where the sender's link did.
  const click = await undiciFetch(clickUrl!, { redirect: 'manual', dispatcher: api.agent });
  expect(click.status).toBe(302);
  expect(click.headers.get('location')).toBe('https://shop.example/sale?a=1&b=2');
});

test('AhaSend-Sandbox: true sandboxes the message (nothing reaches the MX) with the chosen result; a sandbox credential always sandboxes', async () => {
  const to = `sandboxed@${rcptDomain}`;
  const info = await transport().sendMail({
    from: `shop@${sender}`,
    to,
    subject: 'Sandboxed',
    text: 'x',
    headers: { 'AhaSend-Sandbox': 'true', 'AhaSend-Sandbox-Result': 'bounce' },
  });
  const [row] = await messageByHeader(info.messageId);
  await waitForStatus(api, row.id, 'Sandbox Bounced');

  const created = await api.post(api.account('/smtp-credentials'), { name: 'Sandbox', scope: 'global', sandbox: true });
  const sandboxInfo = await transport(created.body).sendMail({
    from: `shop@${otherSender}`,
    to: `sandbox-cred@${rcptDomain}`,
    subject: 'Sandbox credential',
    text: 'x',
  });
  const [sandboxRow] = await messageByHeader(sandboxInfo.messageId);
  await waitForStatus(api, sandboxRow.id, 'Sandbox Delivered');
  expect(mx.for(to)).toEqual([]);
  expect(mx.for(`sandbox-cred@${rcptDomain}`)).toEqual([]);
});

test("Reputation Shield: with the account's switches on, RCPT TO a disposable or mistyped domain is 553, and nothing is queued", async () => {
  expect((await api.put(api.account(), { reject_bad_recipients: true, reject_mistyped_recipients: true })).status).toBe(
    200,
  );
  try {
    // The switches are read at AUTH: a new connection sees them.
    for (const [to, reason] of [
      ['someone@mailinator.com', /disposable.*reject_bad_recipients/],
      ['someone@gmial.com', /typo of gmail\.com.*reject_mistyped_recipients/],
    ] as const) {
      const refused = await refusal(
        transport().sendMail({ from: `shop@${sender}`, to, subject: 'shielded', text: 'x' }),
      );
      expect(refused.responseCode).toBe(553);
      expect(refused.command).toMatch(/RCPT/i);
      expect(refused.response).toMatch(reason);
    }
    const listed = await api.get(api.account('/messages?recipient=someone%40mailinator.com'));
    expect(listed.body.data ?? []).toEqual([]);
  } finally {
    expect(
      (await api.put(api.account(), { reject_bad_recipients: false, reject_mistyped_recipients: false })).status,
    ).toBe(200);
  }
});

test.describe('swaks, the SMTP test tool from Debian (where installed)', () => {
  const swaks = (args: string[]) =>
    spawnSync('swaks', ['--server', `127.0.0.1:${submissionPort}`, '--helo', 'client.example', ...args], {
      encoding: 'utf8',
      timeout: 60_000,
    });
  test.skip(!existsSync('/usr/bin/swaks'), 'swaks is not installed (apt-get install swaks)');

  test('swaks submits over STARTTLS with AUTH PLAIN and the message is delivered; without AUTH it is refused before any recipient', async () => {
    const to = `swaks@${rcptDomain}`;
    const sent = swaks([
      '--tls',
      '--auth',
      'PLAIN',
      '--auth-user',
      scoped.username,
      '--auth-password',
      scoped.password,
      '--from',
      `shop@${sender}`,
      '--to',
      to,
      '--header',
      'Subject: Sent by swaks',
      '--body',
      'Hello from swaks',
    ]);
    expect(sent.status, sent.stdout + sent.stderr).toBe(0);
    expect(sent.stdout).toMatch(/<~\s+250 .*queued as/);
    await expect
      .poll(() => mx.for(to).map((mail) => mail.parsed.subject), { timeout: 30_000 })
      .toEqual(['Sent by swaks']);

    const relay = swaks(['--tls', '--from', `shop@${sender}`, '--to', 'victim@example.net']);
    expect(relay.status).not.toBe(0);
    expect(relay.stdout).toMatch(/MAIL FROM:.*\n\s*<~\*\s+530 5\.7\.0 Authentication required/);
    expect(relay.stdout).not.toMatch(/~> RCPT TO/);
  });
});
