import { givenFields } from '@/lib/core/audit/given-fields';
import { recordAuditEvent } from '@/lib/core/audit/record-audit-event';
import { eq } from 'drizzle-orm';
import type { ContentColumns } from '@/lib/core/content/content-columns';
import { defineVerb } from '@/lib/core/verb';
import { campaigns } from '@/lib/db/schema';
import { designColumns } from './internal/campaign-design';
import { presentCampaign } from './internal/present';
import { campaignStatusConflict, getCampaignInAccount } from './internal/queries';
import { campaignPathSchema, updateCampaignSchema } from './schemas';

/**
 * Edits a draft: omitted fields stay, null clears; inline content and `template_id` replace each
 * other. Any other state is 409. Editing clears the last validation's reasons.
 */
export const updateCampaign = defineVerb({
  scope: 'campaigns:write',
  input: updateCampaignSchema.safeExtend(campaignPathSchema.shape),
  async run(ctx, input) {
    const { db, principal, now, config } = ctx;
    const accountId = principal.targetAccountId;
    return db.transaction(async (tx) => {
      const current = await getCampaignInAccount(tx, accountId, input.campaign_id, { forUpdate: true });
      if (current.status !== 'draft')
        throw campaignStatusConflict(current, 'a campaign can be edited', 'while it is a draft');
      const [row] = await tx
        .update(campaigns)
        .set({
          ...(input.name !== undefined ? { name: input.name } : {}),
          ...(await designColumns(tx, accountId, input, current as ContentColumns, config)),
          validationErrors: [],
          updatedAt: now(),
        })
        .where(eq(campaigns.id, current.id))
        .returning();
      await recordAuditEvent(tx, ctx, {
        action: 'campaign.update',
        resource: { type: 'campaign', id: current.id },
        changes: givenFields(input, ['campaign_id']),
      });
      return presentCampaign(row!);
    });
  },
});
