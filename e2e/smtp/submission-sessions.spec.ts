import net from 'node:net';
import tls from 'node:tls';
import { expect, test } from '@playwright/test';
import nodemailer from 'nodemailer';
import SMTPConnection from 'nodemailer/lib/smtp-connection';
import { createAccountWithKey, runCli } from '../support/cli';
import { ApiClient } from '../support/client';
import type { TestMx } from '../support/mx-server';
import { waitForStatus } from '../support/sending';
import type { ServerHandle } from '../support/server';
import { refusal, startSubmissionSuite, type SubmissionSuite } from '../support/submission-suite';

/**
 * The SMTP submission session (the smtp role) on a server of its own: nothing is accepted without
 * AUTH (no open relay), the size and recipient limits, a credential's rate limit and a suspended
 * account, and the implicit TLS port (RFC 8314). The mail a submission delivers is in
 * submission.spec.ts.
 */
let suite: SubmissionSuite;
let server: ServerHandle;
let mx: TestMx;
let api: ApiClient;
let submissionPort: number;
let submissionTlsPort: number;
let ca: string;
let sender: string;
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
  ({ server, mx, api, submissionPort, submissionTlsPort, ca, sender, scoped, transport, messageByHeader } = suite);
});

test.afterAll(async () => {
  await suite?.stop();
});

test('no open relay: without AUTH, MAIL and RCPT are 530 for any recipient, even after STARTTLS', async () => {
  const connection = new SMTPConnection({
    host: '127.0.0.1',
    port: submissionPort,
    secure: false,
    requireTLS: true,
    tls: { ca, servername: 'localhost' },
  });
  await new Promise<void>((resolve, reject) =>
    connection.connect((error?: Error) => (error ? reject(error) : resolve())),
  );
  const sent = await new Promise<unknown>((resolve) =>
    connection.send(
      { from: 'anyone@example.org', to: [`victim@${rcptDomain}`, 'victim@example.net'] },
      'Subject: relay\r\n\r\nrelay',
      (error, info) => resolve(error ?? info),
    ),
  );
  expect((sent as { responseCode?: number }).responseCode).toBe(530);
  connection.close();

  // Spoken by hand, without TLS: every command of a transaction is refused, RCPT included.
  const replies = await converse([
    'EHLO relay.example',
    'MAIL FROM:<anyone@example.org>',
    `RCPT TO:<victim@${rcptDomain}>`,
    'RCPT TO:<victim@example.net>',
    'DATA',
    'QUIT',
  ]);
  expect(replies.slice(1, 5).map((reply) => reply.slice(0, 3))).toEqual(['530', '530', '530', '530']);
  expect(mx.for(`victim@${rcptDomain}`)).toEqual([]);
});

/** Sends each line after the previous reply; returns the replies, each whole (the greeting dropped). */
async function converse(
  lines: string[],
  socket: net.Socket = net.connect(submissionPort, '127.0.0.1'),
): Promise<string[]> {
  const replies: string[] = [];
  let buffer = '';
  let waiting: ((reply: string) => void) | null = null;
  socket.on('data', (data) => {
    buffer += data.toString();
    // A reply ends with a line whose code is followed by a space.
    const match = /(^|\r\n)(\d{3}) [^\r\n]*\r\n$/.exec(buffer);
    if (match && waiting) {
      const reply = buffer.trimEnd();
      buffer = '';
      const resolve = waiting;
      waiting = null;
      resolve(reply);
    }
  });
  const next = () => new Promise<string>((resolve) => (waiting = resolve));
  await next();
  for (const line of lines) {
    const reply = next();
    socket.write(line + '\r\n');
    replies.push(await reply);
  }
  socket.destroy();
  return replies;
}

test('limits: a message over 20 MB is 552; more than 50 recipients are refused after the 50th', async () => {
  const to = `big@${rcptDomain}`;
  const big = await refusal(
    transport().sendMail({ from: `shop@${sender}`, to, subject: 'big', text: 'x'.repeat(21 * 1024 * 1024) }),
  );
  expect(big.responseCode).toBe(552);

  const many = Array.from({ length: 51 }, (_, index) => `r${index}@${rcptDomain}`);
  // The 51st RCPT is refused (452, try again later); the other 50 go (sandboxed, so nothing is delivered).
  const info = await transport().sendMail({
    from: `shop@${sender}`,
    to: many,
    subject: 'many',
    text: 'x',
    headers: { 'AhaSend-Sandbox': '1' },
  });
  expect(info.accepted).toHaveLength(50);
  expect(info.rejected).toEqual([many[50]]);
  expect((info.rejectedErrors?.[0] as { responseCode?: number } | undefined)?.responseCode).toBe(452);
  expect(await messageByHeader(info.messageId)).toHaveLength(50);
  expect(mx.for(to)).toEqual([]);
});

