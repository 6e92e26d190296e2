import { recordAuditEvent } from '@/lib/core/audit/record-audit-event';
import { eq } from 'drizzle-orm';
import { signalWork } from '@/lib/core/shared/work-signal';
import { defineVerb } from '@/lib/core/verb';
import { campaigns } from '@/lib/db/schema';
import { releaseCampaignMessages } from './internal/campaign-queue';
import { presentCampaign } from './internal/present';
import { campaignStatusConflict, countCampaign, getCampaignInAccount } from './internal/queries';
import { campaignPathSchema } from './schemas';

/** paused -> sending: the held messages are due again as they were, and the fan-out goes on where it stopped. */
export const resumeCampaign = defineVerb({
  scope: 'campaigns:send',
  input: campaignPathSchema,
  async run(ctx, input) {
    const { db, principal, now } = ctx;
    const row = await db.transaction(async (tx) => {
      const current = await getCampaignInAccount(tx, principal.targetAccountId, input.campaign_id, { forUpdate: true });
      if (current.status !== 'paused')
        throw campaignStatusConflict(current, 'a campaign can be resumed', 'while paused');
      const at = now();
      await releaseCampaignMessages(tx, current, at);
      const [updated] = await tx
        .update(campaigns)
        .set({ status: 'sending', updatedAt: at })
        .where(eq(campaigns.id, current.id))
        .returning();
      await recordAuditEvent(tx, ctx, { action: 'campaign.resume', resource: { type: 'campaign', id: current.id } });
      return updated!;
    });
    signalWork('messages');
    signalWork('campaigns');
    return presentCampaign(row, await countCampaign(db, row));
  },
});
