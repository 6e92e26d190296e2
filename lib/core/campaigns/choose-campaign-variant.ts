import { recordAuditEvent } from '@/lib/core/audit/record-audit-event';
import { defineVerb } from '@/lib/core/verb';
import { conflict, notFound } from '@/lib/shared/errors';
import { chooseVariantPathSchema } from './ab-test-schemas';
import { variantOf } from './internal/ab-test';
import { settleWinner } from './internal/ab-winner';
import { presentCampaign } from './internal/present';
import { countCampaign, getCampaignInAccount } from './internal/queries';

/**
 * Picks an A/B campaign's winner by hand while it waits (marketing-api.md, A/B tests): the phase
 * and the winner change together under the campaign's row lock, so the timed choice and this one
 * never both happen; the rest of the audience then gets the chosen variant.
 */
export const chooseCampaignVariant = defineVerb({
  scope: 'campaigns:send',
  input: chooseVariantPathSchema,
  async run(ctx, input) {
    const { db, principal, now } = ctx;
    const row = await db.transaction(async (tx) => {
      const current = await getCampaignInAccount(tx, principal.targetAccountId, input.campaign_id, { forUpdate: true });
      const variant = variantOf(current, input.variant_id);
      if (!variant) throw notFound(`variant ${input.variant_id} not found in this campaign`);
      if (current.abPhase !== 'waiting' || !['sending', 'paused'].includes(current.status))
        throw conflict(
          `the campaign's A/B test is ${current.abPhase ?? 'not running'}${current.status === 'sending' || current.status === 'paused' ? '' : ` (the campaign is ${current.status})`}: a winner can be chosen only while it is waiting`,
          'ab_phase',
        );
      const at = now();
      await settleWinner(tx, current, variant.id, at);
      await recordAuditEvent(tx, ctx, {
        action: 'campaign.choose_winner',
        resource: { type: 'campaign', id: current.id },
        changes: ['winner_variant_id'],
      });
      return getCampaignInAccount(tx, principal.targetAccountId, current.id);
    });
    return presentCampaign(row, await countCampaign(db, row));
  },
});