test('a credential over its rate limit gets 451 at MAIL FROM; a suspended account cannot sign in (521)', async () => {
  const created = (await api.post(api.account('/smtp-credentials'), { name: 'Busy', scope: 'global', sandbox: true }))
    .body;
  const pooled = transport(created, { pool: true, maxConnections: 1, maxMessages: Infinity });
  const outcomes: (number | 'ok')[] = [];
  // The bucket refills one a second: on a busy machine 26 sends can take long enough to be refilled,
  // so sending goes on until the limit answers (80 at most).
  for (let index = 0; index < 80 && !outcomes.includes(451); index++) {
    outcomes.push(
      await pooled
        .sendMail({ from: `shop@${sender}`, to: `busy@${rcptDomain}`, subject: `busy ${index}`, text: 'x' })
        .then(
          () => 'ok' as const,
          (error: { responseCode?: number }) => error.responseCode ?? -1,
        ),
    );
  }
  pooled.close();
  expect(outcomes.slice(0, 20)).toEqual(Array(20).fill('ok'));
  expect(outcomes).toContain(451);

  const stranger = await createAccountWithKey(server.env, 'Suspended submitter');
  const strangerApi = new ApiClient(server.baseUrl, server.dataDir, stranger.apiKey, stranger.accountId);
  const credential = (
    await strangerApi.post(strangerApi.account('/smtp-credentials'), { name: 'Soon suspended', scope: 'global' })
  ).body;
  expect((await runCli(['accounts', 'suspend', stranger.accountId, '--reason', 'test'], server.env)).code).toBe(0);
  const refused = await refusal(
    transport(credential).sendMail({ from: 'x@example.org', to: `s@${rcptDomain}`, subject: 'x', text: 'x' }),
  );
  expect(refused.responseCode).toBe(521);
});

test('implicit TLS port: nodemailer with secure: true submits with a credential, and the message is queued and delivered', async () => {
  const to = `smtps@${rcptDomain}`;
  const smtps = nodemailer.createTransport({
    host: '127.0.0.1',
    port: submissionTlsPort,
    secure: true,
    tls: { ca, servername: 'localhost' },
    auth: { user: scoped.username, pass: scoped.password },
  });
  const info = await smtps.sendMail({
    from: `shop@${sender}`,
    to,
    subject: 'Submitted over SMTPS',
    text: 'Hello from port 465',
  });
  expect(info.response).toMatch(/^250 .*queued as <[^>]+>/);
  const [row] = await messageByHeader(info.messageId);
  expect(row.recipient).toBe(to);
  await waitForStatus(api, row.id, 'Delivered');
  expect(mx.for(to).map((mail) => mail.parsed.subject)).toEqual(['Submitted over SMTPS']);
});

test('implicit TLS port: EHLO offers AUTH and no STARTTLS, and AUTH PLAIN succeeds at once', async () => {
  const socket = tls.connect({ host: '127.0.0.1', port: submissionTlsPort, ca, servername: 'localhost' });
  const plain = Buffer.from(`\0${scoped.username}\0${scoped.password}`).toString('base64');
  const [ehlo, auth] = await converse(['EHLO client.example', `AUTH PLAIN ${plain}`, 'QUIT'], socket);
  expect(ehlo).toMatch(/^250-/);
  expect(ehlo).toMatch(/AUTH PLAIN LOGIN/);
  expect(ehlo).not.toMatch(/STARTTLS/);
  expect(auth).toMatch(/^235 /);
});

test('implicit TLS port: a plain-text client gets no greeting and is disconnected', async () => {
  const socket = net.connect(submissionTlsPort, '127.0.0.1');
  let received = '';
  socket.on('data', (data) => (received += data.toString('latin1')));
  socket.on('error', () => {});
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  socket.write('EHLO plain.example\r\n');
  await closed;
  expect(received).not.toMatch(/^220/m);
  expect(received).not.toMatch(/^250/m);
});
