import { recordAuditEvent } from '@/lib/core/audit/record-audit-event';
import { eq } from 'drizzle-orm';
import { defineVerb } from '@/lib/core/verb';
import { campaigns } from '@/lib/db/schema';
import { presentCampaign } from './internal/present';
import { campaignStatusConflict, getCampaignInAccount } from './internal/queries';
import { campaignPathSchema } from './schemas';

/**
 * Back to `draft` from `validating` or `scheduled`. Mail is queued only once sending starts (in the
 * same transaction that leaves `scheduled`), so those two states never have queued mail; the row
 * lock makes the worker's start and this wait for each other.
 */
export const unscheduleCampaign = defineVerb({
  scope: 'campaigns:send',
  input: campaignPathSchema,
  async run(ctx, input) {
    const { db, principal, now } = ctx;
    return db.transaction(async (tx) => {
      const current = await getCampaignInAccount(tx, principal.targetAccountId, input.campaign_id, { forUpdate: true });
      if (current.status !== 'validating' && current.status !== 'scheduled') {
        throw campaignStatusConflict(
          current,
          'a campaign can be unscheduled',
          'while validating or scheduled, before any mail is queued',
        );
      }
      const [row] = await tx
        .update(campaigns)
        .set({ status: 'draft', sendAt: null, updatedAt: now() })
        .where(eq(campaigns.id, current.id))
        .returning();
      await recordAuditEvent(tx, ctx, {
        action: 'campaign.unschedule',
        resource: { type: 'campaign', id: current.id },
      });
      return presentCampaign(row!);
    });
  },
});
