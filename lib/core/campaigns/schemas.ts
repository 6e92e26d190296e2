import { contentFormatOutputShape, contentFormatShape } from '@/lib/core/content/schemas';
import { pageQuerySchema } from '@/lib/core/shared/pagination';
import { MAX_CONTENT_CHARS, MAX_SUBJECT_CHARS } from '@/lib/core/templates/schemas';
import { z } from '@/lib/core/zod';
import { abTestOutputShape, abTestShape, reportVariantSchema } from './ab-test-schemas';

/** Inputs and outputs of the campaigns API (marketing-api.md, Campaigns), shared with the dashboard's wizard. */

export const CAMPAIGN_STATUSES = [
  'draft',
  'validating',
  'scheduled',
  'sending',
  'paused',
  'sent',
  'cancelled',
] as const;
export type CampaignStatus = (typeof CAMPAIGN_STATUSES)[number];
export const MAX_TARGET_LISTS = 50;

const idArray = (kind: string) =>
  z
    .array(z.string({ error: `must be ${kind} ids` }).uuid(`must be ${kind} ids`), {
      error: `must be an array of ${kind} ids`,
    })
    .max(MAX_TARGET_LISTS, `must have at most ${MAX_TARGET_LISTS} ${kind}s`)
    .optional();

/** Segments narrow the lists' members and exclusions remove from them (marketing-api.md Part 2, Segments). */
const audienceNarrowingShape = {
  segment_ids: idArray('segment').openapi({
    description: "Only the lists' members in at least one of these segments.",
  }),
  exclude_list_ids: idArray('list').openapi({
    description: 'Leave out members of these lists (a membership of any status).',
  }),
  exclude_segment_ids: idArray('segment').openapi({ description: 'Leave out contacts in any of these segments.' }),
};
export const MAX_TEST_EMAILS = 10;
/** How far ahead a campaign may be scheduled. */
export const MAX_SCHEDULE_DAYS = 365;

const emptyToUndefined = (value: unknown) => (value === '' || value === null ? undefined : value);
const rfc3339 = z.iso.datetime({ offset: true, error: 'must be an RFC 3339 timestamp, e.g. 2026-11-22T10:00:00Z' });

const nameSchema = z
  .string({ error: (issue) => (issue.input === undefined ? 'is required' : 'must be a string') })
  .trim()
  .min(1, 'must not be empty')
  .max(255, 'must be at most 255 characters');
const emailSchema = z
  .string({ error: 'must be a string' })
  .trim()
  .min(1, 'must not be empty')
  .max(320, 'must be at most 320 characters');
const addressSchema = z.object({
  email: emailSchema,
  name: z.string({ error: 'must be a string' }).max(256, 'must be at most 256 characters').nullish(),
});
const partSchema = (max: number, description: string) =>
  z
    .string({ error: 'must be a string' })
    .max(max, `must be at most ${max} characters`)
    .nullish()
    .openapi({ description });

const designShape = {
  from: addressSchema.nullish().openapi({
    description:
      'The sender; its domain must be a verified, unpaused marketing domain of the account when the campaign is sent.',
  }),
  reply_to: addressSchema.nullish(),
  subject: partSchema(
    MAX_SUBJECT_CHARS,
    'A Jinja template: contact fields (`{{ first_name }}`) and attributes by key.',
  ),
  html_content: partSchema(
    MAX_CONTENT_CHARS,
    'A Jinja template. Put `{{ unsubscribe_url }}` where the unsubscribe link goes; without it the server adds a footer with one.',
  ),
  text_content: partSchema(
    MAX_CONTENT_CHARS,
    'A Jinja template. Without `{{ unsubscribe_url }}` the server adds a line with the link.',
  ),
  ...contentFormatShape,
  template_id: z
    .string({ error: 'must be a string' })
    .uuid('must be a template id')
    .nullish()
    .openapi({ description: 'Instead of subject and bodies: a published template.' }),
  template_version: z
    .number({ error: 'must be an integer' })
    .int('must be an integer')
    .min(1, 'must be at least 1')
    .nullish()
    .openapi({
      description: 'The published version to send; by default the latest published when the campaign is sent.',
    }),
  list_ids: z
    .array(z.string({ error: 'must be list ids' }).uuid('must be list ids'), { error: 'must be an array of list ids' })
    .max(MAX_TARGET_LISTS, `must have at most ${MAX_TARGET_LISTS} lists`)
    .optional()
    .openapi({ description: 'Target lists: their confirmed members receive the campaign, each address once.' }),
  ...audienceNarrowingShape,
  tracking: z
    .object(
      {
        open: z.boolean({ error: 'must be a boolean' }).nullish(),
        click: z.boolean({ error: 'must be a boolean' }).nullish(),
      },
      { error: 'must be an object' },
    )
    .nullish()
    .openapi({ description: "Open and click tracking; each omitted value follows the account's default." }),
  ...abTestShape,
};

