import { recordAuditEvent } from '@/lib/core/audit/record-audit-event';
import { eq } from 'drizzle-orm';
import { getAccountById } from '@/lib/core/accounts/queries';
import { assertWithinMonthlyCredit } from '@/lib/core/messages/internal/assert-within-monthly-credit';
import { defineVerb } from '@/lib/core/verb';
import { campaigns } from '@/lib/db/schema';
import { invalidInput } from '@/lib/shared/errors';
import { signalWork } from '@/lib/core/shared/work-signal';
import { presentCampaign } from './internal/present';
import { campaignStatusConflict, getCampaignInAccount } from './internal/queries';
import { campaignPathSchema, MAX_SCHEDULE_DAYS, sendCampaignSchema } from './schemas';

/**
 * Hands a draft to the campaign worker: `validating` now, then `scheduled` (or back to `draft` with
 * the reasons), then sending at `send_at`. Only a draft can be sent; any other state is the spec's
 * 409, which an Idempotency-Key stores and replays like any deterministic 4xx.
 */
export const sendCampaign = defineVerb({
  scope: 'campaigns:send',
  input: sendCampaignSchema.extend(campaignPathSchema.shape),
  async run(ctx, input) {
    const { db, principal, now } = ctx;
    const at = now();
    const sendAt = input.send_at ? new Date(input.send_at) : null;
    if (sendAt && sendAt.getTime() > at.getTime() + MAX_SCHEDULE_DAYS * 86_400_000)
      throw invalidInput(`send_at: must be within ${MAX_SCHEDULE_DAYS} days`, 'send_at');
    // A capped account with nothing left this month is refused up front; the worker checks the whole
    // audience against what is left when the campaign starts (back to draft if it does not fit).
    await assertWithinMonthlyCredit(db, await getAccountById(db, principal.targetAccountId), 1, at);
    const row = await db.transaction(async (tx) => {
      const current = await getCampaignInAccount(tx, principal.targetAccountId, input.campaign_id, { forUpdate: true });
      if (current.status !== 'draft') throw campaignStatusConflict(current, 'a campaign can be sent', 'from draft');
      const [updated] = await tx
        .update(campaigns)
        .set({
          status: 'validating',
          sendAt: sendAt && sendAt > at ? sendAt : null,
          validationErrors: [],
          updatedAt: at,
        })
        .where(eq(campaigns.id, current.id))
        .returning();
      await recordAuditEvent(tx, ctx, { action: 'campaign.send', resource: { type: 'campaign', id: current.id } });
      return updated!;
    });
    signalWork('campaigns');
    return presentCampaign(row);
  },
});
