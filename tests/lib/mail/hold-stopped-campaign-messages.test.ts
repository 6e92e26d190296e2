import { eq, inArray } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { readCampaignCounters } from '@/lib/core/campaigns/campaign-counters';
import { holdCampaignMessages, releaseCampaignMessages } from '@/lib/core/campaigns/internal/campaign-queue';
import { readReportCounters } from '@/lib/core/campaigns/internal/report-counters';
import { unsafePurgeExpiredMessages } from '@/lib/core/messages/purge-expired-messages';
import type { Db } from '@/lib/db/client';
import { accounts, campaigns, messages, users } from '@/lib/db/schema';
import { unsafeClaimDueMessages } from '@/lib/mail/claim-due-messages';
import { unsafeHoldStoppedCampaignMessages } from '@/lib/mail/hold-stopped-campaign-messages';
import { openMemoryDatabase, queuedMessage } from '../../support/memory-database';

/** Claimed messages of a paused campaign are held, of a cancelled one cancelled; the rest go on. */
describe('holding the claimed messages of paused and cancelled campaigns (in-memory PGlite)', () => {
  let db: Db;
  let accountId: string;
  const campaign: Record<'sending' | 'paused' | 'cancelled', string> = { sending: '', paused: '', cancelled: '' };
  beforeAll(async () => {
    db = await openMemoryDatabase();
    const [owner] = await db.insert(users).values({ email: 'owner@stop.example', passwordHash: 'x' }).returning();
    const [account] = await db.insert(accounts).values({ ownerId: owner.id, name: 'stop' }).returning();
    accountId = account.id;
    for (const status of Object.keys(campaign) as (keyof typeof campaign)[]) {
      const [row] = await db.insert(campaigns).values({ accountId, name: status, status }).returning();
      campaign[status] = row.id;
    }
  }, 60_000);

  it("passes on plain and sending-campaign mail, holds a paused campaign's until resume, cancels a cancelled one's with its counts", async () => {
    const now = new Date(Date.now() + 1000);
    const due = new Date(now.getTime() - 5000);
    const rows = [
      queuedMessage(null, { accountId, nextAttemptAt: due }),
      queuedMessage(null, { accountId, campaignId: campaign.sending, nextAttemptAt: due }),
      queuedMessage(null, { accountId, campaignId: campaign.paused, nextAttemptAt: due }),
      queuedMessage(null, { accountId, campaignId: campaign.paused, nextAttemptAt: due, status: 'deferred' }),
      queuedMessage(null, { accountId, campaignId: campaign.cancelled, nextAttemptAt: due }),
      queuedMessage(null, {
        accountId,
        campaignId: campaign.cancelled,
        nextAttemptAt: due,
        status: 'deferred',
        mailboxProvider: 'gmail',
      }),
    ];
    await db.insert(messages).values(rows);
    const claimed = await unsafeClaimDueMessages(db, { workerId: 'w1', limit: 10, leaseMs: 60_000, now });
    expect(claimed).toHaveLength(6);

    const deliverable = await unsafeHoldStoppedCampaignMessages(db, claimed, { workerId: 'w1', now });
    expect(deliverable.map((message) => message.id).sort()).toEqual([rows[0].id, rows[1].id].sort());

    const byId = async (ids: (string | undefined)[]) =>
      db
        .select()
        .from(messages)
        .where(inArray(messages.id, ids as string[]));
    for (const held of await byId([rows[2].id, rows[3].id])) {
      expect(held).toMatchObject({ lockedBy: null, leaseUntil: null, attempts: 0 });
      expect(held.status).toMatch(/queued|deferred/);
      expect(held.nextAttemptAt!.getFullYear()).toBeGreaterThan(now.getFullYear() + 900);
    }
    for (const gone of await byId([rows[4].id, rows[5].id]))
      expect(gone).toMatchObject({ status: 'cancelled', lockedBy: null, nextAttemptAt: null });
    const counts = (await readCampaignCounters(db, accountId, [campaign.cancelled])).get(campaign.cancelled);
    expect(counts).toMatchObject({ cancelled: 2, deferred: -1 });
    // The deferral leaves its mailbox provider's count too, so the report's providers add up to its totals.
    const report = await readReportCounters(db, { id: campaign.cancelled, accountId });
    expect(report.providers.find((entry) => entry.provider === 'gmail')).toMatchObject({ deferred: -1 });
    // Held mail is not due, however late it is asked for (the two passed on are, their lease run out).
    const later = new Date(now.getTime() + 365 * 86_400_000);
    const reclaimed = await unsafeClaimDueMessages(db, { workerId: 'w2', limit: 10, leaseMs: 60_000, now: later });
    expect(reclaimed.map((message) => message.id).sort()).toEqual([rows[0].id, rows[1].id].sort());

    // Resume: each held message is due when it was before the pause.
    await releaseCampaignMessages(db, { id: campaign.paused, accountId }, now);
    for (const released of await byId([rows[2].id, rows[3].id]))
      expect(released.nextAttemptAt!.getTime()).toBe(due.getTime());
    expect((await byId([rows[2].id]))[0].status).toBe('queued');
    await db.update(campaigns).set({ status: 'sending' }).where(eq(campaigns.id, campaign.paused));
  });

  it('a pause of three days neither expires nor purges held mail; resume gives each message the time it had left', async () => {
    const [paused] = await db.insert(campaigns).values({ accountId, name: 'weekend', status: 'paused' }).returning();
    const start = new Date(Date.now() + 2000);
    const row = queuedMessage(null, {
      accountId,
      campaignId: paused.id,
      nextAttemptAt: start,
      expiresAt: new Date(start.getTime() + 3_600_000),
      retainUntil: new Date(start.getTime() + 86_400_000),
    });
    await db.insert(messages).values(row);
    expect(await holdCampaignMessages(db, { id: paused.id, accountId }, { kind: 'free', at: start }, start)).toBe(1);
    const monday = new Date(start.getTime() + 3 * 86_400_000);
    await unsafePurgeExpiredMessages(db, monday);
    const [held] = await db.select().from(messages).where(eq(messages.id, row.id!));
    expect(held, 'purged while paused').toBeDefined();

    await releaseCampaignMessages(db, { id: paused.id, accountId }, monday);
    const [released] = await db.select().from(messages).where(eq(messages.id, row.id!));
    expect(released.expiresAt.getTime()).toBe(monday.getTime() + 3_600_000);
    expect(released.retainUntil.getTime()).toBe(monday.getTime() + 86_400_000);
    expect(released.nextAttemptAt!.getTime()).toBe(start.getTime());
    const due = await unsafeClaimDueMessages(db, { workerId: 'w3', limit: 10, leaseMs: 60_000, now: monday });
    expect(due.map((message) => message.id)).toContain(row.id);
  });
});
