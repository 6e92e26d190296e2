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
  async run({ db, principal, now, config }, input) {
    const accountId = principal.targetAccountId;
    const at = now();
    const [row] = await db
      .insert(campaigns)
      .values({
        accountId,
        name: input.name,
        ...(await designColumns(db, accountId, input, EMPTY_CONTENT, config)),
        createdAt: at,
        updatedAt: at,
      })
      .returning();
    return presentCampaign(row!);
  },
});
