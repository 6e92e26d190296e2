import { randomBytes } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Principal } from '@/lib/auth/principal';
import { createCampaign } from '@/lib/core/campaigns/create-campaign';
import { getCampaignStats } from '@/lib/core/campaigns/get-campaign-stats';
import { signUnsubscribeToken, UNSUBSCRIBE_KEY_PURPOSE } from '@/lib/core/campaigns/unsubscribe-links';
import { createContact } from '@/lib/core/contacts/create-contact';
import { checkDomainDns } from '@/lib/core/domains/check-domain-dns';
import { createDomain } from '@/lib/core/domains/create-domain';
import { receiveReturnPathMail, type ReturnPathMail } from '@/lib/core/inbound/receive-return-path-mail';
import { addListMembers } from '@/lib/core/lists/add-list-members';
import { createList } from '@/lib/core/lists/create-list';
import { sendMessage } from '@/lib/core/messages/send-message';
import { createTemplateRenderer } from '@/lib/core/templating/template-renderer';
import { buildWebhookPayload } from '@/lib/core/webhooks/build-webhook-payload';
import { MIGRATIONS_FOLDER, type Db } from '@/lib/db/client';
import * as schema from '@/lib/db/schema';
import { campaignRecipients, campaigns, contactSubscriptionEvents, domains, events, listMemberships, messages, statsHourly, suppressions, webhookDeliveries, webhooks } from '@/lib/db/schema';
import { SecretBox } from '@/lib/shared/crypto';
import { as, memoryServices, newAccount, TEST_CONFIG, TestClock, TestDns, type TestServices } from '../../../support/memory-services';
import { buildArf, buildDsn, fixture, nestedMultipart, plainMail } from './report-fixtures';

/**
 * Mail to the return path, straight into the verb the MX calls: on PGlite, and on PostgreSQL too when
 * MAILSTEAD_TEST_POSTGRES_URL is set (a scratch database of its own).
 */
const adminUrl = process.env.MAILSTEAD_TEST_POSTGRES_URL;

async function postgresServices(): Promise<TestServices> {
  const name = `mailstead_rp_${process.pid}_${Date.now()}`;
  const admin = async (query: string) => {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    await client.query(query);
    await client.end();
  };
  await admin(`create database "${name}"`);
  const url = new URL(adminUrl!);
  url.pathname = `/${name}`;
  const pool = new pg.Pool({ connectionString: url.toString(), max: 4 });
  pool.on('error', () => {});
  const db = drizzle({ client: pool, schema }) as unknown as Db;
  await migrate(db as never, { migrationsFolder: MIGRATIONS_FOLDER });
  const clock = new TestClock();
  const renderer = createTemplateRenderer({ workers: 1 });
  return {
    db,
    config: { ...TEST_CONFIG, ...NO_PAUSE },
    secrets: new SecretBox(randomBytes(32)),
    logger: pino({ level: 'silent' }),
    now: clock.now,
    clock,
    dns: new TestDns(),
    renderer,
    close: async () => {
      await renderer.close();
      await pool.end();
      await admin(`drop database if exists "${name}" with (force)`);
    },
  };
}

// No domain pauses on its bounce rate until the last test asks for it (the messages here have no delivered events).
const NO_PAUSE = { pause: { ...TEST_CONFIG.pause, minVolume: 1_000_000 } };
const DATABASES = [{ name: 'PGlite', open: () => memoryServices(NO_PAUSE) }, ...(adminUrl ? [{ name: 'PostgreSQL', open: postgresServices }] : [])];

