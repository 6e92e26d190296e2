import { defineVerb } from '@/lib/core/verb';
import { getCampaignInAccount } from './queries';
import { campaignPathSchema } from './schemas';
import { validateCampaign } from './validate-campaign';

/**
 * The checks sending would run, now, without changing the campaign: the wizard's Review step shows
 * each failure before the user presses Send. Validation in the worker stays the deciding run.
 */
export const checkCampaign = defineVerb({
  scope: 'campaigns:read',
  input: campaignPathSchema,
  async run(services, input) {
    const row = await getCampaignInAccount(services.db, services.principal.targetAccountId, input.campaign_id);
    const validation = await validateCampaign(services, services.db, row);
    return {
      object: 'campaign_check' as const,
      campaign_id: row.id,
      status: row.status,
      is_valid: validation.errors.length === 0,
      errors: validation.errors,
      audience: validation.audience ?? 0,
      sender_domain: validation.domain?.domain ?? null,
    };
  },
});
