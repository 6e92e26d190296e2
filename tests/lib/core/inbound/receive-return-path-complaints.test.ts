import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { createCampaign } from '@/lib/core/campaigns/create-campaign';
import { getCampaignStats } from '@/lib/core/campaigns/get-campaign-stats';
import { countCampaignEvent } from '@/lib/core/campaigns/campaign-counters';
import { signUnsubscribeToken, UNSUBSCRIBE_KEY_PURPOSE } from '@/lib/core/campaigns/unsubscribe-links';
import { createContact } from '@/lib/core/contacts/create-contact';
import { addListMembers } from '@/lib/core/lists/add-list-members';
import { createList } from '@/lib/core/lists/create-list';
import { buildWebhookPayload } from '@/lib/core/webhooks/internal/build-webhook-payload';
import {
  campaignRecipients,
  campaigns,
  contactSubscriptionEvents,
  events,
  listMemberships,
  messages,
} from '@/lib/db/schema';
import { as, type TestServices } from '../../../support/memory-services';
import { buildArf, fixture, plainMail } from './report-fixtures';
import { DATABASES, RP_A, RP_B, returnPathSuite } from './return-path-suite';

/**
 * Complaints (ARF reports) and the List-Unsubscribe mailto mailed to the return path, straight into the
 * verb the MX calls, on PGlite and on PostgreSQL too when MAILSTEAD_TEST_POSTGRES_URL is set: what a
 * complaint about a campaign message changes (once), a campaign message that bounces after delivery,
 * a complaint over a bounce suppression, reports that are no complaint, and "unsubscribe TOKEN". Bounces
 * are in receive-return-path-bounces.test.ts.
 */
