import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildWebhookPayload } from '@/lib/core/webhooks/internal/build-webhook-payload';
import { domains, events } from '@/lib/db/schema';
import type { TestServices } from '../../../support/memory-services';
import { buildDsn, fixture, nestedMultipart, plainMail } from './report-fixtures';
import { DATABASES, RP_A, RP_B, returnPathSuite } from './return-path-suite';

/**
 * Bounces mailed to the return path, straight into the verb the MX calls, on PGlite and on PostgreSQL
 * too when MAILSTEAD_TEST_POSTGRES_URL is set: a hard bounce and all it changes (once), soft bounces and
 * the reports that change nothing, which recipient block decides, tokens and bodies that are ignored,
 * tenancy, sandbox and undelivered messages, and the bounce-rate pause. Complaints and the
 * List-Unsubscribe mailto are in receive-return-path-complaints.test.ts.
 */
describe.each(DATABASES)('receiveReturnPathMail on $name', ({ open }) => {
  const suite = returnPathSuite(open);
  const { a, b, delivered, receive, reload, eventsOf, suppressionOf, hourly, deliveriesOf, postfixBounce } = suite;
  let services: TestServices;

  beforeAll(() => {
    services = suite.services;
  });

  it('a Postfix hard bounce: bounced with its class, message.bounced, a 30-day suppression, counters, webhooks; the same DSN again changes nothing', async () => {
    const message = await delivered(a, 'acme.example');
    const before = {
      stats: await hourly(a.accountId),
      bounced: await deliveriesOf('message.bounced'),
      suppressed: await deliveriesOf('suppression.created'),
    };
    const outcome = await receive(`bounces+${message.returnPathToken}@${RP_A}`, postfixBounce(message));
    expect(outcome).toMatchObject({
      kind: 'bounce',
      messageId: message.id,
      reason: expect.stringContaining('InvalidRecipient'),
    });
    const after = await reload(message.id);
    expect(after).toMatchObject({ status: 'bounced', bounceClassification: 'InvalidRecipient', attempts: 1 });
    expect(after.deliveryAttempts.at(-1)).toEqual({
      time: services.now().toISOString(),
      status: 'bounced',
      log: expect.stringMatching(
        /^DSN from mx1\.example\.net: 5\.1\.1 550 5\.1\.1 <r\d+@example\.net>: Recipient address rejected/,
      ),
    });
    expect(await eventsOf(message.id)).toEqual(['message.reception', 'message.bounced']);
    expect(await suppressionOf(a.accountId, message.recipient)).toMatchObject({
      kind: 'bounce',
      domain: 'acme.example',
      expiresAt: new Date(services.now().getTime() + 30 * 86_400_000),
      reason: expect.stringMatching(/^hard bounce \(InvalidRecipient\): DSN from/),
    });
    expect(await hourly(a.accountId)).toEqual({
      ...before.stats,
      bounced: before.stats.bounced + 1,
      invalid: before.stats.invalid + 1,
    });
    expect(await deliveriesOf('message.bounced')).toBe(before.bounced + 1);
    expect(await deliveriesOf('suppression.created')).toBe(before.suppressed + 1);

    const again = await receive(`bounces+${message.returnPathToken}@${RP_A}`, postfixBounce(message));
    expect(again).toMatchObject({ kind: 'ignored', messageId: message.id });
    expect(await eventsOf(message.id)).toEqual(['message.reception', 'message.bounced']);
    expect(await hourly(a.accountId)).toEqual({
      ...before.stats,
      bounced: before.stats.bounced + 1,
      invalid: before.stats.invalid + 1,
    });
    expect((await reload(message.id)).deliveryAttempts).toHaveLength(after.deliveryAttempts.length);
  });

  it('the webhook payload of an asynchronous bounce is the documented message event; the diagnostic stays out of it', async () => {
    const message = await delivered(a, 'acme.example');
    const raw = buildDsn({
      to: 'x',
      recipients: [
        {
          final: message.recipient,
          action: 'failed',
          status: '5.1.1',
          diagnostic: '550 5.1.1 <script>x</script>\r\n Action: delivered',
        },
      ],
    });
    expect((await receive(`bounces+${message.returnPathToken}@${RP_A}`, raw)).kind).toBe('bounce');
    const [event] = await services.db
      .select()
      .from(events)
      .where(and(eq(events.messageId, message.id), eq(events.type, 'message.bounced')));
    expect((event.payload as { response: string }).response).toContain('<script>x</script> Action: delivered');
    expect(buildWebhookPayload(event, a.webhookId).data).toEqual({
      account_id: a.accountId,
      event: 'on_bounced',
      from: 'news@acme.example',
      recipient: message.recipient,
      subject: 'Hello',
      message_id_header: message.messageIdHeader,
      id: message.id,
      is_bot: false,
    });
  });

  it.each([
    [
      'a failure with 4.x.x (the remote gave up): bounced, soft, no suppression',
      { action: 'failed', status: '4.4.7' },
      'bounced',
      'TransientFailure',
    ],
    [
      'a 5.2.2 mailbox full: bounced, soft, no suppression',
      { action: 'failed', status: '5.2.2' },
      'bounced',
      'QuotaIssues',
    ],
    ['delayed: ignored, the message stays delivered', { action: 'delayed', status: '4.4.1' }, 'delivered', null],
    ['delivered: ignored', { action: 'delivered', status: '2.0.0' }, 'delivered', null],
    ['relayed: ignored', { action: 'relayed', status: '2.0.0' }, 'delivered', null],
  ])('%s', async (_, block, status, classification) => {
    const message = await delivered(a, 'acme.example');
    const outcome = await receive(
      `bounces+${message.returnPathToken}@${RP_A}`,
      buildDsn({ to: 'x', recipients: [{ final: message.recipient, ...block }] }),
    );
    expect(outcome.kind).toBe(status === 'bounced' ? 'bounce' : 'ignored');
    expect(await reload(message.id)).toMatchObject({ status, bounceClassification: classification });
    expect(await suppressionOf(a.accountId, message.recipient)).toBeUndefined();
  });

  it('the Postfix delay warning is ignored with its reason', async () => {
    const message = await delivered(a, 'acme.example');
    const raw = fixture('postfix-delayed.eml', {
      TOKEN: message.returnPathToken,
      RP_HOST: RP_A,
      RECIPIENT: message.recipient,
      MESSAGE_ID: message.messageIdHeader,
    });
    expect(await receive(`bounces+${message.returnPathToken}@${RP_A}`, raw)).toEqual({
      kind: 'ignored',
      messageId: message.id,
      reason: expect.stringMatching(/^delayed/),
    });
    expect((await reload(message.id)).status).toBe('delivered');
  });

  it('several recipient blocks: the one about our recipient decides', async () => {
    const message = await delivered(a, 'acme.example');
    const recipients = [
      { final: 'someone-else@example.net', action: 'failed', status: '5.1.1' },
      { final: message.recipient, action: 'delivered', status: '2.0.0' },
    ];
    expect((await receive(`bounces+${message.returnPathToken}@${RP_A}`, buildDsn({ to: 'x', recipients }))).kind).toBe(
      'ignored',
    );
    const failing = [
      { final: 'someone-else@example.net', action: 'delivered', status: '2.0.0' },
      { final: message.recipient.toUpperCase(), action: 'failed', status: '5.1.1' },
    ];
    expect(
      (await receive(`bounces+${message.returnPathToken}@${RP_A}`, buildDsn({ to: 'x', recipients: failing }))).kind,
    ).toBe('bounce');
  });

  it('no token, an unknown token, a malformed token, garbage, hostile bodies: ignored with a reason, nothing changed', async () => {
    const message = await delivered(a, 'acme.example');
    const dsn = postfixBounce(message);
    const cases: [string, Buffer][] = [
      [`bounces+ffffffffffffffffffff@${RP_A}`, dsn],
      // The message's id with a guessed secret: the id alone (it is in the Message-ID) forges nothing.
      [`bounces+${message.id.replaceAll('-', '')}${'0'.repeat(20)}@${RP_A}`, dsn],
      [`bounces+${message.returnPathToken.slice(0, 32)}@${RP_A}`, dsn],
      [`bounces+not..a-token!@${RP_A}`, dsn],
      ['not-an-address', dsn],
      [`bounces+${message.returnPathToken}@${RP_A}`, Buffer.from('\u0000\u00ff garbage \r\n\r\n\u0001')],
      [`bounces+${message.returnPathToken}@${RP_A}`, plainMail({ to: 'x', subject: 'Out of office' })],
      [`bounces+${message.returnPathToken}@${RP_A}`, nestedMultipart(20_000)],
      [
        `bounces+${message.returnPathToken}@${RP_A}`,
        Buffer.concat([
          Buffer.from('Content-Type: multipart/report; report-type=delivery-status; boundary="z"\r\n\r\n--z\r\n\r\n'),
          Buffer.alloc(20 * 1024 * 1024, 'x'),
        ]),
      ],
      // No token in the envelope, and a host nobody uses.
      [`postmaster@rp.nobody.example`, dsn],
    ];
    for (const [recipient, raw] of cases) {
      const outcome = await receive(recipient, raw);
      expect(outcome.kind, recipient).toBe('ignored');
      expect(outcome.reason.length, recipient).toBeGreaterThan(5);
    }
    expect((await reload(message.id)).status).toBe('delivered');
    expect(await eventsOf(message.id)).toEqual(['message.reception']);
  });

  it('tenancy: a token of account A cannot touch anything through account B, and report contents never pick another account’s message', async () => {
    const ofA = await delivered(a, 'acme.example');
    const ofB = await delivered(b, 'beta.example');
    // A's token at B's return-path host.
    expect(await receive(`bounces+${ofA.returnPathToken}@${RP_B}`, postfixBounce(ofA, RP_B))).toMatchObject({
      kind: 'ignored',
      reason: expect.stringContaining('return-path host'),
    });
    // B's host, no token in the envelope, the report quoting A's token, Message-ID and recipient.
    expect((await receive(`postmaster@${RP_B}`, postfixBounce(ofA))).kind).toBe('ignored');
    // B's own token with a report about A's recipient: only B's message can be affected, and the recipient does not match.
    const forged = buildDsn({
      to: 'x',
      recipients: [
        { final: ofA.recipient, action: 'failed', status: '5.1.1' },
        { final: 'x@y.example', action: 'failed', status: '5.1.1' },
      ],
    });
    expect(await receive(`bounces+${ofB.returnPathToken}@${RP_B}`, forged)).toMatchObject({
      kind: 'ignored',
      messageId: ofB.id,
    });
    expect((await reload(ofA.id)).status).toBe('delivered');
    expect((await reload(ofB.id)).status).toBe('delivered');
    // Without a token in the envelope, the returned original's Return-Path or Message-ID finds the message of that host's domain.
    expect(await receive(`postmaster@${RP_A}`, postfixBounce(ofA))).toMatchObject({
      kind: 'bounce',
      messageId: ofA.id,
    });
    const byMessageId = buildDsn({
      to: 'x',
      recipients: [{ final: ofB.recipient, action: 'failed', status: '5.1.1' }],
      original: [`Message-ID: ${ofB.messageIdHeader}`],
    });
    expect(await receive(`postmaster@${RP_B}`, byMessageId)).toMatchObject({ kind: 'bounce', messageId: ofB.id });
  });

  it('sandbox messages and messages not yet delivered do not bounce by mail', async () => {
    const sandboxed = await delivered(a, 'acme.example', { isSandbox: true });
    expect(await receive(`bounces+${sandboxed.returnPathToken}@${RP_A}`, postfixBounce(sandboxed))).toMatchObject({
      kind: 'ignored',
      reason: expect.stringContaining('sandbox'),
    });
    const queued = await delivered(a, 'acme.example', { status: 'queued', sentAt: null });
    expect(await receive(`bounces+${queued.returnPathToken}@${RP_A}`, postfixBounce(queued))).toMatchObject({
      kind: 'ignored',
      reason: expect.stringContaining('queued'),
    });
    expect((await reload(queued.id)).status).toBe('queued');
  });

  it('an asynchronous bounce counts toward the bounce-rate pause, as a synchronous one does', async () => {
    const message = await delivered(b, 'beta.example');
    services.config = { ...services.config, pause: { ...services.config.pause, minVolume: 1 } };
    expect((await receive(`bounces+${message.returnPathToken}@${RP_B}`, postfixBounce(message, RP_B))).kind).toBe(
      'bounce',
    );
    expect((await services.db.select().from(domains).where(eq(domains.id, b.domainId)))[0]).toMatchObject({
      isPaused: true,
      pauseReason: 'bounce_rate',
    });
  });
});