const bothContentAndTemplate = (input: {
  template_id?: string | null;
  subject?: string | null;
  html_content?: string | null;
  text_content?: string | null;
  markdown_content?: string | null;
  blocks_content?: unknown;
}) =>
  !(
    input.template_id &&
    (input.subject || input.html_content || input.text_content || input.markdown_content || input.blocks_content)
  );
const BOTH_MESSAGE = {
  message: 'give either template_id or the content (subject, html_content, markdown_content, ...), not both',
  path: ['template_id'],
};

export const createCampaignSchema = z
  .object({ name: nameSchema, ...designShape })
  .refine(bothContentAndTemplate, BOTH_MESSAGE)
  .openapi('CreateCampaignRequest');

export const updateCampaignSchema = z
  .object({ name: nameSchema.optional(), ...designShape })
  .refine(bothContentAndTemplate, BOTH_MESSAGE)
  .openapi('UpdateCampaignRequest');
export type UpdateCampaignInput = z.input<typeof updateCampaignSchema>;

export const campaignPathSchema = z.object({ campaign_id: z.string() });

export const sendCampaignSchema = z
  .object({
    send_at: rfc3339
      .nullish()
      .openapi({ description: 'When to start sending; omitted or past: as soon as validation passes.' }),
  })
  .openapi('SendCampaignRequest');

export const testCampaignSchema = z
  .object({
    emails: z
      .array(emailSchema, { error: 'must be an array of email addresses' })
      .min(1, 'must have at least one address')
      .max(MAX_TEST_EMAILS, `must have at most ${MAX_TEST_EMAILS} addresses`),
  })
  .openapi('TestCampaignRequest');

export const listCampaignsQuerySchema = pageQuerySchema.extend({
  status: z.preprocess(
    emptyToUndefined,
    z.enum(CAMPAIGN_STATUSES, { error: `must be one of ${CAMPAIGN_STATUSES.join(', ')}` }).optional(),
  ),
});

const countsShape = {
  recipients: z.number().int().openapi({ description: 'The audience, frozen when sending started.' }),
  queued: z.number().int().openapi({
    description:
      'Messages handed to the delivery engine so far: waiting + deferred + delivered + bounced + failed + suppressed.',
  }),
  waiting: z.number().int().openapi({ description: 'Queued messages waiting for their first attempt.' }),
  deferred: z.number().int().openapi({ description: 'Messages a receiving server put off, waiting for a retry now.' }),
  delivered: z.number().int(),
  bounced: z.number().int(),
  failed: z.number().int().openapi({
    description: 'Messages that could not be delivered (expired after retries, or refused before sending).',
  }),
  suppressed: z
    .number()
    .int()
    .openapi({ description: 'Messages not sent because the recipient was suppressed by then.' }),
  opened: z.number().int().openapi({ description: 'Recipients who opened at least once.' }),
  clicked: z.number().int().openapi({ description: 'Recipients who clicked at least once.' }),
  complained: z.number().int(),
  unsubscribed: z.number().int().openapi({ description: "Recipients who used this campaign's unsubscribe link." }),
  cancelled: z.number().int().openapi({
    description: 'Recipients a cancel took out: their messages not yet delivered, and those not yet queued.',
  }),
};

export const campaignStatsSchema = z
  .object({ object: z.literal('campaign_stats'), campaign_id: z.string().uuid(), ...countsShape })
  .openapi('CampaignStats');

const addressOutSchema = z.object({ email: z.string(), name: z.string().nullable() });

