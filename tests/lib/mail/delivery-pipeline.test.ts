import { eq } from 'drizzle-orm';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Principal } from '@/lib/auth/principal';
import { checkDomainDns } from '@/lib/core/domains/check-domain-dns';
import { createDomain } from '@/lib/core/domains/create-domain';
import { sendMessage } from '@/lib/core/messages/send-message';
import { messages, suppressions } from '@/lib/db/schema';
import { unsafeClaimDueMessages } from '@/lib/mail/claim-due-messages';
import { loadBatchContext, runPipeline } from '@/lib/mail/delivery-pipeline';
import { Destinations } from '@/lib/mail/destinations';
import { createMailBuilder } from '@/lib/mail/mail-builder';
import { OutcomeWriter } from '@/lib/mail/outcome-writer';
import { recordOutcomes } from '@/lib/mail/record-outcomes';
import { as, memoryServices, newAccount, type TestServices } from '../../support/memory-services';

/**
 * The delivery pipeline end to end without a server process: acceptance through the send verb, a
 * claim, the named steps and the outcome writes, on in-memory PGlite, with the test's clock and
 * resolver and a real SMTP server on loopback as the recipient's MX.
 */
type Received = { to: string; raw: string };
const received: Received[] = [];
// What the MX answers at RCPT for an address (default: accept).
const refusals = new Map<string, { code: number; message: string }>();
let mx: SMTPServer;
let services: TestServices;
let principal: Principal;

