import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import tls from 'node:tls';
import { expect, test } from '@playwright/test';
import { dkimVerify } from 'mailauth/lib/dkim/verify.js';
import nodemailer from 'nodemailer';
import SMTPConnection from 'nodemailer/lib/smtp-connection';
import { createAccountWithKey, runCli } from '../support/cli';
import { ApiClient } from '../support/client';
import { TestMx } from '../support/mx-server';
import { createScratchDatabase, postgresAdminUrl } from '../support/postgres';
import { routeDomainToLoopback, testDnsResolver, verifiedDomain, waitForStatus } from '../support/sending';
import { freePort, startServer, type ServerHandle } from '../support/server';

/**
 * SMTP submission (the smtp role) with its own server: nodemailer submits over STARTTLS (and implicit
 * TLS on the second port) with a scoped credential and the mail reaches a loopback MX DKIM-valid, its AhaSend-* headers honoured
 * and stripped; every refusal has the contract's code; nothing is accepted without AUTH.
 */
let server: ServerHandle;
let mx: TestMx;
let api: ApiClient;
let submissionPort: number;
let submissionTlsPort: number;
let ca: string;
let sender: string;
let otherSender: string;
let scoped: { username: string; password: string };
let dropDatabase: (() => Promise<void>) | null = null;
const stamp = Date.now().toString(36);
const rcptDomain = `sub-rcpt-${stamp}.example`;

test.beforeAll(async () => {
  mx = await new TestMx().start();
  submissionPort = await freePort();
  submissionTlsPort = await freePort();
  const env: Record<string, string> = {
    ROLES: 'web,worker,smtp',
    SMTP_SUBMISSION_PORT: String(submissionPort),
    SMTP_SUBMISSION_TLS_PORT: String(submissionTlsPort),
    ALLOW_PRIVATE_NETWORKS: 'true',
    SMTP_DELIVERY_PORT: String(mx.port),
    DELIVERY_POLL_MS: '100',
    DNS_CHECK_CACHE_SECONDS: '0',
    // Small enough to reach in a test, large enough for the other tests' few messages per credential.
    SMTP_RATE_LIMIT_PER_SECOND: '1',
    SMTP_RATE_LIMIT_BURST: '20',
  };
  const adminUrl = postgresAdminUrl();
  if (adminUrl) {
    const scratch = await createScratchDatabase(adminUrl, 'mailstead_sub');
    dropDatabase = scratch.drop;
    Object.assign(env, { DATABASE_URL: scratch.url, MAILSTEAD_SECRET: `submission-secret-${stamp}-0000000000000000` });
  }
  server = await startServer({ env });
  ca = readFileSync(path.join(server.dataDir, 'tls', 'cert.pem'), 'utf8');
  const account = await createAccountWithKey(server.env, 'SMTP submitter');
  api = new ApiClient(server.baseUrl, server.dataDir, account.apiKey, account.accountId);
  sender = `sub-${stamp}.example.com`;
  otherSender = `sub-other-${stamp}.example.com`;
  await verifiedDomain(api, sender);
  await verifiedDomain(api, otherSender);
  await routeDomainToLoopback(rcptDomain);
  const created = await api.post(api.account('/smtp-credentials'), { name: 'Scoped', scope: 'scoped', domains: [sender] });
  expect(created.status).toBe(201);
  scoped = { username: created.body.username, password: created.body.password };
});

test.afterAll(async () => {
  await server?.stop();
  await mx?.stop();
  await dropDatabase?.();
});

/** nodemailer as an application would use it: STARTTLS required, our certificate trusted. */
function transport(auth = scoped, extra: Record<string, unknown> = {}) {
  return nodemailer.createTransport({ host: '127.0.0.1', port: submissionPort, secure: false, requireTLS: true, tls: { ca, servername: 'localhost' }, auth: { user: auth.username, pass: auth.password }, ...extra });
}

async function messageByHeader(messageIdHeader: string) {
  const listed = await api.get(api.account(`/messages?message_id_header=${encodeURIComponent(messageIdHeader)}`));
  expect(listed.status).toBe(200);
  return listed.body.data as { id: string; recipient: string; tags: string[]; status: string }[];
}

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
    headers: { 'AhaSend-Tags': 'smtp, welcome', 'AhaSend-Track-Clicks': 'false', 'AhaSend-Track-Opens': 'false', 'X-Custom': 'kept' },
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

