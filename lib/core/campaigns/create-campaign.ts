import { recordAuditEvent } from '@/lib/core/audit/record-audit-event';
import { EMPTY_CONTENT } from '@/lib/core/content/content-columns';
import { defineVerb } from '@/lib/core/verb';
import { campaigns } from '@/lib/db/schema';
import { designColumns } from './internal/campaign-design';
import { presentCampaign } from './internal/present';
import { createCampaignSchema } from './schemas';

/** A new campaign in `draft`. Only the name is needed: the rest can be filled in as the user goes. */
export const createCampaign = defineVerb({
  scope: 'campaigns:write',
  input: createCampaignSchema,
  async run(ctx, input) {
    const { db, principal, now, config } = ctx;
    const accountId = principal.targetAccountId;
    const at = now();
    // Read before the transaction: on the embedded database a read through `db` inside it would wait forever.
    const design = await designColumns(db, accountId, input, EMPTY_CONTENT, config);
    const row = await db.transaction(async (tx) => {
      const [changed] = await tx
        .insert(campaigns)
        .values({
          accountId,
          name: input.name,
          ...design,
          createdAt: at,
          updatedAt: at,
        })
        .returning();
      await recordAuditEvent(tx, ctx, { action: 'campaign.create', resource: { type: 'campaign', id: changed!.id } });
      return changed;
    });
    return presentCampaign(row!);
  },
});
