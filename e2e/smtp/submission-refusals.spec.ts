import { expect, test } from '@playwright/test';
import { dkimVerify } from 'mailauth/lib/dkim/verify.js';
import type { ApiClient } from '../support/client';
import type { TestMx } from '../support/mx-server';
import { testDnsResolver } from '../support/sending';
import { refusal, startSubmissionSuite, type SubmissionSuite } from '../support/submission-suite';

/**
 * What SMTP submission refuses, with the contract's codes, on a server of its own: senders outside
 * the credential or the account (556), a second From or Sender (550 5.6.0), a bad password (535),
 * AUTH before STARTTLS (538), and guessing passwords (454 4.7.0 after 10 failures).
 */
let suite: SubmissionSuite;
let mx: TestMx;
let api: ApiClient;
let sender: string;
let otherSender: string;
let scoped: { username: string; password: string };
let transport: SubmissionSuite['transport'];
const stamp = Date.now().toString(36);
const rcptDomain = `subref-rcpt-${stamp}.example`;

test.beforeAll(async () => {
  suite = await startSubmissionSuite({
    name: 'SMTP refusals',
    sender: `subref-${stamp}.example.com`,
    otherSender: `subref-other-${stamp}.example.com`,
    recipientDomain: rcptDomain,
  });
  ({ mx, api, sender, otherSender, scoped, transport } = suite);
});

test.afterAll(async () => {
  await suite?.stop();
});

test('refusals: a From or MAIL FROM domain outside the scope is 556, a domain not of the account 556, a bad password 535, AUTH before STARTTLS 538', async () => {
  const to = `refused@${rcptDomain}`;
  const wrongFrom = await refusal(
    transport().sendMail({
      envelope: { from: `shop@${sender}`, to },
      from: `shop@${otherSender}`,
      to,
      subject: 'x',
      text: 'x',
    }),
  );
  expect(wrongFrom.responseCode).toBe(556);
  const wrongEnvelope = await refusal(
    transport().sendMail({
      envelope: { from: `bounce@${otherSender}`, to },
      from: `shop@${sender}`,
      to,
      subject: 'x',
      text: 'x',
    }),
  );
  expect(wrongEnvelope.responseCode).toBe(556);
  expect(wrongEnvelope.command).toMatch(/MAIL/i);

  const global = (await api.post(api.account('/smtp-credentials'), { name: 'Global', scope: 'global' })).body;
  const notOurs = await refusal(
    transport(global).sendMail({ from: 'someone@not-ours.example', to, subject: 'x', text: 'x' }),
  );
  expect(notOurs.responseCode).toBe(556);
  expect(notOurs.response).toMatch(/not a domain of this account/);

  const badPassword = await refusal(
    transport({ username: scoped.username, password: 'wrong-password' }).sendMail({
      from: `shop@${sender}`,
      to,
      subject: 'x',
      text: 'x',
    }),
  );
  expect(badPassword.responseCode).toBe(535);

  const noTls = await refusal(
    transport(scoped, { requireTLS: false, ignoreTLS: true }).sendMail({
      from: `shop@${sender}`,
      to,
      subject: 'x',
      text: 'x',
    }),
  );
  expect(noTls.responseCode).toBe(538);
  expect(noTls.response).toMatch(/STARTTLS/);
  expect(mx.for(to)).toEqual([]);
});

/** A message as a client writes it, with the given sender header lines. */
const rawWith = (senderLines: string, to: string, subject: string) =>
  `${senderLines}\r\nTo: ${to}\r\nSubject: ${subject}\r\nMessage-ID: <${subject.replace(/\W+/g, '-')}-${stamp}@client.example>\r\n\r\nHello\r\n`;