test('AhaSend-Sandbox: true sandboxes the message (nothing reaches the MX) with the chosen result; a sandbox credential always sandboxes', async () => {
  const to = `sandboxed@${rcptDomain}`;
  const info = await transport().sendMail({ from: `shop@${sender}`, to, subject: 'Sandboxed', text: 'x', headers: { 'AhaSend-Sandbox': 'true', 'AhaSend-Sandbox-Result': 'bounce' } });
  const [row] = await messageByHeader(info.messageId);
  await waitForStatus(api, row.id, 'Sandbox Bounced');

  const created = await api.post(api.account('/smtp-credentials'), { name: 'Sandbox', scope: 'global', sandbox: true });
  const sandboxInfo = await transport(created.body).sendMail({ from: `shop@${otherSender}`, to: `sandbox-cred@${rcptDomain}`, subject: 'Sandbox credential', text: 'x' });
  const [sandboxRow] = await messageByHeader(sandboxInfo.messageId);
  await waitForStatus(api, sandboxRow.id, 'Sandbox Delivered');
  expect(mx.for(to)).toEqual([]);
  expect(mx.for(`sandbox-cred@${rcptDomain}`)).toEqual([]);
});

/** The reply to a refused send, as nodemailer reports it. */
async function refusal(send: Promise<unknown>): Promise<{ responseCode?: number; response?: string; command?: string }> {
  const error = await send.then(
    () => null,
    (caught: unknown) => caught as { responseCode?: number; response?: string; command?: string },
  );
  expect(error, 'the send was accepted').not.toBeNull();
  return error!;
}

test('refusals: a From or MAIL FROM domain outside the scope is 556, a domain not of the account 556, a bad password 535, AUTH before STARTTLS 538', async () => {
  const to = `refused@${rcptDomain}`;
  const wrongFrom = await refusal(transport().sendMail({ envelope: { from: `shop@${sender}`, to }, from: `shop@${otherSender}`, to, subject: 'x', text: 'x' }));
  expect(wrongFrom.responseCode).toBe(556);
  const wrongEnvelope = await refusal(transport().sendMail({ envelope: { from: `bounce@${otherSender}`, to }, from: `shop@${sender}`, to, subject: 'x', text: 'x' }));
  expect(wrongEnvelope.responseCode).toBe(556);
  expect(wrongEnvelope.command).toMatch(/MAIL/i);

  const global = (await api.post(api.account('/smtp-credentials'), { name: 'Global', scope: 'global' })).body;
  const notOurs = await refusal(transport(global).sendMail({ from: 'someone@not-ours.example', to, subject: 'x', text: 'x' }));
  expect(notOurs.responseCode).toBe(556);
  expect(notOurs.response).toMatch(/not a domain of this account/);

  const badPassword = await refusal(transport({ username: scoped.username, password: 'wrong-password' }).sendMail({ from: `shop@${sender}`, to, subject: 'x', text: 'x' }));
  expect(badPassword.responseCode).toBe(535);

  const noTls = await refusal(transport(scoped, { requireTLS: false, ignoreTLS: true }).sendMail({ from: `shop@${sender}`, to, subject: 'x', text: 'x' }));
  expect(noTls.responseCode).toBe(538);
  expect(noTls.response).toMatch(/STARTTLS/);
  expect(mx.for(to)).toEqual([]);
});

test("Reputation Shield: with the account's switches on, RCPT TO a disposable or mistyped domain is 553, and nothing is queued", async () => {
  expect((await api.put(api.account(), { reject_bad_recipients: true, reject_mistyped_recipients: true })).status).toBe(200);
  try {
    // The switches are read at AUTH: a new connection sees them.
    for (const [to, reason] of [
      ['someone@mailinator.com', /disposable.*reject_bad_recipients/],
      ['someone@gmial.com', /typo of gmail\.com.*reject_mistyped_recipients/],
    ] as const) {
      const refused = await refusal(transport().sendMail({ from: `shop@${sender}`, to, subject: 'shielded', text: 'x' }));
      expect(refused.responseCode).toBe(553);
      expect(refused.command).toMatch(/RCPT/i);
      expect(refused.response).toMatch(reason);
    }
    const listed = await api.get(api.account('/messages?recipient=someone%40mailinator.com'));
    expect(listed.body.data ?? []).toEqual([]);
  } finally {
    expect((await api.put(api.account(), { reject_bad_recipients: false, reject_mistyped_recipients: false })).status).toBe(200);
  }
});

test('no open relay: without AUTH, MAIL and RCPT are 530 for any recipient, even after STARTTLS', async () => {
  const connection = new SMTPConnection({ host: '127.0.0.1', port: submissionPort, secure: false, requireTLS: true, tls: { ca, servername: 'localhost' } });
  await new Promise<void>((resolve, reject) => connection.connect((error?: Error) => (error ? reject(error) : resolve())));
  const sent = await new Promise<unknown>((resolve) =>
    connection.send({ from: 'anyone@example.org', to: [`victim@${rcptDomain}`, 'victim@example.net'] }, 'Subject: relay\r\n\r\nrelay', (error, info) => resolve(error ?? info)),
  );
  expect((sent as { responseCode?: number }).responseCode).toBe(530);
  connection.close();

  // Spoken by hand, without TLS: every command of a transaction is refused, RCPT included.
  const replies = await converse(['EHLO relay.example', 'MAIL FROM:<anyone@example.org>', `RCPT TO:<victim@${rcptDomain}>`, 'RCPT TO:<victim@example.net>', 'DATA', 'QUIT']);
  expect(replies.slice(1, 5).map((reply) => reply.slice(0, 3))).toEqual(['530', '530', '530', '530']);
  expect(mx.for(`victim@${rcptDomain}`)).toEqual([]);
});

