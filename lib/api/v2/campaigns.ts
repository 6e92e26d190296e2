import { cancelCampaign } from '@/lib/core/campaigns/cancel-campaign';
import { chooseCampaignVariant } from '@/lib/core/campaigns/choose-campaign-variant';
import { createCampaign } from '@/lib/core/campaigns/create-campaign';
import { deleteCampaign } from '@/lib/core/campaigns/delete-campaign';
import { duplicateCampaign } from '@/lib/core/campaigns/duplicate-campaign';
import { getCampaign } from '@/lib/core/campaigns/get-campaign';
import { getCampaignReport } from '@/lib/core/campaigns/get-campaign-report';
import { getCampaignStats } from '@/lib/core/campaigns/get-campaign-stats';
import { listCampaigns } from '@/lib/core/campaigns/list-campaigns';
import { pauseCampaign } from '@/lib/core/campaigns/pause-campaign';
import { resumeCampaign } from '@/lib/core/campaigns/resume-campaign';
import {
  campaignReportSchema,
  campaignSchema,
  campaignStatsSchema,
  createCampaignSchema,
  listCampaignsQuerySchema,
  sendCampaignSchema,
  testCampaignSchema,
  updateCampaignSchema,
} from '@/lib/core/campaigns/schemas';
import { preflightCampaign } from '@/lib/core/campaigns/preflight-campaign';
import { sendCampaign } from '@/lib/core/campaigns/send-campaign';
import { preflightSchema } from '@/lib/core/preflight/checks';
import { testCampaign } from '@/lib/core/campaigns/test-campaign';
import { unscheduleCampaign } from '@/lib/core/campaigns/unschedule-campaign';
import { updateCampaign } from '@/lib/core/campaigns/update-campaign';
import { createMessageResponseSchema } from '@/lib/core/messages/schemas';
import type { Page } from '@/lib/core/shared/pagination';
import { MAX_CONTENT_CHARS } from '@/lib/core/templates/schemas';
import type { Endpoint } from '../endpoint';
import { listEnvelopeSchema, presentPage } from '../pagination';
import { successResponseSchema } from '../schemas';

/** Campaigns (marketing-api.md, Campaigns; the campaign status rules of the service spec). */
const collection = '/v2/accounts/{account_id}/campaigns' as const;
const item = `${collection}/{campaign_id}` as const;
const tags = ['Campaigns'];
// Room for both bodies at their limit, so that a part over its limit is a 400 naming it.
const BODY_LIMIT = 3 * MAX_CONTENT_CHARS;
const campaignParams = ({ params }: { params: Record<string, string> }) => ({ campaign_id: params.campaign_id });

const STATES =
  'States: draft -> validating -> scheduled -> sending -> sent; sending <-> paused; scheduled, sending or paused -> cancelled. Validation runs in the worker within a second or so; a failed check returns the campaign to draft with `validation_errors`.';
const CONFLICT =
  'Any other state is 409 (no idempotency headers); with an Idempotency-Key that 409 is stored and replayed like any deterministic 4xx.';

