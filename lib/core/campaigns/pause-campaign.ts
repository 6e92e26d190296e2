import { recordAuditEvent } from '@/lib/core/audit/record-audit-event';
import { eq } from 'drizzle-orm';
import { defineVerb } from '@/lib/core/verb';
import { campaigns } from '@/lib/db/schema';
import { holdCampaignMessages } from './internal/campaign-queue';
import { presentCampaign } from './internal/present';
import { campaignStatusConflict, countCampaign, getCampaignInAccount } from './internal/queries';
import { campaignPathSchema } from './schemas';

/**
 * sending -> paused: the fan-out stops at its next batch (it queues only while `sending`), and the
 * campaign's queued messages are held at once. Messages a delivery worker has already claimed may
 * still go out; should one come back (deferred, or its lease lost), the delivery loop holds it too.
 */
export const pauseCampaign = defineVerb({
  scope: 'campaigns:send',
  input: campaignPathSchema,
  async run(ctx, input) {
    const { db, principal, now } = ctx;
    const row = await db.transaction(async (tx) => {
      const current = await getCampaignInAccount(tx, principal.targetAccountId, input.campaign_id, { forUpdate: true });
      if (current.status !== 'sending')
        throw campaignStatusConflict(current, 'a campaign can be paused', 'while sending');
      const at = now();
      await holdCampaignMessages(tx, current, { kind: 'free', at }, at);
      const [updated] = await tx
        .update(campaigns)
        .set({ status: 'paused', updatedAt: at })
        .where(eq(campaigns.id, current.id))
        .returning();
      await recordAuditEvent(tx, ctx, { action: 'campaign.pause', resource: { type: 'campaign', id: current.id } });
      return updated!;
    });
    return presentCampaign(row, await countCampaign(db, row));
  },
});