/** Sends each line after the previous reply; returns the replies, each whole (the greeting dropped). */
async function converse(lines: string[], socket: net.Socket = net.connect(submissionPort, '127.0.0.1')): Promise<string[]> {
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
  const big = await refusal(transport().sendMail({ from: `shop@${sender}`, to, subject: 'big', text: 'x'.repeat(21 * 1024 * 1024) }));
  expect(big.responseCode).toBe(552);

  const many = Array.from({ length: 51 }, (_, index) => `r${index}@${rcptDomain}`);
  // The 51st RCPT is refused (452, try again later); the other 50 go (sandboxed, so nothing is delivered).
  const info = await transport().sendMail({ from: `shop@${sender}`, to: many, subject: 'many', text: 'x', headers: { 'AhaSend-Sandbox': '1' } });
  expect(info.accepted).toHaveLength(50);
  expect(info.rejected).toEqual([many[50]]);
  expect((info.rejectedErrors?.[0] as { responseCode?: number } | undefined)?.responseCode).toBe(452);
  expect(await messageByHeader(info.messageId)).toHaveLength(50);
  expect(mx.for(to)).toEqual([]);
});

test('a credential over its rate limit gets 451 at MAIL FROM; a suspended account cannot sign in (521)', async () => {
  const created = (await api.post(api.account('/smtp-credentials'), { name: 'Busy', scope: 'global', sandbox: true })).body;
  const pooled = transport(created, { pool: true, maxConnections: 1, maxMessages: Infinity });
  const outcomes: (number | 'ok')[] = [];
  for (let index = 0; index < 26; index++) {
    outcomes.push(await pooled.sendMail({ from: `shop@${sender}`, to: `busy@${rcptDomain}`, subject: `busy ${index}`, text: 'x' }).then(() => 'ok' as const, (error: { responseCode?: number }) => error.responseCode ?? -1));
  }
  pooled.close();
  expect(outcomes.slice(0, 20)).toEqual(Array(20).fill('ok'));
  expect(outcomes).toContain(451);

  const stranger = await createAccountWithKey(server.env, 'Suspended submitter');
  const strangerApi = new ApiClient(server.baseUrl, server.dataDir, stranger.apiKey, stranger.accountId);
  const credential = (await strangerApi.post(strangerApi.account('/smtp-credentials'), { name: 'Soon suspended', scope: 'global' })).body;
  expect((await runCli(['accounts', 'suspend', stranger.accountId, '--reason', 'test'], server.env)).code).toBe(0);
  const refused = await refusal(transport(credential).sendMail({ from: 'x@example.org', to: `s@${rcptDomain}`, subject: 'x', text: 'x' }));
  expect(refused.responseCode).toBe(521);
});

test('implicit TLS port: nodemailer with secure: true submits with a credential, and the message is queued and delivered', async () => {
  const to = `smtps@${rcptDomain}`;
  const smtps = nodemailer.createTransport({ host: '127.0.0.1', port: submissionTlsPort, secure: true, tls: { ca, servername: 'localhost' }, auth: { user: scoped.username, pass: scoped.password } });
  const info = await smtps.sendMail({ from: `shop@${sender}`, to, subject: 'Submitted over SMTPS', text: 'Hello from port 465' });
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

test.describe('swaks, the SMTP test tool from Debian (where installed)', () => {
  const swaks = (args: string[]) => spawnSync('swaks', ['--server', `127.0.0.1:${submissionPort}`, '--helo', 'client.example', ...args], { encoding: 'utf8', timeout: 60_000 });
  test.skip(!existsSync('/usr/bin/swaks'), 'swaks is not installed (apt-get install swaks)');

  test('swaks submits over STARTTLS with AUTH PLAIN and the message is delivered; without AUTH it is refused before any recipient', async () => {
    const to = `swaks@${rcptDomain}`;
    const sent = swaks(['--tls', '--auth', 'PLAIN', '--auth-user', scoped.username, '--auth-password', scoped.password, '--from', `shop@${sender}`, '--to', to, '--header', 'Subject: Sent by swaks', '--body', 'Hello from swaks']);
    expect(sent.status, sent.stdout + sent.stderr).toBe(0);
    expect(sent.stdout).toMatch(/<~\s+250 .*queued as/);
    await expect.poll(() => mx.for(to).map((mail) => mail.parsed.subject), { timeout: 30_000 }).toEqual(['Sent by swaks']);

    const relay = swaks(['--tls', '--from', `shop@${sender}`, '--to', 'victim@example.net']);
    expect(relay.status).not.toBe(0);
    expect(relay.stdout).toMatch(/MAIL FROM:.*\n\s*<~\*\s+530 5\.7\.0 Authentication required/);
    expect(relay.stdout).not.toMatch(/~> RCPT TO/);
  });
});
