import { recordAuditEvent } from '@/lib/core/audit/record-audit-event';
import { eq } from 'drizzle-orm';
import { defineVerb } from '@/lib/core/verb';
import { campaignRecipients, campaigns } from '@/lib/db/schema';
import { cancelCampaignMessages } from './internal/campaign-queue';
import { presentCampaign } from './internal/present';
import { campaignStatusConflict, countCampaign, getCampaignInAccount } from './internal/queries';
import { campaignPathSchema } from './schemas';

const CANCELLABLE = new Set(['scheduled', 'sending', 'paused']);

/**
 * scheduled, sending or paused -> cancelled: every message not yet delivered is cancelled, and the
 * recipients never queued with them; `counts.cancelled` says how many. A message a delivery worker
 * holds right now may still go out; if it comes back undelivered, the delivery loop cancels it.
 */
export const cancelCampaign = defineVerb({
  scope: 'campaigns:send',
  input: campaignPathSchema,
  async run(ctx, input) {
    const { db, principal, now } = ctx;
    const row = await db.transaction(async (tx) => {
      const current = await getCampaignInAccount(tx, principal.targetAccountId, input.campaign_id, { forUpdate: true });
      if (!CANCELLABLE.has(current.status))
        throw campaignStatusConflict(current, 'a campaign can be cancelled', 'while scheduled, sending or paused');
      const at = now();
      if (current.recipientCount !== null) {
        const neverQueued = current.queuedAt ? 0 : Math.max(0, current.recipientCount - current.queuedCount);
        await cancelCampaignMessages(tx, current, { kind: 'free', at }, at, neverQueued);
      } else {
        // Cancelled while its audience was being frozen: the part frozen so far goes with it.
        await tx.delete(campaignRecipients).where(eq(campaignRecipients.campaignId, current.id));
      }
      const [updated] = await tx
        .update(campaigns)
        .set({ status: 'cancelled', updatedAt: at })
        .where(eq(campaigns.id, current.id))
        .returning();
      await recordAuditEvent(tx, ctx, { action: 'campaign.cancel', resource: { type: 'campaign', id: current.id } });
      return updated!;
    });
    return presentCampaign(row, await countCampaign(db, row));
  },
});
