import { recordAuditEvent } from '@/lib/core/audit/record-audit-event';
import { and, eq } from 'drizzle-orm';
import { defineVerb } from '@/lib/core/verb';
import { campaignRecipients, campaigns } from '@/lib/db/schema';
import { campaignStatusConflict, getCampaignInAccount } from './internal/queries';
import { campaignPathSchema } from './schemas';

/** Removes a draft with its design and list choices; lists and contacts stay. Other states 409, a second delete 404. */
export const deleteCampaign = defineVerb({
  scope: 'campaigns:delete',
  input: campaignPathSchema,
  async run(ctx, input) {
    const { db, principal } = ctx;
    return db.transaction(async (tx) => {
      const current = await getCampaignInAccount(tx, principal.targetAccountId, input.campaign_id, { forUpdate: true });
      if (current.status !== 'draft')
        throw campaignStatusConflict(current, 'a campaign can be deleted', 'while it is a draft');
      // A draft's audience is normally empty; campaign_recipients has no foreign key to cascade it.
      await tx
        .delete(campaignRecipients)
        .where(and(eq(campaignRecipients.accountId, current.accountId), eq(campaignRecipients.campaignId, current.id)));
      await tx.delete(campaigns).where(eq(campaigns.id, current.id));
      await recordAuditEvent(tx, ctx, { action: 'campaign.delete', resource: { type: 'campaign', id: current.id } });
      return { message: 'Campaign deleted' };
    });
  },
});
