import { expect, test } from '@playwright/test';
import nodemailer from 'nodemailer';
import { fixture } from '../../tests/lib/core/inbound/report-fixtures';
import type { ApiClient } from '../support/client';
import { startMxSuite, type MxSuite } from '../support/mx-suite';
import { waitForStatus } from '../support/sending';
import { freePort } from '../support/server';
import { WebhookReceiver, hasValidSignature } from '../support/webhook-receiver';

/**
 * Mail that comes back: a delivered message's bounce (a DSN, RFC 3464) and a complaint (ARF, RFC
 * 5965) sent by an SMTP client to our MX at the envelope sender the message left with
 * (`bounces+TOKEN@rp.<domain>`) change that message, its suppressions and its webhooks; a report
 * naming another message's token, or none we issued, changes nothing.
 */
const stamp = Date.now().toString(36);
const sender = `rp-${stamp}.example.com`;
const recipientDomain = `rp-inbox-${stamp}.example.net`;
let suite: MxSuite;
let api: ApiClient;
let mxPort: number;
let hooks: WebhookReceiver;
let hookSecret: string;

test.beforeAll(async () => {
  mxPort = await freePort();
  suite = await startMxSuite({
    name: 'Return path',
    sender,
    recipientDomain,
    env: { ROLES: 'web,worker,mx', MX_PORT: String(mxPort) },
  });
  api = suite.api;
  hooks = await new WebhookReceiver().start();
  const webhook = await api.post(api.account('/webhooks'), {
    name: 'Bounces',
    url: hooks.url('/events'),
    scope: 'global',
    on_bounced: true,
    on_complained: true,
  });
  expect(webhook.status, webhook.text).toBe(201);
  hookSecret = webhook.body.secret;
});
test.afterAll(async () => {
  await hooks?.stop();
  await suite?.stop();
});

/** Sends one message through the API and waits until the loopback MX has it; returns its id and the envelope sender it left with. */
async function deliveredMessage(local: string) {
  const to = `${local}@${recipientDomain}`;
  const sent = await api.post(api.account('/messages'), {
    from: { email: `news@${sender}` },
    recipients: [{ email: to }],
    subject: `For ${local}`,
    text_content: 'Hello',
  });
  expect(sent.status, sent.text).toBe(202);
  const id: string = sent.body.data[0].id;
  await waitForStatus(api, id, 'Delivered');
  const [arrived] = suite.mx.for(to);
  expect(arrived.from).toMatch(new RegExp(`^bounces\\+[0-9a-f]+@rp\\.${sender.replace(/\./g, '\\.')}$`));
  const messageId = String(arrived.parsed.messageId);
  return {
    id,
    to,
    returnPath: arrived.from,
    token: arrived.from.slice('bounces+'.length, arrived.from.indexOf('@')),
    messageId,
  };
}

/** What a remote MTA does: MAIL FROM:<> and the report as DATA, to our MX. */
async function report(envelopeTo: string, raw: Buffer) {
  const client = nodemailer.createTransport({ host: '127.0.0.1', port: mxPort, secure: false, ignoreTLS: true });
  const info = await client.sendMail({ envelope: { from: '', to: [envelopeTo] }, raw });
  client.close();
  return info.response;
}

const suppressionsOf = async (email: string) =>
  (await api.get(api.account(`/suppressions?email=${encodeURIComponent(email)}`))).body.data as {
    domain: string | null;
    reason: string;
  }[];