describe.each(DATABASES)('receiveReturnPathMail on $name', ({ open }) => {
  let services: TestServices;
  const a = { accountId: '', principal: null as unknown as Principal, domainId: '', webhookId: '' };
  const b = { accountId: '', principal: null as unknown as Principal, domainId: '' };
  const RP_A = 'rp.acme.example';
  const RP_B = 'rp.beta.example';
  let sequence = 0;

  beforeAll(async () => {
    services = await open();
    for (const [holder, name, domain] of [
      [a, 'Acme', 'acme.example'],
      [b, 'Beta', 'beta.example'],
    ] as const) {
      Object.assign(holder, await newAccount(services, name));
      const created = await createDomain(as(services, holder.principal), { domain, sending_type: 'marketing' });
      services.dns.publishRecords(created.dns_records);
      await checkDomainDns(as(services, holder.principal), { domain });
      holder.domainId = created.id;
    }
    const [hook] = await services.db
      .insert(webhooks)
      .values({ accountId: a.accountId, name: 'All', url: 'https://hooks.example/x', secretEncrypted: 'x', scope: 'global', onBounced: true, onComplained: true, onSuppressionCreated: true })
      .returning();
    a.webhookId = hook.id;
  }, 120_000);

  afterAll(() => services?.close());

  /** A message of the account as the engine leaves it once the remote MX accepted it. */
  async function delivered(holder: { principal: Principal }, domain: string, fields: Partial<typeof messages.$inferInsert> = {}) {
    const recipient = `r${++sequence}@example.net`;
    const sent = await sendMessage(as(services, holder.principal), { from: { email: `news@${domain}` }, subject: 'Hello', text_content: 'Hi', recipients: [{ email: recipient }], tags: ['weekly'] });
    const at = services.now();
    const [row] = await services.db
      .update(messages)
      .set({ status: 'delivered', attempts: 1, nextAttemptAt: null, sentAt: at, deliveredAt: at, ...fields })
      .where(eq(messages.messageIdHeader, sent.data[0].id!))
      .returning();
    return row;
  }

  const receive = (recipient: string, raw: Buffer, sender = '') => receiveReturnPathMail(services, { recipient, sender, raw } satisfies ReturnPathMail);
  const reload = async (id: string) => (await services.db.select().from(messages).where(eq(messages.id, id)))[0];
  const eventsOf = async (id: string) => (await services.db.select().from(events).where(eq(events.messageId, id))).map((event) => event.type);
  const suppressionOf = async (accountId: string, email: string) => (await services.db.select().from(suppressions).where(and(eq(suppressions.accountId, accountId), eq(suppressions.email, email))))[0];
  const hourly = async (accountId: string) => {
    const [row] = await services.db
      .select({ bounced: sql<number>`sum(${statsHourly.bounced})::int`, complained: sql<number>`sum(${statsHourly.complained})::int`, invalid: sql<number>`sum(${statsHourly.bouncedInvalidRecipient})::int` })
      .from(statsHourly)
      .where(eq(statsHourly.accountId, accountId));
    return { bounced: row.bounced ?? 0, complained: row.complained ?? 0, invalid: row.invalid ?? 0 };
  };
  const deliveriesOf = async (type: string) => (await services.db.select().from(webhookDeliveries).where(and(eq(webhookDeliveries.webhookId, a.webhookId), eq(webhookDeliveries.eventType, type)))).length;
  const postfixBounce = (message: typeof messages.$inferSelect, host = RP_A) =>
    fixture('postfix-hard-bounce.eml', { TOKEN: message.returnPathToken, RP_HOST: host, RECIPIENT: message.recipient, MESSAGE_ID: message.messageIdHeader });

  it('a Postfix hard bounce: bounced with its class, message.bounced, a 30-day suppression, counters, webhooks; the same DSN again changes nothing', async () => {
    const message = await delivered(a, 'acme.example');
    const before = { stats: await hourly(a.accountId), bounced: await deliveriesOf('message.bounced'), suppressed: await deliveriesOf('suppression.created') };
    const outcome = await receive(`bounces+${message.returnPathToken}@${RP_A}`, postfixBounce(message));
    expect(outcome).toMatchObject({ kind: 'bounce', messageId: message.id, reason: expect.stringContaining('InvalidRecipient') });
    const after = await reload(message.id);
    expect(after).toMatchObject({ status: 'bounced', bounceClassification: 'InvalidRecipient', attempts: 1 });
    expect(after.deliveryAttempts.at(-1)).toEqual({ time: services.now().toISOString(), status: 'bounced', log: expect.stringMatching(/^DSN from mx1\.example\.net: 5\.1\.1 550 5\.1\.1 <r\d+@example\.net>: Recipient address rejected/) });
    expect(await eventsOf(message.id)).toEqual(['message.reception', 'message.bounced']);
    expect(await suppressionOf(a.accountId, message.recipient)).toMatchObject({ kind: 'bounce', domain: 'acme.example', expiresAt: new Date(services.now().getTime() + 30 * 86_400_000), reason: expect.stringMatching(/^hard bounce \(InvalidRecipient\): DSN from/) });
    expect(await hourly(a.accountId)).toEqual({ ...before.stats, bounced: before.stats.bounced + 1, invalid: before.stats.invalid + 1 });
    expect(await deliveriesOf('message.bounced')).toBe(before.bounced + 1);
    expect(await deliveriesOf('suppression.created')).toBe(before.suppressed + 1);

    const again = await receive(`bounces+${message.returnPathToken}@${RP_A}`, postfixBounce(message));
    expect(again).toMatchObject({ kind: 'ignored', messageId: message.id });
    expect(await eventsOf(message.id)).toEqual(['message.reception', 'message.bounced']);
    expect(await hourly(a.accountId)).toEqual({ ...before.stats, bounced: before.stats.bounced + 1, invalid: before.stats.invalid + 1 });
    expect((await reload(message.id)).deliveryAttempts).toHaveLength(after.deliveryAttempts.length);
  });

  it('the webhook payload of an asynchronous bounce is the documented message event; the diagnostic stays out of it', async () => {
    const message = await delivered(a, 'acme.example');
    const raw = buildDsn({ to: 'x', recipients: [{ final: message.recipient, action: 'failed', status: '5.1.1', diagnostic: '550 5.1.1 <script>x</script>\r\n Action: delivered' }] });
    expect((await receive(`bounces+${message.returnPathToken}@${RP_A}`, raw)).kind).toBe('bounce');
    const [event] = await services.db.select().from(events).where(and(eq(events.messageId, message.id), eq(events.type, 'message.bounced')));
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
    ['a failure with 4.x.x (the remote gave up): bounced, soft, no suppression', { action: 'failed', status: '4.4.7' }, 'bounced', 'TransientFailure'],
    ['a 5.2.2 mailbox full: bounced, soft, no suppression', { action: 'failed', status: '5.2.2' }, 'bounced', 'QuotaIssues'],
    ['delayed: ignored, the message stays delivered', { action: 'delayed', status: '4.4.1' }, 'delivered', null],
    ['delivered: ignored', { action: 'delivered', status: '2.0.0' }, 'delivered', null],
    ['relayed: ignored', { action: 'relayed', status: '2.0.0' }, 'delivered', null],
  ])('%s', async (_, block, status, classification) => {
    const message = await delivered(a, 'acme.example');
    const outcome = await receive(`bounces+${message.returnPathToken}@${RP_A}`, buildDsn({ to: 'x', recipients: [{ final: message.recipient, ...block }] }));
    expect(outcome.kind).toBe(status === 'bounced' ? 'bounce' : 'ignored');
    expect(await reload(message.id)).toMatchObject({ status, bounceClassification: classification });
    expect(await suppressionOf(a.accountId, message.recipient)).toBeUndefined();
  });

  it('the Postfix delay warning is ignored with its reason', async () => {
    const message = await delivered(a, 'acme.example');
    const raw = fixture('postfix-delayed.eml', { TOKEN: message.returnPathToken, RP_HOST: RP_A, RECIPIENT: message.recipient, MESSAGE_ID: message.messageIdHeader });
    expect(await receive(`bounces+${message.returnPathToken}@${RP_A}`, raw)).toEqual({ kind: 'ignored', messageId: message.id, reason: expect.stringMatching(/^delayed/) });
    expect((await reload(message.id)).status).toBe('delivered');
  });

  it('several recipient blocks: the one about our recipient decides', async () => {
    const message = await delivered(a, 'acme.example');
    const recipients = [
      { final: 'someone-else@example.net', action: 'failed', status: '5.1.1' },
      { final: message.recipient, action: 'delivered', status: '2.0.0' },
    ];
    expect((await receive(`bounces+${message.returnPathToken}@${RP_A}`, buildDsn({ to: 'x', recipients }))).kind).toBe('ignored');
    const failing = [
      { final: 'someone-else@example.net', action: 'delivered', status: '2.0.0' },
      { final: message.recipient.toUpperCase(), action: 'failed', status: '5.1.1' },
    ];
    expect((await receive(`bounces+${message.returnPathToken}@${RP_A}`, buildDsn({ to: 'x', recipients: failing }))).kind).toBe('bounce');
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
      [`bounces+${message.returnPathToken}@${RP_A}`, Buffer.concat([Buffer.from('Content-Type: multipart/report; report-type=delivery-status; boundary="z"\r\n\r\n--z\r\n\r\n'), Buffer.alloc(20 * 1024 * 1024, 'x')])],
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
    expect(await receive(`bounces+${ofA.returnPathToken}@${RP_B}`, postfixBounce(ofA, RP_B))).toMatchObject({ kind: 'ignored', reason: expect.stringContaining('return-path host') });
    // B's host, no token in the envelope, the report quoting A's token, Message-ID and recipient.
    expect((await receive(`postmaster@${RP_B}`, postfixBounce(ofA))).kind).toBe('ignored');
    // B's own token with a report about A's recipient: only B's message can be affected, and the recipient does not match.
    const forged = buildDsn({ to: 'x', recipients: [{ final: ofA.recipient, action: 'failed', status: '5.1.1' }, { final: 'x@y.example', action: 'failed', status: '5.1.1' }] });
    expect(await receive(`bounces+${ofB.returnPathToken}@${RP_B}`, forged)).toMatchObject({ kind: 'ignored', messageId: ofB.id });
    expect((await reload(ofA.id)).status).toBe('delivered');
    expect((await reload(ofB.id)).status).toBe('delivered');
    // Without a token in the envelope, the returned original's Return-Path or Message-ID finds the message of that host's domain.
    expect(await receive(`postmaster@${RP_A}`, postfixBounce(ofA))).toMatchObject({ kind: 'bounce', messageId: ofA.id });
    const byMessageId = buildDsn({ to: 'x', recipients: [{ final: ofB.recipient, action: 'failed', status: '5.1.1' }], original: [`Message-ID: ${ofB.messageIdHeader}`] });
    expect(await receive(`postmaster@${RP_B}`, byMessageId)).toMatchObject({ kind: 'bounce', messageId: ofB.id });
  });

  it('sandbox messages and messages not yet delivered do not bounce by mail', async () => {
    const sandboxed = await delivered(a, 'acme.example', { isSandbox: true });
    expect(await receive(`bounces+${sandboxed.returnPathToken}@${RP_A}`, postfixBounce(sandboxed))).toMatchObject({ kind: 'ignored', reason: expect.stringContaining('sandbox') });
    const queued = await delivered(a, 'acme.example', { status: 'queued', sentAt: null });
    expect(await receive(`bounces+${queued.returnPathToken}@${RP_A}`, postfixBounce(queued))).toMatchObject({ kind: 'ignored', reason: expect.stringContaining('queued') });
    expect((await reload(queued.id)).status).toBe('queued');
  });

  describe('complaints (ARF)', () => {
    async function campaignMessage() {
      const ctx = as(services, a.principal);
      const contact = await createContact(ctx, { email: `c${++sequence}@example.net` });
      const target = await createList(ctx, { name: `Target ${sequence}` });
      const other = await createList(ctx, { name: `Other ${sequence}` });
      for (const list of [target, other]) await addListMembers(ctx, { list_id: list.id, contact: contact.id });
      const campaign = await createCampaign(ctx, { name: 'News', from: { email: 'news@acme.example' }, subject: 'Hello', html_content: '<p>Hi</p>', list_ids: [target.id] });
      await services.db.update(campaigns).set({ status: 'sent', recipientCount: 1 }).where(eq(campaigns.id, campaign.id));
      await services.db.insert(campaignRecipients).values({ campaignId: campaign.id, contactId: contact.id, accountId: a.accountId, email: contact.email });
      const message = await delivered(a, 'acme.example', { campaignId: campaign.id, contactId: contact.id });
      await services.db.update(messages).set({ recipient: contact.email }).where(eq(messages.id, message.id));
      return { message: { ...message, recipient: contact.email }, contact, campaign, target, other };
    }
    const membership = async (listId: string, contactId: string) =>
      (await services.db.select().from(listMemberships).where(and(eq(listMemberships.listId, listId), eq(listMemberships.contactId, contactId))))[0].subscriptionStatus;

    it('a mailbox provider ARF about a campaign message: complained_at, message.complained and its webhook, a complaint suppression, the counter, campaign stats, memberships complained; once only', async () => {
      const { message, contact, campaign, target, other } = await campaignMessage();
      const before = { stats: await hourly(a.accountId), hooks: await deliveriesOf('message.complained') };
      const raw = fixture('mailbox-provider-arf.eml', { TOKEN: message.returnPathToken, RP_HOST: RP_A, RECIPIENT: message.recipient, MESSAGE_ID: message.messageIdHeader, ENVELOPE_TO: `fbl@${RP_A}` });
      expect(await receive(`fbl@${RP_A}`, raw, 'feedback@arf.mail.example-mailbox.com')).toEqual({ kind: 'complaint', messageId: message.id, reason: 'abuse reported by feedback3.arf.mail.example-mailbox.com' });
      const after = await reload(message.id);
      expect(after).toMatchObject({ status: 'delivered', complainedAt: services.now() });
      expect(await eventsOf(message.id)).toEqual(['message.reception', 'message.complained']);
      const [event] = await services.db.select().from(events).where(and(eq(events.messageId, message.id), eq(events.type, 'message.complained')));
      expect(buildWebhookPayload(event, a.webhookId)).toMatchObject({ type: 'message.complained', data: { event: 'on_complained', id: message.id, recipient: message.recipient, is_bot: false } });
      expect(await deliveriesOf('message.complained')).toBe(before.hooks + 1);
      expect(await suppressionOf(a.accountId, message.recipient)).toMatchObject({ kind: 'complaint', domain: 'acme.example', reason: expect.stringMatching(/^complaint \(abuse\)/) });
      expect(await hourly(a.accountId)).toEqual({ ...before.stats, complained: before.stats.complained + 1 });
      expect((await getCampaignStats(as(services, a.principal), { campaign_id: campaign.id })).complained).toBe(1);
      expect(await membership(target.id, contact.id)).toBe('complained');
      expect(await membership(other.id, contact.id)).toBe('confirmed');
      expect(await services.db.select({ source: contactSubscriptionEvents.source, listId: contactSubscriptionEvents.listId }).from(contactSubscriptionEvents).where(eq(contactSubscriptionEvents.contactId, contact.id))).toEqual([{ source: 'complaint', listId: target.id }]);

      expect((await receive(`fbl@${RP_A}`, raw)).kind).toBe('ignored');
      expect(await eventsOf(message.id)).toEqual(['message.reception', 'message.complained']);
      expect(await hourly(a.accountId)).toEqual({ ...before.stats, complained: before.stats.complained + 1 });
      expect((await getCampaignStats(as(services, a.principal), { campaign_id: campaign.id })).complained).toBe(1);
    });

    it('a complaint outranks a live bounce suppression; a transactional message has no lists to touch', async () => {
      const message = await delivered(a, 'acme.example');
      await receive(`bounces+${message.returnPathToken}@${RP_A}`, postfixBounce(message));
      expect((await suppressionOf(a.accountId, message.recipient)).kind).toBe('bounce');
      const arf = buildArf({ to: 'x', fields: ['Feedback-Type: abuse', 'User-Agent: FBL/1.0', 'Version: 1'], original: [`Message-ID: ${message.messageIdHeader}`] });
      expect(await receive(`bounces+${message.returnPathToken}@${RP_A}`, arf)).toMatchObject({ kind: 'complaint', reason: 'abuse reported by FBL/1.0' });
      expect(await suppressionOf(a.accountId, message.recipient)).toMatchObject({ kind: 'complaint', expiresAt: new Date(services.now().getTime() + 3650 * 86_400_000) });
    });

    it.each([
      ['not-spam', 'Feedback-Type: not-spam'],
      ['auth-failure (DMARC)', 'Feedback-Type: auth-failure'],
      ['no Feedback-Type', 'Version: 1'],
    ])('%s is no complaint', async (_, field) => {
      const message = await delivered(a, 'acme.example');
      expect((await receive(`bounces+${message.returnPathToken}@${RP_A}`, buildArf({ to: 'x', fields: [field, 'User-Agent: x'] }))).kind).toBe('ignored');
      expect((await reload(message.id)).complainedAt).toBeNull();
    });

    it('an ARF quoting another account’s token through this host is ignored', async () => {
      const ofB = await delivered(b, 'beta.example');
      const arf = buildArf({ to: 'x', fields: ['Feedback-Type: abuse', `Original-Mail-From: <bounces+${ofB.returnPathToken}@${RP_B}>`] });
      expect((await receive(`fbl@${RP_A}`, arf)).kind).toBe('ignored');
      expect((await reload(ofB.id)).complainedAt).toBeNull();
    });
  });

  describe('the List-Unsubscribe mailto', () => {
    it('"unsubscribe TOKEN" does what the one-click POST does; again changes nothing; a forged token and other subjects are ignored', async () => {
      const ctx = as(services, a.principal);
      const contact = await createContact(ctx, { email: `u${++sequence}@example.net` });
      const list = await createList(ctx, { name: `Mailto ${sequence}` });
      await addListMembers(ctx, { list_id: list.id, contact: contact.id });
      const campaign = await createCampaign(ctx, { name: 'Mailto', from: { email: 'news@acme.example' }, subject: 'Hi', html_content: '<p>Hi</p>', list_ids: [list.id] });
      await services.db.insert(campaignRecipients).values({ campaignId: campaign.id, contactId: contact.id, accountId: a.accountId, email: contact.email });
      const token = signUnsubscribeToken(services.secrets.deriveKey(UNSUBSCRIBE_KEY_PURPOSE), campaign.id, contact.id);
      const status = async () => (await services.db.select().from(listMemberships).where(and(eq(listMemberships.listId, list.id), eq(listMemberships.contactId, contact.id))))[0].subscriptionStatus;

      const forged = `${token.slice(0, -2)}AA`;
      for (const subject of [`unsubscribe ${forged}`, 'unsubscribe', `Re: unsubscribe ${token}`, `unsubscribe ${'x'.repeat(5000)}`]) {
        expect((await receive(`unsubscribe@${RP_A}`, plainMail({ to: `unsubscribe@${RP_A}`, subject }))).kind, subject).toBe('ignored');
      }
      expect(await status()).toBe('confirmed');

      const outcome = await receive(`unsubscribe@${RP_A}`, plainMail({ to: `unsubscribe@${RP_A}`, subject: `Unsubscribe ${token}` }), contact.email);
      expect(outcome).toMatchObject({ kind: 'unsubscribe', reason: expect.stringContaining(campaign.id) });
      expect(await status()).toBe('unsubscribed');
      const [recipientRow] = await services.db.select().from(campaignRecipients).where(eq(campaignRecipients.campaignId, campaign.id));
      expect(recipientRow.unsubscribedAt).toEqual(services.now());
      const history = await services.db.select().from(contactSubscriptionEvents).where(eq(contactSubscriptionEvents.contactId, contact.id));
      expect(history.map((row) => row.source)).toEqual(['unsubscribe_mailto']);
      expect((await receive(`unsubscribe@${RP_A}`, plainMail({ to: `unsubscribe@${RP_A}`, subject: `unsubscribe ${token}` }))).kind).toBe('unsubscribe');
      expect(await services.db.select().from(contactSubscriptionEvents).where(eq(contactSubscriptionEvents.contactId, contact.id))).toHaveLength(1);
    });
  });

  it('an asynchronous bounce counts toward the bounce-rate pause, as a synchronous one does', async () => {
    const message = await delivered(b, 'beta.example');
    services.config = { ...services.config, pause: { ...services.config.pause, minVolume: 1 } };
    expect((await receive(`bounces+${message.returnPathToken}@${RP_B}`, postfixBounce(message, RP_B))).kind).toBe('bounce');
    expect((await services.db.select().from(domains).where(eq(domains.id, b.domainId)))[0]).toMatchObject({ isPaused: true, pauseReason: 'bounce_rate' });
  });
});