export const campaignSchema = z
  .object({
    object: z.literal('campaign'),
    id: z.string().uuid(),
    name: z.string(),
    status: z.enum(CAMPAIGN_STATUSES),
    from: addressOutSchema.nullable(),
    reply_to: addressOutSchema.nullable(),
    subject: z.string().nullable(),
    html_content: z.string().nullable(),
    text_content: z.string().nullable(),
    ...contentFormatOutputShape,
    template_id: z.string().uuid().nullable(),
    text_generated: z.boolean().openapi({
      description: 'text_content was made from the body (none was given): it is made again as the body changes.',
    }),
    template_version: z.number().int().nullable(),
    list_ids: z.array(z.string().uuid()),
    segment_ids: z.array(z.string().uuid()),
    exclude_list_ids: z.array(z.string().uuid()),
    exclude_segment_ids: z.array(z.string().uuid()),
    tracking: z.object({ open: z.boolean().nullable(), click: z.boolean().nullable() }),
    send_at: z.string().datetime().nullable(),
    validation_errors: z
      .array(z.object({ field: z.string(), message: z.string() }))
      .openapi({ description: 'Why the last validation sent the campaign back to draft.' }),
    counts: z.object(countsShape).nullable().openapi({ description: 'Once sending has started.' }),
    ...abTestOutputShape,
    started_at: z.string().datetime().nullable(),
    queued_at: z.string().datetime().nullable().openapi({
      description: 'When the whole audience was queued; the campaign stays sending until every message has an outcome.',
    }),
    completed_at: z.string().datetime().nullable().openapi({
      description: 'When the campaign became sent: every message delivered, bounced, failed or suppressed.',
    }),
    created_at: z.string().datetime(),
    updated_at: z.string().datetime(),
  })
  .openapi('Campaign');

/** The wizard's live audience count (dashboard only): who the chosen lists would reach from that sender. */
export const audiencePreviewSchema = z.object({
  list_ids: z
    .array(z.string({ error: 'must be list ids' }).uuid('must be list ids'), { error: 'must be an array of list ids' })
    .max(MAX_TARGET_LISTS, `must have at most ${MAX_TARGET_LISTS} lists`),
  ...audienceNarrowingShape,
  from_email: z.preprocess(emptyToUndefined, emailSchema.optional()),
});

const tallies = <K extends string>(names: readonly K[]) =>
  z.object(Object.fromEntries(names.map((name) => [name, z.number().int()])) as Record<K, z.ZodNumber>);

export const REPORT_TOTALS = [
  'recipients',
  'delivered',
  'deferred',
  'bounced',
  'failed',
  'cancelled',
  'opened',
  'unique_opened',
  'clicked',
  'unique_clicked',
  'unsubscribed',
  'complained',
] as const;

export const campaignReportSchema = z
  .object({
    object: z.literal('campaign_report'),
    campaign_id: z.string().uuid(),
    totals: tallies(REPORT_TOTALS).openapi({
      description: '`opened` and `clicked` count every open and click; `unique_*` the messages opened or clicked.',
    }),
    timeline: z
      .array(z.object({ at: z.string().datetime(), ...tallies(['delivered', 'opened', 'clicked'] as const).shape }))
      .openapi({
        description: 'Per hour since sending started (UTC, every hour present); opens and clicks are every one.',
      }),
    links: z.array(z.object({ url: z.string(), clicks: z.number().int(), unique_clicks: z.number().int() })).openapi({
      description: 'The most clicked links (at most 100), most clicks first; unique: messages that clicked.',
    }),
    providers: z
      .array(
        z.object({
          provider: z.enum(['gmail', 'microsoft', 'yahoo', 'apple', 'other']),
          ...tallies(['delivered', 'bounced', 'deferred', 'opened'] as const).shape,
        }),
      )
      .openapi({
        description:
          'Per mailbox provider, decided by the recipient domain’s MX hosts when delivery resolved them (other when unknown); `opened`: messages opened.',
      }),
    variants: z.array(reportVariantSchema).openapi({
      description:
        "An A/B campaign's totals per variant (the rest of the audience counts under the winner); empty otherwise.",
    }),
  })
  .openapi('CampaignReport');