test('a DSN from a Postfix MX to the return path bounces the delivered message, suppresses the address and fires message.bounced; sent twice, nothing more', async () => {
  const message = await deliveredMessage(`gone-${stamp}`);
  const dsn = fixture('postfix-hard-bounce.eml', {
    TOKEN: message.token,
    RP_HOST: `rp.${sender}`,
    RECIPIENT: message.to,
    MESSAGE_ID: message.messageId,
  });
  expect(await report(message.returnPath, dsn)).toMatch(/^250 /);
  await waitForStatus(api, message.id, 'Bounced');
  const suppressions = await suppressionsOf(message.to);
  expect(suppressions).toHaveLength(1);
  expect(suppressions[0]).toMatchObject({ domain: sender, reason: expect.stringMatching(/hard bounce/) });
  await expect
    .poll(
      () =>
        hooks
          .to('/events')
          .filter((hook) => hook.json?.type === 'message.bounced' && hook.json.data.recipient === message.to).length,
      { timeout: 20_000 },
    )
    .toBe(1);
  const hook = hooks.to('/events').find((received) => received.json?.type === 'message.bounced')!;
  expect(hasValidSignature(hook, hookSecret)).toBe(true);
  expect(hook.json.data).toMatchObject({ recipient: message.to, from: `news@${sender}` });

  // The MTA retries after a lost 250: the second report changes nothing.
  expect(await report(message.returnPath, dsn)).toMatch(/^250 /);
  await new Promise((resolve) => setTimeout(resolve, 1_500));
  expect(
    hooks
      .to('/events')
      .filter((received) => received.json?.type === 'message.bounced' && received.json.data.recipient === message.to),
  ).toHaveLength(1);
  expect(await suppressionsOf(message.to)).toHaveLength(1);
});

test('an ARF complaint from a mailbox provider marks the message complained: message.complained webhook, a complaint suppression; sent twice, nothing more', async () => {
  const message = await deliveredMessage(`angry-${stamp}`);
  const arf = fixture('mailbox-provider-arf.eml', {
    ENVELOPE_TO: message.returnPath,
    TOKEN: message.token,
    RP_HOST: `rp.${sender}`,
    RECIPIENT: message.to,
    MESSAGE_ID: message.messageId,
  });
  expect(await report(message.returnPath, arf)).toMatch(/^250 /);
  await expect
    .poll(
      () =>
        hooks
          .to('/events')
          .filter((hook) => hook.json?.type === 'message.complained' && hook.json.data.recipient === message.to).length,
      { timeout: 20_000 },
    )
    .toBe(1);
  const hook = hooks.to('/events').find((received) => received.json?.type === 'message.complained')!;
  expect(hasValidSignature(hook, hookSecret)).toBe(true);
  const suppressions = await suppressionsOf(message.to);
  expect(suppressions).toHaveLength(1);
  expect(suppressions[0].reason).toMatch(/complain/i);
  // A complaint does not undo the delivery: the message stays delivered.
  expect((await api.get(api.account(`/messages/${encodeURIComponent(message.id)}`))).body.status).toBe('Delivered');

  expect(await report(message.returnPath, arf)).toMatch(/^250 /);
  await new Promise((resolve) => setTimeout(resolve, 1_500));
  expect(
    hooks
      .to('/events')
      .filter(
        (received) => received.json?.type === 'message.complained' && received.json.data.recipient === message.to,
      ),
  ).toHaveLength(1);
});

test('forged reports change nothing: an unknown token, and a report about one message sent to another message’s return path', async () => {
  const victim = await deliveredMessage(`victim-${stamp}`);
  const other = await deliveredMessage(`other-${stamp}`);
  const forgedToken = fixture('postfix-hard-bounce.eml', {
    TOKEN: 'deadbeefdeadbeefdead',
    RP_HOST: `rp.${sender}`,
    RECIPIENT: victim.to,
    MESSAGE_ID: victim.messageId,
  });
  expect(await report(`bounces+deadbeefdeadbeefdead@rp.${sender}`, forgedToken)).toMatch(/^250 /);
  // The envelope names `other`'s token while the report is about `victim`: only the token counts.
  const crossed = fixture('postfix-hard-bounce.eml', {
    TOKEN: other.token,
    RP_HOST: `rp.${sender}`,
    RECIPIENT: victim.to,
    MESSAGE_ID: victim.messageId,
  });
  expect(await report(other.returnPath, crossed)).toMatch(/^250 /);
  await new Promise((resolve) => setTimeout(resolve, 2_000));
  expect((await api.get(api.account(`/messages/${encodeURIComponent(victim.id)}`))).body.status).toBe('Delivered');
  expect(await suppressionsOf(victim.to)).toEqual([]);
});
