import { contentFormatShape } from '@/lib/core/content/schemas';
import { MAX_CONTENT_CHARS, MAX_SUBJECT_CHARS } from '@/lib/core/templates/schemas';
import { z } from '@/lib/core/zod';

/** The A/B fields of a campaign (marketing-api.md, A/B tests): input and output, shared with the wizard. */

export const MIN_VARIANTS = 2;
export const MAX_VARIANTS = 4;
export const AB_METRICS = ['opens', 'clicks'] as const;
export type AbMetric = (typeof AB_METRICS)[number];
export const AB_PHASES = ['testing', 'waiting', 'winner_sent'] as const;
export type AbPhase = (typeof AB_PHASES)[number];
export const TEST_PERCENT = { min: 5, max: 50 } as const;
export const WAIT_MINUTES = { min: 15, max: 1440 } as const;
/** Ids the server gives variants that come without one, in order. */
export const VARIANT_LETTERS = ['a', 'b', 'c', 'd'] as const;

const text = (max: number) =>
  z.string({ error: 'must be a string' }).max(max, `must be at most ${max} characters`).nullish();

export const variantInputSchema = z
  .object(
    {
      id: z
        .string({ error: 'must be a string' })
        .regex(/^[A-Za-z0-9_-]{1,32}$/, 'must be 1-32 letters, digits, _ or -')
        .optional()
        .openapi({ description: 'Given by the server (a, b, c, d) when omitted; unique within the campaign.' }),
      name: z.string({ error: 'must be a string' }).trim().max(100, 'must be at most 100 characters').optional(),
      subject: text(MAX_SUBJECT_CHARS),
      from_name: text(256),
      html_content: text(MAX_CONTENT_CHARS),
      text_content: text(MAX_CONTENT_CHARS),
      ...contentFormatShape,
      template_id: z.string({ error: 'must be a string' }).uuid('must be a template id').nullish(),
    },
    { error: 'must be an object' },
  )
  .strict()
  .refine(
    (variant) => !(variant.template_id && (variant.html_content || variant.markdown_content || variant.blocks_content)),
    { message: 'give either template_id or the content, not both', path: ['template_id'] },
  );
export type VariantInput = z.output<typeof variantInputSchema>;

export const abTestInputSchema = z
  .object(
    {
      test_percent: z
        .number({ error: 'must be an integer' })
        .int('must be an integer')
        .min(TEST_PERCENT.min, `must be at least ${TEST_PERCENT.min}`)
        .max(TEST_PERCENT.max, `must be at most ${TEST_PERCENT.max}`),
      metric: z.enum(AB_METRICS, { error: 'must be opens or clicks' }),
      wait_minutes: z
        .number({ error: 'must be an integer' })
        .int('must be an integer')
        .min(WAIT_MINUTES.min, `must be at least ${WAIT_MINUTES.min}`)
        .max(WAIT_MINUTES.max, `must be at most ${WAIT_MINUTES.max}`),
    },
    { error: 'must be an object' },
  )
  .strict();

/** Spread into the campaign's design fields: null clears the test. */
export const abTestShape = {
  variants: z
    .array(variantInputSchema, { error: 'must be an array of variants' })
    .min(MIN_VARIANTS, `must have at least ${MIN_VARIANTS} variants`)
    .max(MAX_VARIANTS, `must have at most ${MAX_VARIANTS} variants`)
    .refine(
      (variants) => new Set(variants.map((v) => v.id).filter(Boolean)).size === variants.filter((v) => v.id).length,
      {
        message: 'variant ids must be unique',
      },
    )
    .nullish()
    .openapi({
      description:
        "An A/B test's 2-4 variants; what a variant omits comes from the campaign. Needs `ab_test`. null clears both.",
    }),
  ab_test: abTestInputSchema.nullish().openapi({
    description:
      '`test_percent` of the audience gets the variants, split evenly; after `wait_minutes` the variant with the highest unique rate of `metric` among its delivered messages goes to the rest.',
  }),
};

export const variantOutputSchema = z.object({
  id: z.string(),
  name: z.string(),
  subject: z.string().nullable(),
  from_name: z.string().nullable(),
  preheader: z.string().nullable(),
  format: z.enum(['html', 'markdown', 'blocks']).nullable(),
  html_content: z.string().nullable(),
  text_content: z.string().nullable(),
  markdown_content: z.string().nullable(),
  blocks_content: z.unknown().nullable(),
  template_id: z.string().nullable(),
});

export const abTestOutputShape = {
  variants: z.array(variantOutputSchema).nullable(),
  ab_test: z
    .object({ test_percent: z.number().int(), metric: z.enum(AB_METRICS), wait_minutes: z.number().int() })
    .nullable(),
  ab_phase: z.enum(AB_PHASES).nullable().openapi({ description: 'While an A/B campaign sends.' }),
  winner_variant_id: z.string().nullable(),
  ab_wait_until: z
    .string()
    .datetime()
    .nullable()
    .openapi({ description: 'When the winner is chosen, once the test part is queued.' }),
};

const VARIANT_TALLIES = [
  'recipients',
  'delivered',
  'deferred',
  'bounced',
  'failed',
  'cancelled',
  'unique_opened',
  'unique_clicked',
  'opened',
  'clicked',
  'unsubscribed',
  'complained',
] as const;

export const reportVariantSchema = z.object({
  id: z.string(),
  name: z.string(),
  is_winner: z.boolean(),
  ...(Object.fromEntries(VARIANT_TALLIES.map((name) => [name, z.number().int()])) as Record<
    (typeof VARIANT_TALLIES)[number],
    z.ZodNumber
  >),
  open_rate: z.number().openapi({ description: 'unique_opened / delivered (0 when none delivered).' }),
  click_rate: z.number().openapi({ description: 'unique_clicked / delivered (0 when none delivered).' }),
});

export const chooseVariantPathSchema = z.object({ campaign_id: z.string(), variant_id: z.string().max(64) });
