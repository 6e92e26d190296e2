import { and, inArray, sql } from 'drizzle-orm';
import { cancelCampaignMessages, holdCampaignMessages } from '@/lib/core/campaigns/internal/campaign-queue';
import type { Db } from '@/lib/db/client';
import { campaigns } from '@/lib/db/schema';
import type { ClaimedMessage } from './claim-due-messages';

/**
 * Claimed messages of a paused campaign are held again and those of a cancelled one cancelled,
 * instead of going out: the campaign's state is read after the claim (one primary-key read of the
 * batch's campaigns), as for held accounts, so the claim query stays as it is. Pause and cancel
 * move a campaign's free messages themselves; this catches those a worker held at that moment.
 * Unsafe: it settles messages of any account; only the delivery loop calls it, on its own claims.
 */
export async function unsafeHoldStoppedCampaignMessages(
  db: Db,
  claimed: ClaimedMessage[],
  options: { workerId: string; now: Date },
): Promise<ClaimedMessage[]> {
  const campaignIds = [...new Set(claimed.flatMap((message) => (message.campaignId ? [message.campaignId] : [])))];
  if (campaignIds.length === 0) return claimed;
  const stopped = await db
    .select({ id: campaigns.id, accountId: campaigns.accountId, status: campaigns.status })
    .from(campaigns)
    .where(and(inArray(campaigns.id, campaignIds), inArray(campaigns.status, ['paused', 'cancelled'])));
  if (stopped.length === 0) return claimed;
  const { workerId, now } = options;
  const taken = new Set<string>();
  for (const campaign of stopped) {
    const ids = claimed.filter((message) => message.campaignId === campaign.id).map((message) => message.id);
    const selection = { kind: 'claimed' as const, ids, workerId };
    // The campaign's row lock orders this after a pause, resume or cancel in flight.
    await db.transaction(async (tx) => {
      const [current] = await tx
        .execute(sql`select status from campaigns where id = ${campaign.id} for share`)
        .then((result) => (result as unknown as { rows: { status: string }[] }).rows);
      if (current?.status === 'paused') await holdCampaignMessages(tx, campaign, selection, now);
      else if (current?.status === 'cancelled') await cancelCampaignMessages(tx, campaign, selection, now);
      else return;
      for (const id of ids) taken.add(id);
    });
  }
  return claimed.filter((message) => !taken.has(message.id));
}
