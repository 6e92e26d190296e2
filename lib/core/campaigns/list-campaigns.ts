import { and, eq } from 'drizzle-orm';
import { paginate } from '@/lib/core/shared/pagination';
import { defineVerb } from '@/lib/core/verb';
import { campaigns } from '@/lib/db/schema';
import { presentCampaign, type CampaignRow } from './internal/present';
import { countCampaigns } from './internal/queries';
import { listCampaignsQuerySchema } from './schemas';

/** The account's campaigns, newest first, optionally in one status. */
export const listCampaigns = defineVerb({
  scope: 'campaigns:read',
  input: listCampaignsQuerySchema,
  async run({ db, principal }, query) {
    return paginate(db, {
      table: campaigns,
      idColumn: campaigns.id,
      where: and(
        eq(campaigns.accountId, principal.targetAccountId),
        query.status ? eq(campaigns.status, query.status) : undefined,
      ),
      query,
      map: async (rows: CampaignRow[]) => {
        const counts = await countCampaigns(db, rows);
        return rows.map((row) => presentCampaign(row, counts.get(row.id) ?? null));
      },
    });
  },
});
