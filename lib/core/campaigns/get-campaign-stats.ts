import { defineVerb } from '@/lib/core/verb';
import { countCampaign, getCampaignInAccount } from './queries';
import { campaignPathSchema } from './schemas';

/** The campaign's numbers; all zero before sending starts. */
export const getCampaignStats = defineVerb({
  scope: 'campaigns:read',
  input: campaignPathSchema,
  async run({ db, principal }, input) {
    const row = await getCampaignInAccount(db, principal.targetAccountId, input.campaign_id);
    const counts = (await countCampaign(db, row)) ?? { recipients: 0, queued: 0, delivered: 0, opened: 0, clicked: 0, bounced: 0, complained: 0, unsubscribed: 0 };
    return { object: 'campaign_stats' as const, campaign_id: row.id, ...counts };
  },
});
