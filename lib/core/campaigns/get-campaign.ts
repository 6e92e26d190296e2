import { defineVerb } from '@/lib/core/verb';
import { presentCampaign } from './internal/present';
import { countCampaign, getCampaignInAccount } from './internal/queries';
import { campaignPathSchema } from './schemas';

/** The campaign, with its counts once sending has started. */
export const getCampaign = defineVerb({
  scope: 'campaigns:read',
  input: campaignPathSchema,
  async run({ db, principal }, input) {
    const row = await getCampaignInAccount(db, principal.targetAccountId, input.campaign_id);
    return presentCampaign(row, await countCampaign(db, row));
  },
});
