import { defineVerb } from '@/lib/core/verb';
import { countCampaign, getCampaignInAccount, NO_COUNTS } from './internal/queries';
import { campaignPathSchema } from './schemas';

/** The campaign's numbers; all zero before sending starts. */
export const getCampaignStats = defineVerb({
  scope: 'campaigns:read',
  input: campaignPathSchema,
  async run({ db, principal }, input) {
    const row = await getCampaignInAccount(db, principal.targetAccountId, input.campaign_id);
    const counts = (await countCampaign(db, row)) ?? NO_COUNTS;
    return { object: 'campaign_stats' as const, campaign_id: row.id, ...counts };
  },
});