beforeAll(async () => {
  mx = new SMTPServer({
    authOptional: true,
    disabledCommands: ['AUTH', 'STARTTLS'],
    logger: false,
    onRcptTo(address, _session, callback) {
      const refusal = refusals.get(address.address);
      callback(refusal ? Object.assign(new Error(refusal.message), { responseCode: refusal.code }) : undefined);
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        for (const to of session.envelope.rcptTo)
          received.push({ to: to.address, raw: Buffer.concat(chunks).toString('utf8') });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => mx.listen(0, '127.0.0.1', resolve));
  const port = (mx.server.address() as { port: number }).port;
  services = await memoryServices({ smtpDeliveryPort: port, allowPrivateNetworks: true });
  services.dns.mxFor('rcpt.example', 'mx.rcpt.example', ['127.0.0.1']);
  ({ principal } = await newAccount(services));
  const domain = await createDomain(as(services, principal), { domain: 'acme.example' });
  services.dns.publishRecords(domain.dns_records);
  await checkDomainDns(as(services, principal), { domain: 'acme.example' });
}, 60_000);

// Composed and signed on a mail thread, as a PGlite server delivers.
const mail = createMailBuilder({ threads: 1 });

afterAll(async () => {
  await mail.close();
  await services?.close();
  await new Promise<void>((resolve) => mx?.close(() => resolve()));
});

/** One worker pass: claim what is due now (on the test's clock), run every message, write outcomes. */
async function deliverDue() {
  const now = services.now();
  const claimed = await unsafeClaimDueMessages(services.db, {
    workerId: 'test-worker',
    limit: 50,
    leaseMs: 60_000,
    now,
  });
  const destinations = new Destinations(services);
  const writer = new OutcomeWriter((outcomes, dataSentIds) =>
    recordOutcomes(services, services.db, 'test-worker', outcomes, { now: services.now(), dataSentIds }),
  );
  const batch = await loadBatchContext(services.db, claimed, {
    services,
    now,
    destinations,
    mail,
    onDataSent: (id) => writer.markDataSent(id),
    recordOutcome: (message, outcome) => writer.record(message, outcome),
  });
  const outcomes = await Promise.all(claimed.map((message) => runPipeline(message, batch)));
  await writer.drain();
  destinations.close();
  return new Map(claimed.map((message, index) => [message.recipient, outcomes[index]]));
}

const send = (body: Record<string, unknown>) =>
  sendMessage(as(services, principal), {
    from: { email: 'news@acme.example' },
    subject: 'Hello',
    text_content: 'Hi',
    ...body,
  });

const statusOf = async (recipient: string) =>
  (await services.db.select().from(messages).where(eq(messages.recipient, recipient)))[0];

describe('delivery pipeline (in-memory PGlite, loopback MX)', () => {
  it("delivers a templated message, DKIM-signed, with the recipient's substitutions and escaped HTML", async () => {
    await send({
      subject: 'Hi {{ name }}',
      html_content: '<p>{{ name }}</p>',
      substitutions: { name: 'friend' },
      recipients: [{ email: 'ann@rcpt.example', substitutions: { name: '<Ann>' } }],
    });
    const outcomes = await deliverDue();
    expect(outcomes.get('ann@rcpt.example')?.kind).toBe('delivered');
    const mail = received.find((item) => item.to === 'ann@rcpt.example')!;
    expect(mail.raw).toMatch(/^DKIM-Signature: .*d=acme\.example/m);
    const parsed = await simpleParser(mail.raw);
    expect(parsed.subject).toBe('Hi <Ann>');
    expect(parsed.html).toContain('<p>&lt;Ann&gt;</p>');
    expect((await statusOf('ann@rcpt.example')).status).toBe('delivered');
  });

  it('fails a message whose expiry passed on the clock before any attempt, and sends nothing', async () => {
    await send({
      recipients: [{ email: 'late@rcpt.example' }],
      schedule: {
        first_attempt: new Date(services.now().getTime() + 60_000).toISOString(),
        expires: new Date(services.now().getTime() + 120_000).toISOString(),
      },
    });
    services.clock.advance(180_000);
    const outcomes = await deliverDue();
    expect(outcomes.get('late@rcpt.example')).toMatchObject({
      kind: 'failed',
      log: 'expired before it could be delivered',
    });
    expect(received.some((item) => item.to === 'late@rcpt.example')).toBe(false);
  });

  it('bounces on 5xx, suppresses the address, and the next message to it is suppressed without a connection', async () => {
    refusals.set('gone@rcpt.example', { code: 550, message: '550 5.1.1 no such user' });
    await send({ recipients: [{ email: 'gone@rcpt.example' }] });
    expect((await deliverDue()).get('gone@rcpt.example')).toMatchObject({
      kind: 'bounced',
      classification: 'InvalidRecipient',
    });
    const [suppression] = await services.db
      .select()
      .from(suppressions)
      .where(eq(suppressions.email, 'gone@rcpt.example'));
    expect(suppression?.reason).toContain('hard bounce');
    refusals.delete('gone@rcpt.example');
    await send({ recipients: [{ email: 'gone@rcpt.example' }] });
    expect((await deliverDue()).get('gone@rcpt.example')?.kind).toBe('suppressed');
    expect(received.some((item) => item.to === 'gone@rcpt.example')).toBe(false);
  });

  it('defers on 4xx to the first retry on the schedule, and delivers when the clock reaches it', async () => {
    refusals.set('busy@rcpt.example', { code: 451, message: '451 4.3.0 try later' });
    await send({ recipients: [{ email: 'busy@rcpt.example' }] });
    expect((await deliverDue()).get('busy@rcpt.example')?.kind).toBe('deferred');
    const deferred = await statusOf('busy@rcpt.example');
    expect(deferred.status).toBe('deferred');
    expect(deferred.nextAttemptAt!.getTime() - services.now().getTime()).toBe(
      services.config.delivery.retrySchedule[0] * 1000,
    );
    refusals.delete('busy@rcpt.example');
    expect((await deliverDue()).has('busy@rcpt.example')).toBe(false);
    services.clock.advance(services.config.delivery.retrySchedule[0] * 1000);
    expect((await deliverDue()).get('busy@rcpt.example')?.kind).toBe('delivered');
  });

  it('bounces mail for a domain with no MX or address records (the resolver says so), without retrying', async () => {
    await send({ recipients: [{ email: 'x@nowhere.example' }] });
    expect((await deliverDue()).get('x@nowhere.example')).toMatchObject({
      kind: 'bounced',
      classification: 'BadDomain',
    });
  });
});