test('sender headers: a second From (any case, spacing or folding) is 550 5.6.0; every From and Sender mailbox outside the credential is 556 5.7.1', async () => {
  const to = `spoofed@${rcptDomain}`;
  const own = `shop@${sender}`;
  const foreign = `ceo@${otherSender}`;
  const encoded = (text: string) => `=?utf-8?B?${Buffer.from(text).toString('base64')}?=`;
  // Its own credential, so that these sends leave the shared one's rate limit to the other tests.
  const scopedToSender = (
    await api.post(api.account('/smtp-credentials'), { name: 'Sender headers', scope: 'scoped', domains: [sender] })
  ).body;
  const cases: [string, string, number, RegExp][] = [
    ['a second From', `From: ${own}\r\nFrom: ${foreign}`, 550, /^550 5\.6\.0 .*2 From header fields/],
    ['a second from in lower case', `From: ${own}\r\nfrom: ${foreign}`, 550, /^550 5\.6\.0 .*2 From header fields/],
    [
      'a second From with a space before the colon',
      `From: ${own}\r\nFrom : ${foreign}`,
      550,
      /^550 5\.6\.0 .*2 From header fields/,
    ],
    ['a second From, folded', `From: ${own}\r\nFROM:\r\n\t${foreign}`, 550, /^550 5\.6\.0 .*2 From header fields/],
    ['a second mailbox in From', `From: ${own}, ${foreign}`, 556, /^556 5\.7\.1 /],
    ['a group in From', `From: Staff: ${own}, ${foreign};`, 556, /^556 5\.7\.1 /],
    [
      'encoded-word display names on two mailboxes',
      `From: ${encoded('Shop')} <${own}>, ${encoded('The CEO')} <${foreign}>`,
      556,
      /^556 5\.7\.1 /,
    ],
    [
      'an encoded word hiding the address',
      `From: ${encoded(`CEO <${foreign}>`)}`,
      550,
      /^550 5\.6\.0 .*without an address/,
    ],
    ['a foreign Sender', `From: ${own}\r\nSender: ${foreign}`, 556, /^556 5\.7\.1 /],
  ];
  for (const [name, lines, code, reply] of cases) {
    const refused = await refusal(
      transport(scopedToSender).sendMail({ envelope: { from: own, to: [to] }, raw: rawWith(lines, to, name) }),
    );
    expect.soft(refused.responseCode, name).toBe(code);
    expect.soft(refused.response, name).toMatch(reply);
  }

  // A global credential may send from any of the account's domains, never from another's.
  const global = (await api.post(api.account('/smtp-credentials'), { name: 'Global senders', scope: 'global' })).body;
  const notOurs = await refusal(
    transport(global).sendMail({
      envelope: { from: own, to: [to] },
      raw: rawWith(`From: ${own}, ceo@bank.example`, to, 'not ours'),
    }),
  );
  expect(notOurs.responseCode).toBe(556);
  expect(notOurs.response).toMatch(/bank\.example is not a domain of this account/);
  const notOursSender = await refusal(
    transport(global).sendMail({
      envelope: { from: own, to: [to] },
      raw: rawWith(`From: ${own}\r\nSender: ceo@bank.example`, to, 'not ours sender'),
    }),
  );
  expect(notOursSender.responseCode).toBe(556);
  expect(mx.for(to)).toEqual([]);

  // One From with the credential's mailboxes, and a Sender of its own, is still accepted and delivered.
  const fine = `fine@${rcptDomain}`;
  const info = await transport(scopedToSender).sendMail({
    envelope: { from: own, to: [fine] },
    raw: rawWith(
      `From: ${encoded('Shop')} <${own}>, Desk <desk@${sender}>\r\nSender: ${own}`,
      fine,
      'two authors of ours',
    ),
  });
  expect(info.response).toMatch(/^250 /);
  await expect.poll(() => mx.for(fine).length, { timeout: 30_000 }).toBe(1);
  expect(mx.for(fine)[0].parsed.from?.value.map((mailbox) => mailbox.address)).toEqual([own, `desk@${sender}`]);
  const verification = await dkimVerify(mx.for(fine)[0].raw, { resolver: testDnsResolver() });
  expect(verification.results[0].status.result).toBe('pass');
});

test('AUTH: after 10 failed passwords for a credential, or from one address, even the right password is 454 4.7.0; other credentials and addresses are unaffected', async () => {
  const victim = (await api.post(api.account('/smtp-credentials'), { name: 'Guessed', scope: 'global', sandbox: true }))
    .body;
  const bystander = (
    await api.post(api.account('/smtp-credentials'), { name: 'Bystander', scope: 'global', sandbox: true })
  ).body;
  // Other loopback addresses stand for other clients.
  const signIn = async (auth: { username: string; password: string }, localAddress: string) =>
    transport(auth, { localAddress })
      .verify()
      .then(
        () => 235,
        (error: { responseCode?: number }) => error.responseCode ?? -1,
      );
  const wrong = { username: victim.username, password: 'guessed-password' };
  const attempts: number[] = [];
  for (let index = 0; index < 12; index++) attempts.push(await signIn(wrong, '127.0.0.2'));
  expect(attempts).toEqual([...Array(10).fill(535), 454, 454]);

  const locked = await refusal(transport(victim, { localAddress: '127.0.0.2' }).verify());
  expect(locked.responseCode).toBe(454);
  expect(locked.response).toMatch(/^454 4\.7\.0 Too many failed authentication attempts/);
  // The credential is locked from any address; the address for any credential.
  expect(await signIn(victim, '127.0.0.3')).toBe(454);
  expect(await signIn(bystander, '127.0.0.2')).toBe(454);
  expect(await signIn(bystander, '127.0.0.3')).toBe(235);
  expect(await signIn(scoped, '127.0.0.1')).toBe(235);
});