export const campaignEndpoints = [
  {
    method: 'get',
    path: collection,
    verb: listCampaigns,
    status: 200,
    summary: 'List campaigns',
    description: 'Newest first, cursor-paginated, filtered by `status`.',
    tags,
    query: listCampaignsQuerySchema,
    response: listEnvelopeSchema(campaignSchema, 'PaginatedCampaignsResponse'),
    input: ({ query }) => query,
    present: (page: Page<unknown>) => presentPage(page),
  },
  {
    method: 'post',
    path: collection,
    verb: createCampaign,
    status: 201,
    summary: 'Create a campaign',
    description: `A draft; only \`name\` is required, the rest can be filled in later. Content is inline (subject, html_content, text_content: Jinja templates with the contact's fields and attributes) or a published template; \`list_ids\` and \`template_id\` must be the account's. ${STATES} Idempotency-Key is supported.`,
    tags,
    body: createCampaignSchema,
    response: campaignSchema,
    input: ({ body }) => body,
    idempotency: 'standard',
    bodyLimit: BODY_LIMIT,
  },
  {
    method: 'get',
    path: item,
    verb: getCampaign,
    status: 200,
    summary: 'Get a campaign',
    description: '`counts` appear once sending has started.',
    tags,
    response: campaignSchema,
    input: campaignParams,
  },
  {
    method: 'put',
    path: item,
    verb: updateCampaign,
    status: 200,
    summary: 'Edit a draft campaign',
    description: `Partial: omitted fields stay, null clears. Inline content and \`template_id\` replace each other. Only drafts: ${CONFLICT}`,
    tags,
    body: updateCampaignSchema,
    response: campaignSchema,
    input: ({ body, params }) => ({ ...body, campaign_id: params.campaign_id }),
    bodyLimit: BODY_LIMIT,
  },
  {
    method: 'delete',
    path: item,
    verb: deleteCampaign,
    status: 200,
    summary: 'Delete a draft campaign',
    description:
      'Removes the draft with its design and list choices; lists and contacts stay. Any other state is 409; a second delete is 404.',
    tags,
    response: successResponseSchema,
    input: campaignParams,
  },
  {
    method: 'post',
    path: `${item}/send` as const,
    verb: sendCampaign,
    status: 200,
    summary: 'Send or schedule a campaign',
    description: `From draft to validating; then scheduled, and sending at \`send_at\` (or at once). The audience is frozen when sending starts: the target lists' confirmed members, minus unsubscribed contacts and suppressed addresses, each once. Every message carries List-Unsubscribe (HTTPS and mailto) and List-Unsubscribe-Post (RFC 8058), both DKIM-signed. ${STATES} ${CONFLICT} Idempotency-Key is supported.`,
    tags,
    body: sendCampaignSchema,
    response: campaignSchema,
    input: ({ body, params }) => ({ ...(body ?? {}), campaign_id: params.campaign_id }),
    idempotency: 'standard',
  },
  {
    method: 'post',
    path: `${item}/unschedule` as const,
    verb: unscheduleCampaign,
    status: 200,
    summary: 'Unschedule a campaign',
    description: `Back to draft from validating or scheduled (no mail is queued in those states). ${CONFLICT}`,
    tags,
    response: campaignSchema,
    input: campaignParams,
    idempotency: 'standard',
  },
  {
    method: 'post',
    path: `${item}/pause` as const,
    verb: pauseCampaign,
    status: 200,
    summary: 'Pause a sending campaign',
    description: `sending -> paused. Its messages not yet handed to a recipient's server stay queued and are not delivered while paused (those a delivery worker is handing over at that moment may finish); no more are queued. ${CONFLICT}`,
    tags,
    response: campaignSchema,
    input: campaignParams,
    idempotency: 'standard',
  },
  {
    method: 'post',
    path: `${item}/resume` as const,
    verb: resumeCampaign,
    status: 200,
    summary: 'Resume a paused campaign',
    description: `paused -> sending: the held messages go out, and queueing goes on where it stopped. ${CONFLICT}`,
    tags,
    response: campaignSchema,
    input: campaignParams,
    idempotency: 'standard',
  },
  {
    method: 'post',
    path: `${item}/cancel` as const,
    verb: cancelCampaign,
    status: 200,
    summary: 'Cancel a campaign',
    description: `From scheduled, sending or paused to cancelled: every message not yet delivered is cancelled (status \`cancelled\`), and recipients not yet queued get none. The campaign keeps its counts; \`counts.cancelled\` says how many recipients the cancel took out. ${CONFLICT}`,
    tags,
    response: campaignSchema,
    input: campaignParams,
    idempotency: 'standard',
  },
  {
    method: 'post',
    path: `${item}/duplicate` as const,
    verb: duplicateCampaign,
    status: 201,
    summary: 'Duplicate a campaign',
    description:
      'From any state: a new draft named "Copy of ..." with the same content, sender, lists, A/B variants and settings. Idempotency-Key is supported.',
    tags,
    response: campaignSchema,
    input: campaignParams,
    idempotency: 'standard',
  },
  {
    method: 'post',
    path: `${item}/variants/{variant_id}/choose` as const,
    verb: chooseCampaignVariant,
    status: 200,
    summary: "Choose an A/B campaign's winner",
    description: `While the A/B test is \`waiting\` (its test part queued, the wait not over): the variant becomes the winner and the rest of the audience gets it. 404 for a variant the campaign does not have; any other phase is 409 (no idempotency headers), stored and replayed with an Idempotency-Key like any deterministic 4xx.`,
    tags,
    response: campaignSchema,
    input: ({ params }) => ({ campaign_id: params.campaign_id, variant_id: params.variant_id }),
    idempotency: 'standard',
  },
  {
    method: 'post',
    path: `${item}/test` as const,
    verb: testCampaign,
    status: 200,
    summary: 'Send a test of a draft campaign',
    description:
      'Sends the draft as it stands to 1-10 addresses, with "[Test] " before the subject; an address that is a contact gets its values. Counted nowhere in the campaign. Only drafts: 409 otherwise, and that 409 is never stored for an Idempotency-Key (retry with the same key once the campaign is a draft again).',
    tags,
    body: testCampaignSchema,
    response: createMessageResponseSchema,
    input: ({ body, params }) => ({ ...body, campaign_id: params.campaign_id }),
    idempotency: 'uncommitted-conflicts',
  },
  {
    method: 'post',
    path: `${item}/preflight` as const,
    verb: preflightCampaign,
    status: 200,
    summary: 'Preflight a campaign',
    description:
      'Runs every check on the campaign as it stands, changing nothing: sender (verified, unpaused, marketing; DMARC published), audience, content, html_size (Gmail clips over 102 KB), text_part, unsubscribe_link, links and images (fetched through the SSRF guard webhooks use), spam_score (SpamAssassin at SPAMD_URL; skipped without it). `status` is the worst check. A send is refused for the sender, audience, content and unsubscribe_link failures; links, images and spam score only inform.',
    tags,
    response: preflightSchema,
    input: campaignParams,
  },
  {
    method: 'get',
    path: `${item}/stats` as const,
    verb: getCampaignStats,
    status: 200,
    summary: "A campaign's numbers",
    description:
      'recipients (the frozen audience), queued, delivered, opened and clicked (unique recipients), bounced, complained, and unsubscribed through this campaign.',
    tags,
    response: campaignStatsSchema,
    input: campaignParams,
  },
  {
    method: 'get',
    path: `${item}/report` as const,
    verb: getCampaignReport,
    status: 200,
    summary: "A campaign's report",
    description:
      'Totals (with unique opens and clicks), an hourly timeline, links and mailbox providers, read from counters kept as events happen: its time does not grow with the audience. Campaigns sent before the report existed have totals but no timeline, links or providers.',
    tags,
    response: campaignReportSchema,
    input: campaignParams,
  },
] satisfies Endpoint[];
