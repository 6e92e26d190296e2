import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cancelCampaign } from '@/lib/core/campaigns/cancel-campaign';
import { createCampaign } from '@/lib/core/campaigns/create-campaign';
import { countAudience } from '@/lib/core/campaigns/internal/audience';
import { unsafeStartDueCampaign, unsafeValidateNextCampaign } from '@/lib/core/campaigns/run-campaign-steps';
import { sendCampaign } from '@/lib/core/campaigns/send-campaign';
import { unscheduleCampaign } from '@/lib/core/campaigns/unschedule-campaign';
import { createContact } from '@/lib/core/contacts/create-contact';
import { checkDomainDns } from '@/lib/core/domains/check-domain-dns';
import { createDomain } from '@/lib/core/domains/create-domain';
import { addListMembers } from '@/lib/core/lists/add-list-members';
import { createList } from '@/lib/core/lists/create-list';
import type { Principal } from '@/lib/auth/principal';
import { campaignRecipients, campaigns, domains } from '@/lib/db/schema';
import { as, memoryServices, newAccount, type TestServices } from '../../../support/memory-services';

/**
 * The audience frozen in parts (PGlite: one statement for 100,000 recipients held the only
 * connection for a second): four contacts a part here, over two overlapping lists, with members
 * that must be left out. The parts together are exactly the audience the live count gives.
 */
describe('freezing a campaign audience in parts (in-memory PGlite)', () => {
  let services: TestServices;
  let principal: Principal;
  let news: string;
  let offers: string;
  const CHUNK = { snapshotChunk: 4 };

  beforeAll(async () => {
    services = await memoryServices();
    ({ principal } = await newAccount(services));
    const domain = await createDomain(as(services, principal), { domain: 'parts.example' });
    services.dns.publishRecords(domain.dns_records);
    await checkDomainDns(as(services, principal), { domain: 'parts.example' });
    await services.db.update(domains).set({ sendingType: 'marketing' }).where(eq(domains.domain, 'parts.example'));
    news = (await createList(ctx(), { name: 'News' })).id;
    offers = (await createList(ctx(), { name: 'Offers' })).id;
    const address = (index: number) => `reader${index}@rcpt.example`;
    for (let index = 0; index < 23; index++)
      await createContact(ctx(), { email: address(index), unsubscribed: index === 3 });
    // News: 0-17; Offers: 12-22 (12-17 on both). 20 is unconfirmed on Offers; 3 is unsubscribed.
    await addListMembers(ctx(), { list_id: news, contacts: Array.from({ length: 18 }, (_, i) => address(i)) });
    await addListMembers(ctx(), {
      list_id: offers,
      contacts: Array.from({ length: 11 }, (_, i) => address(12 + i)).filter((email) => email !== address(20)),
    });
    await addListMembers(ctx(), { list_id: offers, contacts: [address(20)], subscription_status: 'unconfirmed' });
  }, 60_000);

  afterAll(async () => {
    await services?.close();
  });

  function ctx() {
    return as(services, principal);
  }
  const row = async (id: string) => (await services.db.select().from(campaigns).where(eq(campaigns.id, id)))[0]!;
  const frozen = async (id: string) =>
    (
      await services.db
        .select({ email: campaignRecipients.email })
        .from(campaignRecipients)
        .where(eq(campaignRecipients.campaignId, id))
    ).map((recipient) => recipient.email);

  async function sent() {
    const created = await createCampaign(ctx(), {
      name: 'Parts',
      from: { email: 'news@parts.example', name: 'News' },
      subject: 'Hello',
      html_content: '<p>Hello</p>',
      list_ids: [news, offers],
    });
    await sendCampaign(ctx(), { campaign_id: created.id });
    expect(await unsafeValidateNextCampaign(services)).toBe('worked');
    return created.id;
  }

  it('freezes four contacts a part, each part committed with its cursor, then starts sending with the whole audience', async () => {
    const id = await sent();
    const live = await countAudience(services.db, {
      accountId: principal.targetAccountId,
      listIds: [news, offers],
      senderDomain: 'parts.example',
      at: new Date(),
    });
    // 0-22 but 3 (unsubscribed) and 20 (unconfirmed): 21 contacts, each once though 12-17 are on both lists.
    expect(live).toBe(21);
    const cursors: (string | null)[] = [];
    for (let part = 0; part < 20 && (await row(id)).status === 'scheduled'; part++) {
      expect(await unsafeStartDueCampaign(services, CHUNK)).toBe('worked');
      cursors.push((await row(id)).snapshotThrough);
    }
    const started = await row(id);
    expect(started.status).toBe('sending');
    expect(started.recipientCount).toBe(21);
    expect(started.snapshotThrough).toBeNull();
    // 21 contacts, four a part: six parts, the sixth short (it starts sending).
    expect(cursors).toHaveLength(6);
    expect(new Set(cursors.slice(0, 5)).size).toBe(5);
    const emails = await frozen(id);
    expect(emails).toHaveLength(21);
    expect(new Set(emails).size).toBe(21);
    expect(emails).not.toContain('reader3@rcpt.example');
    expect(emails).not.toContain('reader20@rcpt.example');
    expect(await unsafeStartDueCampaign(services, CHUNK)).toBe('idle');
  });

  it('unscheduled part-way and sent again, it freezes the audience from the start: no one twice, no one missed', async () => {
    const id = await sent();
    await unsafeStartDueCampaign(services, CHUNK);
    await unsafeStartDueCampaign(services, CHUNK);
    // Eight contacts looked at, reader3 (unsubscribed) left out.
    expect((await frozen(id)).length).toBe(7);
    await unscheduleCampaign(ctx(), { campaign_id: id });
    await sendCampaign(ctx(), { campaign_id: id });
    expect(await unsafeValidateNextCampaign(services)).toBe('worked');
    expect(await row(id)).toMatchObject({ status: 'scheduled', snapshotThrough: null });
    expect(await frozen(id)).toEqual([]);
    while ((await row(id)).status === 'scheduled') await unsafeStartDueCampaign(services, CHUNK);
    expect(await row(id)).toMatchObject({ status: 'sending', recipientCount: 21 });
    expect(new Set(await frozen(id)).size).toBe(21);
  });

  it('cancelled part-way, the part frozen so far goes with it', async () => {
    const id = await sent();
    await unsafeStartDueCampaign(services, CHUNK);
    // The first four contacts looked at; reader3 is unsubscribed.
    expect((await frozen(id)).length).toBe(3);
    const cancelled = await cancelCampaign(ctx(), { campaign_id: id });
    expect(cancelled.status).toBe('cancelled');
    expect(await frozen(id)).toEqual([]);
    expect(await unsafeStartDueCampaign(services, CHUNK)).toBe('idle');
  });
});
