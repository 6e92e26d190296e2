import { checkCampaign } from '@/lib/core/campaigns/check-campaign';
import { listCampaignPeople } from '@/lib/core/campaigns/list-campaign-people';
import { previewCampaignAudience } from '@/lib/core/campaigns/preview-campaign-audience';
import { audiencePreviewSchema } from '@/lib/core/campaigns/schemas';
import { z } from '@/lib/core/zod';
import type { Endpoint } from '../endpoint';

const anything = z.object({}).passthrough();
const collection = '/internal/accounts/{account_id}/campaigns';
const tags = ['Internal'];
const campaignParams = ({ params }: { params: Record<string, string> }) => ({ campaign_id: params.campaign_id });

/** What the campaign wizard and report need beyond the v2 API (session only). */
export const campaignInternalEndpoints: Endpoint[] = [
  {
    method: 'post',
    path: `${collection}/audience-preview`,
    verb: previewCampaignAudience,
    status: 200,
    summary: 'How many the chosen lists would reach, after unsubscribes and suppressions',
    tags,
    body: audiencePreviewSchema,
    response: anything,
    input: ({ body }) => body,
    isHiddenFromDocument: true,
  },
  {
    method: 'get',
    path: `${collection}/{campaign_id}/check`,
    verb: checkCampaign,
    status: 200,
    summary: "The checks sending would run, without changing the campaign's state",
    tags,
    response: anything,
    input: campaignParams,
    isHiddenFromDocument: true,
  },
  {
    method: 'get',
    path: `${collection}/{campaign_id}/people`,
    verb: listCampaignPeople,
    status: 200,
    summary:
      "The report's latest bounces and unsubscribes (its numbers are GET /v2/.../campaigns/{campaign_id}/report)",
    tags,
    response: anything,
    input: campaignParams,
    isHiddenFromDocument: true,
  },
];