describe.each(DATABASES)('receiveReturnPathMail on $name', ({ open }) => {
  const suite = returnPathSuite(open);
  const { a, b, delivered, receive, reload, eventsOf, suppressionOf, hourly, deliveriesOf, postfixBounce } = suite;
  let services: TestServices;
  // Numbers the contacts and lists this file creates.
  let sequence = 0;

  beforeAll(() => {
    services = suite.services;
  });

  describe('complaints (ARF)', () => {
    async function campaignMessage() {
      const ctx = as(services, a.principal);
      const contact = await createContact(ctx, { email: `c${++sequence}@example.net` });
      const target = await createList(ctx, { name: `Target ${sequence}` });
      const other = await createList(ctx, { name: `Other ${sequence}` });
      for (const list of [target, other]) await addListMembers(ctx, { list_id: list.id, contact: contact.id });
      const campaign = await createCampaign(ctx, {
        name: 'News',
        from: { email: 'news@acme.example' },
        subject: 'Hello',
        html_content: '<p>Hi</p>',
        list_ids: [target.id],
      });
      await services.db
        .update(campaigns)
        .set({ status: 'sent', recipientCount: 1 })
        .where(eq(campaigns.id, campaign.id));
      await services.db
        .insert(campaignRecipients)
        .values({ campaignId: campaign.id, contactId: contact.id, accountId: a.accountId, email: contact.email });
      const message = await delivered(a, 'acme.example', { campaignId: campaign.id, contactId: contact.id });
      await services.db.update(messages).set({ recipient: contact.email }).where(eq(messages.id, message.id));
      return { message: { ...message, recipient: contact.email }, contact, campaign, target, other };
    }
    const membership = async (listId: string, contactId: string) =>
      (
        await services.db
          .select()
          .from(listMemberships)
          .where(and(eq(listMemberships.listId, listId), eq(listMemberships.contactId, contactId)))
      )[0].subscriptionStatus;

    it('a mailbox provider ARF about a campaign message: complained_at, message.complained and its webhook, a complaint suppression, the counter, campaign stats, memberships complained; once only', async () => {
      const { message, contact, campaign, target, other } = await campaignMessage();
      const before = { stats: await hourly(a.accountId), hooks: await deliveriesOf('message.complained') };
      const raw = fixture('mailbox-provider-arf.eml', {
        TOKEN: message.returnPathToken,
        RP_HOST: RP_A,
        RECIPIENT: message.recipient,
        MESSAGE_ID: message.messageIdHeader,
        ENVELOPE_TO: `fbl@${RP_A}`,
      });
      expect(await receive(`fbl@${RP_A}`, raw, 'feedback@arf.mail.example-mailbox.com')).toEqual({
        kind: 'complaint',
        messageId: message.id,
        reason: 'abuse reported by feedback3.arf.mail.example-mailbox.com',
      });
      const after = await reload(message.id);
      expect(after).toMatchObject({ status: 'delivered', complainedAt: services.now() });
      expect(await eventsOf(message.id)).toEqual(['message.reception', 'message.complained']);
      const [event] = await services.db
        .select()
        .from(events)
        .where(and(eq(events.messageId, message.id), eq(events.type, 'message.complained')));
      expect(buildWebhookPayload(event, a.webhookId)).toMatchObject({
        type: 'message.complained',
        data: { event: 'on_complained', id: message.id, recipient: message.recipient, is_bot: false },
      });
      expect(await deliveriesOf('message.complained')).toBe(before.hooks + 1);
      expect(await suppressionOf(a.accountId, message.recipient)).toMatchObject({
        kind: 'complaint',
        domain: 'acme.example',
        reason: expect.stringMatching(/^complaint \(abuse\)/),
      });
      expect(await hourly(a.accountId)).toEqual({ ...before.stats, complained: before.stats.complained + 1 });
      expect((await getCampaignStats(as(services, a.principal), { campaign_id: campaign.id })).complained).toBe(1);
      expect(await membership(target.id, contact.id)).toBe('complained');
      expect(await membership(other.id, contact.id)).toBe('confirmed');
      expect(
        await services.db
          .select({ source: contactSubscriptionEvents.source, listId: contactSubscriptionEvents.listId })
          .from(contactSubscriptionEvents)
          .where(eq(contactSubscriptionEvents.contactId, contact.id)),
      ).toEqual([{ source: 'complaint', listId: target.id }]);

      expect((await receive(`fbl@${RP_A}`, raw)).kind).toBe('ignored');
      expect(await eventsOf(message.id)).toEqual(['message.reception', 'message.complained']);
      expect(await hourly(a.accountId)).toEqual({ ...before.stats, complained: before.stats.complained + 1 });
      expect((await getCampaignStats(as(services, a.principal), { campaign_id: campaign.id })).complained).toBe(1);
    });

    it("a campaign message that bounces after delivery moves from the campaign's delivered count to its bounced count, once", async () => {
      const { message, campaign } = await campaignMessage();
      // What the delivery outcome counted when the message was handed over.
      await countCampaignEvent(services.db, { campaignId: campaign.id, accountId: a.accountId }, { delivered: 1 });
      const stats = () => getCampaignStats(as(services, a.principal), { campaign_id: campaign.id });
      expect(await stats()).toMatchObject({ delivered: 1, bounced: 0 });
      expect((await receive(`bounces+${message.returnPathToken}@${RP_A}`, postfixBounce(message))).kind).toBe('bounce');
      expect(await stats()).toMatchObject({ delivered: 0, bounced: 1 });
      expect((await receive(`bounces+${message.returnPathToken}@${RP_A}`, postfixBounce(message))).kind).toBe(
        'ignored',
      );
      expect(await stats()).toMatchObject({ delivered: 0, bounced: 1 });
    });

    it('a complaint outranks a live bounce suppression; a transactional message has no lists to touch', async () => {
      const message = await delivered(a, 'acme.example');
      await receive(`bounces+${message.returnPathToken}@${RP_A}`, postfixBounce(message));
      expect((await suppressionOf(a.accountId, message.recipient)).kind).toBe('bounce');
      const arf = buildArf({
        to: 'x',
        fields: ['Feedback-Type: abuse', 'User-Agent: FBL/1.0', 'Version: 1'],
        original: [`Message-ID: ${message.messageIdHeader}`],
      });
      expect(await receive(`bounces+${message.returnPathToken}@${RP_A}`, arf)).toMatchObject({
        kind: 'complaint',
        reason: 'abuse reported by FBL/1.0',
      });
      expect(await suppressionOf(a.accountId, message.recipient)).toMatchObject({
        kind: 'complaint',
        expiresAt: new Date(services.now().getTime() + 3650 * 86_400_000),
      });
    });

    it.each([
      ['not-spam', 'Feedback-Type: not-spam'],
      ['auth-failure (DMARC)', 'Feedback-Type: auth-failure'],
      ['no Feedback-Type', 'Version: 1'],
    ])('%s is no complaint', async (_, field) => {
      const message = await delivered(a, 'acme.example');
      expect(
        (
          await receive(
            `bounces+${message.returnPathToken}@${RP_A}`,
            buildArf({ to: 'x', fields: [field, 'User-Agent: x'] }),
          )
        ).kind,
      ).toBe('ignored');
      expect((await reload(message.id)).complainedAt).toBeNull();
    });

    it('an ARF quoting another account’s token through this host is ignored', async () => {
      const ofB = await delivered(b, 'beta.example');
      const arf = buildArf({
        to: 'x',
        fields: ['Feedback-Type: abuse', `Original-Mail-From: <bounces+${ofB.returnPathToken}@${RP_B}>`],
      });
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
      const campaign = await createCampaign(ctx, {
        name: 'Mailto',
        from: { email: 'news@acme.example' },
        subject: 'Hi',
        html_content: '<p>Hi</p>',
        list_ids: [list.id],
      });
      await services.db
        .insert(campaignRecipients)
        .values({ campaignId: campaign.id, contactId: contact.id, accountId: a.accountId, email: contact.email });
      const token = signUnsubscribeToken(services.secrets.deriveKey(UNSUBSCRIBE_KEY_PURPOSE), campaign.id, contact.id);
      const status = async () =>
        (
          await services.db
            .select()
            .from(listMemberships)
            .where(and(eq(listMemberships.listId, list.id), eq(listMemberships.contactId, contact.id)))
        )[0].subscriptionStatus;

      // One whole character of the signature changed: its last two may already read "AA" (1 in 256).
      const forged = `${token.slice(0, -3)}${token.at(-3) === 'A' ? 'B' : 'A'}${token.slice(-2)}`;
      for (const subject of [
        `unsubscribe ${forged}`,
        'unsubscribe',
        `Re: unsubscribe ${token}`,
        `unsubscribe ${'x'.repeat(5000)}`,
      ]) {
        expect(
          (await receive(`unsubscribe@${RP_A}`, plainMail({ to: `unsubscribe@${RP_A}`, subject }))).kind,
          subject,
        ).toBe('ignored');
      }
      expect(await status()).toBe('confirmed');

      const outcome = await receive(
        `unsubscribe@${RP_A}`,
        plainMail({ to: `unsubscribe@${RP_A}`, subject: `Unsubscribe ${token}` }),
        contact.email,
      );
      expect(outcome).toMatchObject({ kind: 'unsubscribe', reason: expect.stringContaining(campaign.id) });
      expect(await status()).toBe('unsubscribed');
      const [recipientRow] = await services.db
        .select()
        .from(campaignRecipients)
        .where(eq(campaignRecipients.campaignId, campaign.id));
      expect(recipientRow.unsubscribedAt).toEqual(services.now());
      const history = await services.db
        .select()
        .from(contactSubscriptionEvents)
        .where(eq(contactSubscriptionEvents.contactId, contact.id));
      expect(history.map((row) => row.source)).toEqual(['unsubscribe_mailto']);
      expect(
        (
          await receive(
            `unsubscribe@${RP_A}`,
            plainMail({ to: `unsubscribe@${RP_A}`, subject: `unsubscribe ${token}` }),
          )
        ).kind,
      ).toBe('unsubscribe');
      expect(
        await services.db
          .select()
          .from(contactSubscriptionEvents)
          .where(eq(contactSubscriptionEvents.contactId, contact.id)),
      ).toHaveLength(1);
    });
  });
});
